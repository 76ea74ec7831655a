/**
 * A client that closes a session channel before the gateway has opened its twin on the target
 * (ssh2 here; OpenSSH's multiplexed sessions do the same): the target's channel must go too,
 * not stay open, with its command running, for as long as the connection lasts.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// ssh2 is CommonJS: Node's ESM loader sees only its default export.
import ssh2, { type Client } from 'ssh2';
import { startSshStack, type SshStack } from './ssh-test-kit';

/** The processes whose command line holds `marker` (the target's side of the channel). */
function running(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n');
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('a session channel closed before the target’s is open', () => {
  let stack: SshStack;
  let conn: Client;

  beforeAll(async () => {
    stack = await startSshStack({ workgroup: 'Channels' });
    conn = await new Promise<Client>((resolve, reject) => {
      const c = new ssh2.Client();
      c.once('ready', () => resolve(c));
      c.once('error', reject);
      c.connect({
        host: '127.0.0.1',
        port: stack.port,
        username: stack.code,
        privateKey: fs.readFileSync(stack.client.keyFile),
        readyTimeout: 20_000,
      });
    });
  });
  afterAll(async () => {
    conn?.end();
    await stack?.stop();
  });

  it('closes the target’s channel, and the command it started ends', async () => {
    // `cat` waits for its input until the channel closes; the marker names it in `ps`.
    const marker = `pc-close-${crypto.randomBytes(4).toString('hex')}`;
    await new Promise<void>((resolve, reject) =>
      conn.exec(`cat - /dev/null ${marker}`, (err, channel) => {
        if (err) return reject(err);
        channel.close(); // at once: the gateway is still opening the target's channel
        channel.on('close', () => resolve());
        channel.resume(); // ssh2 reports the close once the channel's input is read
      }),
    );
    // The target may start the command before it hears of the close; it must not outlive it.
    await expect.poll(() => running(marker), { timeout: 5000 }).toEqual([]);
    // The connection itself goes on.
    const echoed = await new Promise<string>((resolve, reject) =>
      conn.exec('echo still-here', (err, channel) => {
        if (err) return reject(err);
        let out = '';
        channel.on('data', (d: Buffer) => (out += d.toString()));
        channel.on('close', () => resolve(out.trim()));
      }),
    );
    expect(echoed).toBe('still-here');
  });
});
