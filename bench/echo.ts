/**
 * Keystroke echo latency: a pty session running `stty raw -echo; cat` on the target, one byte
 * sent every 50 ms, the time until it comes back measured per byte. `-echo` makes exactly one
 * byte come back per key (cat's), so each sample pairs with its key; with the terminal's own
 * echo on, the first byte back would be the line discipline's, a hair earlier than cat's.
 *
 * Idle, every path runs side by side, spread over the period, so that the shared machine's slow
 * spells hit all alike: the gateway, direct, the OpenSSH jump host, a bare ssh2 relay
 * (lib/bare-relay.ts: what ssh2 and one more process cost with nothing of the product around
 * them), and the target's own SSH through a plain TCP relay in Node.js (lib/tcp-relay.ts) and
 * in C (socat): what one process hop costs with no SSH work at all, the floor under any Node.js
 * gateway and under any gateway. Beside a bulk transfer, each path is measured in turn while a
 * download loops over that same path (through the gateway: through the gateway).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { quantile, say, sleep } from './lib/proc';
import type { SshPath, Stack } from './lib/stack';

const PERIOD_MS = 50;

export interface EchoStats {
  samples: number;
  p50: number;
  p99: number;
}

/**
 * The paths echo compares: the gateway, direct, the OpenSSH jump host, the bare ssh2 relay,
 * and a plain TCP relay in Node.js and in C (socat): what one process hop costs with no SSH.
 */
export type EchoPath = 'gw' | 'direct' | 'viajump' | 'bare' | 'noderelay' | 'socat';
export const ECHO_PATHS: readonly EchoPath[] = [
  'gw',
  'direct',
  'viajump',
  'bare',
  'noderelay',
  'socat',
];

export interface EchoResult {
  idle: Record<EchoPath, EchoStats>;
  loaded: Record<EchoPath, EchoStats>;
  /**
   * The gateway's echo beside a bulk download that does not pass through it (direct): the same
   * load on the machine with the gateway left idle, so what the gateway's loaded figures owe
   * to its own work for the other session, and what to the machine's cores being taken.
   */
  gatewayBesideDirect: EchoStats;
}

/** Opens the raw session and resolves once the remote cat reads. */
async function openEcho(stack: Stack, pathName: SshPath): Promise<ChildProcess> {
  const child = spawn(
    'ssh',
    [...stack.ssh(pathName, ['-tt']), 'stty raw -echo; printf READY; cat'],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`echo session via ${pathName}: no READY`)),
      30_000,
    );
    const onData = (d: Buffer): void => {
      seen += d.toString('latin1');
      if (seen.includes('READY')) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`echo session via ${pathName} ended (${code})`)));
  });
  return child;
}

/** Sends `count` bytes, one per period from `startAt` (ms, performance clock); ms latencies. */
async function measure(child: ChildProcess, count: number, startAt: number): Promise<number[]> {
  const latencies: number[] = [];
  let waiting: ((at: bigint) => void) | undefined;
  child.stdout!.on('data', () => {
    const at = process.hrtime.bigint();
    const w = waiting;
    waiting = undefined;
    w?.(at);
  });
  for (let i = 0; i < count; i++) {
    const due = startAt + i * PERIOD_MS;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const byte = Buffer.from([0x61 + (i % 26)]);
    const back = new Promise<bigint>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no echo within 10 s')), 10_000);
      waiting = (at) => {
        clearTimeout(timer);
        resolve(at);
      };
    });
    const sent = process.hrtime.bigint();
    child.stdin!.write(byte);
    latencies.push(Number((await back) - sent) / 1e6);
  }
  return latencies;
}

function stats(latencies: number[]): EchoStats {
  return {
    samples: latencies.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
  };
}

function close(child: ChildProcess): void {
  child.stdin!.end();
  child.kill('SIGTERM');
}

/** Downloads over and over on a path until stopped. */
function bulkLoop(stack: Stack, pathName: SshPath): { stop: () => Promise<void> } {
  let running = true;
  let current: ChildProcess | undefined;
  const loop = (async () => {
    while (running) {
      current = spawn('ssh', [...stack.ssh(pathName), `head -c ${2 ** 30} /dev/zero`], {
        stdio: ['ignore', fs.openSync('/dev/null', 'w'), 'ignore'],
      });
      await new Promise((r) => current!.once('close', r));
    }
  })();
  return {
    stop: async () => {
      running = false;
      current?.kill('SIGTERM');
      await loop;
    },
  };
}

/** Echo on one path while a bulk download loops on another (or the same). */
async function besideDownload(
  stack: Stack,
  echoPath: EchoPath,
  downloadPath: EchoPath,
  samples: number,
): Promise<EchoStats> {
  say(`echo via ${echoPath} beside a bulk download via ${downloadPath}: ${samples} samples`);
  const load = bulkLoop(stack, downloadPath);
  await sleep(2000);
  const session = await openEcho(stack, echoPath);
  const result = stats(await measure(session, samples, performance.now() + 100));
  close(session);
  await load.stop();
  return result;
}

export async function runEcho(stack: Stack, samples: number): Promise<EchoResult> {
  say(`echo idle: ${samples} samples per path, gateway and direct side by side`);
  const sessions: ChildProcess[] = [];
  for (const p of ECHO_PATHS) sessions.push(await openEcho(stack, p));
  const side = (count: number, at: number) =>
    Promise.all(
      sessions.map((s, i) => measure(s, count, at + (i * PERIOD_MS) / ECHO_PATHS.length)),
    );
  // Warm-up: a few unmeasured keys each.
  await side(20, performance.now() + 100);
  for (const s of sessions) s.stdout!.removeAllListeners('data');
  const idleRuns = await side(samples, performance.now() + 100);
  for (const s of sessions) close(s);
  const idle = Object.fromEntries(ECHO_PATHS.map((p, i) => [p, stats(idleRuns[i]!)])) as Record<
    EchoPath,
    EchoStats
  >;

  const loaded = {} as Record<EchoPath, EchoStats>;
  for (const p of ECHO_PATHS) loaded[p] = await besideDownload(stack, p, p, samples);
  const gatewayBesideDirect = await besideDownload(stack, 'gw', 'direct', samples);
  return { idle, loaded, gatewayBesideDirect };
}
