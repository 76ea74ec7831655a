/**
 * Memory per open idle session: the gateway's resident set size (after a garbage collection)
 * with N interactive shells open through it, minus its size with none, divided by N. The
 * member's side is ssh2 clients inside this process (one SSH connection with one pty shell
 * each, as `ssh -tt` would open), because a thousand OpenSSH client processes would cost the
 * machine gigabytes that say nothing about the gateway. Shells open a few at a time: the
 * target sshd's MaxStartups is raised for this (see lib/stack.ts), and each shell also holds a
 * target sshd session and a bash, which bound how many the machine can hold.
 */
import { Client, type ClientChannel } from 'ssh2';
import { rssBytes, say, sleep } from './lib/proc';
import type { Stack } from './lib/stack';

export interface MemoryPoint {
  sessions: number;
  /** Gateway RSS with no session, and with `sessions` open (bytes). */
  baseline: number;
  loaded: number;
  perSessionBytes: number;
  /**
   * The same against the RSS before the first size: V8 keeps the heap an earlier size grew,
   * so a later size's own baseline already holds part of what its sessions need. The larger
   * of the two is the honest figure.
   */
  perSessionFromFirst: number;
}

interface Open {
  client: Client;
  shell: ClientChannel;
}

function openShell(stack: Stack): Promise<Open> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    const timer = setTimeout(() => {
      client.end();
      reject(new Error('shell did not open in 60 s'));
    }, 60_000);
    client.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    client.on('ready', () => {
      client.shell({ term: 'xterm', cols: 80, rows: 24 }, (err, shell) => {
        if (err) {
          clearTimeout(timer);
          client.end();
          return reject(err);
        }
        // Ready once the prompt (any output) arrives: the target's shell runs.
        shell.once('data', () => {
          clearTimeout(timer);
          resolve({ client, shell });
        });
        shell.on('data', () => undefined);
        shell.stderr.on('data', () => undefined);
      });
    });
    client.connect({
      host: '127.0.0.1',
      port: stack.gatewaySshPort,
      username: stack.code,
      privateKey: stack.memberKey,
      algorithms: { cipher: ['aes128-gcm@openssh.com'] },
      readyTimeout: 60_000,
      keepaliveInterval: 0,
    });
  });
}

async function settledRss(stack: Stack): Promise<number> {
  await sleep(1000);
  await stack.gatewayGc();
  await sleep(500);
  return rssBytes(stack.gatewayPid);
}

export async function runMemory(stack: Stack, counts: number[]): Promise<MemoryPoint[]> {
  const points: MemoryPoint[] = [];
  // Warm-up: a few sessions opened and closed, so that code paths are compiled and loaded.
  const warm = await Promise.all(Array.from({ length: 5 }, () => openShell(stack)));
  for (const s of warm) s.client.end();
  await sleep(2000);
  let first: number | undefined;
  for (const count of counts) {
    const baseline = await settledRss(stack);
    const open: Open[] = [];
    try {
      const concurrency = 8;
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < count) {
            next++;
            open.push(await openShell(stack));
            if (open.length % 100 === 0) say(`memory: ${open.length}/${count} shells open`);
          }
        }),
      );
      const loaded = await settledRss(stack);
      const perSessionBytes = (loaded - baseline) / count;
      first ??= baseline;
      const perSessionFromFirst = (loaded - first) / count;
      points.push({ sessions: count, baseline, loaded, perSessionBytes, perSessionFromFirst });
      say(`memory ${count} shells: ${(perSessionBytes / 1024).toFixed(0)} KiB each`);
    } finally {
      for (const s of open) s.client.end();
      // Let the gateway and the target see every session end before the next size.
      await sleep(Math.min(30_000, 3000 + count * 10));
    }
  }
  return points;
}
