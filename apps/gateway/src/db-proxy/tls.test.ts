// The database proxies' certificate: made once with the real openssl (without blocking the
// event loop), kept with a private key, reused at the next start, and none when it cannot be
// made.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectLogs } from '../test/logs';
import { loadProxyTls } from './tls';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-db-tls-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('loadProxyTls', () => {
  it('makes a self-signed certificate once, then reuses it', async () => {
    const logs = collectLogs();
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 5);
    const first = await loadProxyTls(dir, logs.logger);
    clearInterval(ticking);
    expect(ticks).toBeGreaterThan(0); // the event loop ran while openssl worked
    expect(first?.key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const cert = new crypto.X509Certificate(first?.cert ?? '');
    expect(cert.subject).toBe(`CN=${os.hostname()}`);
    expect(cert.checkPrivateKey(crypto.createPrivateKey(first?.key ?? ''))).toBe(true);
    expect(fs.statSync(path.join(dir, 'db-tls', 'key.pem')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'db-tls')).mode & 0o777).toBe(0o700);

    const again = await loadProxyTls(dir, logs.logger);
    expect(again).toEqual(first);
    const made = logs.records().filter((r) => String(r.msg).startsWith('made a self-signed'));
    expect(made).toHaveLength(1);
  });

  it('offers no TLS, with a warning, when the certificate cannot be made', async () => {
    const logs = collectLogs();
    const blocked = path.join(dir, 'file');
    fs.writeFileSync(blocked, ''); // a file where the data folder should be
    expect(await loadProxyTls(blocked, logs.logger)).toBeUndefined();
    expect(logs.records().map((r) => r.msg)).toContain(
      'no certificate for the database proxies: they offer no TLS',
    );
  });
});
