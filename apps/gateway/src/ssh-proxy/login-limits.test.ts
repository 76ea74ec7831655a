import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionControlApi } from '../control/session-requests';
import { silentLogger } from '../core/logger';
import { MAX_AUTH_FAILURES } from './auth';
import { startSshProxy, type SshProxy } from './server';
import ssh2 from './ssh2';

const GRACE_MS = 600;

/** Every code check says the password is wrong (a failure the client may retry). */
let checks = 0;
const control = {
  onCut: () => () => undefined,
  resolve: () => {
    checks++;
    return Promise.resolve({
      ok: false,
      refusal: { code: 'PasswordError', message: 'Incorrect password' },
    });
  },
} as unknown as SessionControlApi;

/** Resolves with the milliseconds until the socket closed (or rejects after `ms`). */
function closedAfter(socket: net.Socket, ms: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

describe('the SSH proxy’s limits on logging in', () => {
  let dir: string;
  let proxy: SshProxy;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-grace-'));
    proxy = await startSshProxy({
      port: 0,
      host: '127.0.0.1',
      dataDir: dir,
      control,
      logger: silentLogger,
      loginGraceMs: GRACE_MS,
    });
  });
  afterAll(async () => {
    await proxy.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('closes a connection that never finishes the handshake', async () => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.resume(); // reads the gateway's greeting, and so sees the close
    socket.write('SSH-2.0-scanner\r\n');
    const took = await closedAfter(socket, GRACE_MS * 5);
    expect(took).toBeGreaterThanOrEqual(GRACE_MS - 50);
  });

  it('closes a connection after six failed logins, as sshd does', async () => {
    checks = 0;
    const client = new ssh2.Client();
    client.on('error', () => undefined);
    let tries = 0;
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.connect({
      host: '127.0.0.1',
      port: proxy.port,
      username: 'a-temporary-user',
      // The client would go on guessing for ever.
      authHandler: (_methods, _partial, next) =>
        next({ type: 'password', username: 'a-temporary-user', password: `guess-${++tries}` }),
    });
    await closed;
    // Six were checked; then the gateway hung up with a disconnect, not a failure reply that
    // would invite a seventh try.
    expect(checks).toBe(MAX_AUTH_FAILURES);
    expect(tries).toBe(MAX_AUTH_FAILURES);
  });

  it('closes a connection whose keyboard prompt nobody answers', async () => {
    const client = new ssh2.Client();
    client.on('error', () => undefined);
    let prompted = false;
    client.on('keyboard-interactive', () => {
      prompted = true; // and never answered
    });
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.connect({
      host: '127.0.0.1',
      port: proxy.port,
      username: 'anyone',
      tryKeyboard: true,
      authHandler: ['keyboard-interactive'],
    });
    const started = Date.now();
    await closed;
    expect(prompted).toBe(true);
    expect(Date.now() - started).toBeLessThan(GRACE_MS * 5);
  });
});
