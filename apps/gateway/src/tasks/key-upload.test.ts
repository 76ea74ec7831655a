// Key upload and key test against a real OpenSSH sshd (scripts/peers/sshd.mjs) that also reads
// the test account's own ~/.ssh/authorized_keys. The account is this file's own, so its home
// folder can be reset between tests without touching any other test's user.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSshd, type SshdPeer } from '../../../../scripts/peers/sshd.mjs';
import { startControlPeer, type ControlPeer } from '../test/control-peer';
import { collectLogs } from '../test/logs';
import { startGateway, type Gateway } from '../control/client';
import { CONTROL_PROTOCOL } from '../control/protocol';
import { runKeyTest } from './key-test';
import { runKeyUpload, uploadCommand } from './key-upload';
import { newEd25519Key } from '../ssh-proxy/host-key';

const run = promisify(execFile);
const USER = 'portcullis-keys';

function keyPair(comment = 'portcullis-resource-1') {
  const pair = newEd25519Key(comment);
  return { privateKey: pair.private, publicKey: pair.public.trim() };
}

let sshd: SshdPeer;
let home: string;
let ssh: string;
let file: string;

beforeAll(async () => {
  sshd = await startSshd({ user: USER, homeAuthorizedKeys: true });
  const { stdout } = await run('getent', ['passwd', USER]);
  home = stdout.trim().split(':')[5] ?? '';
  ssh = path.join(home, '.ssh');
  file = path.join(ssh, 'authorized_keys');
}, 60_000);
afterAll(async () => {
  await sshd?.stop();
  fs.rmSync(ssh, { recursive: true, force: true });
});
beforeEach(() => {
  fs.rmSync(ssh, { recursive: true, force: true });
});

const login = () => ({ host: sshd.host, port: sshd.port, username: sshd.user });
const lines = () => fs.readFileSync(file, 'utf8').split('\n');

describe('key upload (real sshd)', () => {
  it('creates ~/.ssh (700) and authorized_keys (600), adds the key once, and proves key login', async () => {
    const pair = keyPair();
    const input = {
      target: { ...login(), password: sshd.password, private_key: pair.privateKey },
      public_key: pair.publicKey,
    };
    expect(await runKeyUpload(input)).toEqual({ ok: true, reason: '' });
    expect(fs.statSync(ssh).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const { stdout: owner } = await run('stat', ['-c', '%U', file]);
    expect(owner.trim()).toBe(USER);

    expect(await runKeyUpload(input)).toEqual({ ok: true, reason: '' });
    expect(lines().filter((l) => l === pair.publicKey)).toHaveLength(1);
    expect(await runKeyTest({ target: { ...login(), private_key: pair.privateKey } })).toEqual({
      ok: true,
      reason: '',
    });
  });

  it('keeps the lines already there, even without a final newline', async () => {
    const other = keyPair('someone-else');
    fs.mkdirSync(ssh, { mode: 0o700 });
    fs.writeFileSync(file, `# managed by hand\n${other.publicKey}`, { mode: 0o600 });
    await run('chown', ['-R', `${USER}:`, ssh]);
    const pair = keyPair();
    const result = await runKeyUpload({
      target: { ...login(), password: sshd.password, private_key: pair.privateKey },
      public_key: pair.publicKey,
    });
    expect(result).toEqual({ ok: true, reason: '' });
    expect(lines()).toEqual(['# managed by hand', other.publicKey, pair.publicKey, '']);
  });

  it('answers auth_failed for a wrong password and writes nothing', async () => {
    const pair = keyPair();
    const result = await runKeyUpload({
      target: { ...login(), password: 'not-the-password', private_key: pair.privateKey },
      public_key: pair.publicKey,
    });
    expect(result).toEqual({ ok: false, reason: 'auth_failed' });
    expect(fs.existsSync(ssh)).toBe(false);
  });

  it('answers bad_key without dialling for a key line it would not write', async () => {
    const pair = keyPair();
    for (const publicKey of [
      `${pair.publicKey}'; touch /tmp/x; '`,
      `${pair.publicKey}\nssh-ed25519 AAAA evil`,
      'ssh-rsa AAAAB3NzaC1yc2E portcullis',
    ]) {
      const result = await runKeyUpload({
        target: { ...login(), port: 1, password: sshd.password, private_key: pair.privateKey },
        public_key: publicKey,
      });
      expect(result).toEqual({ ok: false, reason: 'bad_key' });
    }
    expect(() => uploadCommand('ssh-ed25519 AAAA$(id) x')).toThrow();
  });

  it('answers key_refused when the server does not read the file it wrote', async () => {
    const plain = await startSshd({ user: USER });
    try {
      const pair = keyPair();
      const result = await runKeyUpload({
        target: {
          host: plain.host,
          port: plain.port,
          username: plain.user,
          password: plain.password,
          private_key: pair.privateKey,
        },
        public_key: pair.publicKey,
      });
      expect(result).toEqual({ ok: false, reason: 'key_refused' });
      expect(lines()).toContain(pair.publicKey);
    } finally {
      await plain.stop();
    }
  });
});

describe('key test (real sshd)', () => {
  it('logs in with the authorized key and not with another', async () => {
    expect(await runKeyTest({ target: { ...login(), private_key: sshd.privateKey } })).toEqual({
      ok: true,
      reason: '',
    });
    const other = keyPair();
    expect(await runKeyTest({ target: { ...login(), private_key: other.privateKey } })).toEqual({
      ok: false,
      reason: 'auth_failed',
    });
    expect(await runKeyTest({ target: { ...login(), private_key: 'not a key' } })).toEqual({
      ok: false,
      reason: 'bad_key',
    });
  });
});

describe('key tasks over the control channel', () => {
  const KEY = 'ck_test_keys_0123456789';
  let peer: ControlPeer;
  let gateway: Gateway;
  const logs = collectLogs();

  beforeAll(async () => {
    peer = await startControlPeer({ key: KEY });
    gateway = startGateway({ server: peer.url, key: KEY, logger: logs.logger });
    await gateway.connected;
  });
  afterAll(async () => {
    await gateway?.stop();
    await peer?.close();
  });

  it('runs key_upload then key_test and never logs the password or the private key', async () => {
    const conn = peer.connections[0]!;
    const pair = keyPair();
    conn.send({
      v: CONTROL_PROTOCOL,
      type: 'task',
      task_id: 'up-1',
      task: {
        kind: 'key_upload',
        target: { ...login(), password: sshd.password, private_key: pair.privateKey },
        public_key: pair.publicKey,
      },
    });
    expect(await conn.next('task_result', 30_000, (m) => m.task_id === 'up-1')).toMatchObject({
      result: { kind: 'key_upload', ok: true, reason: '' },
    });
    conn.send({
      v: CONTROL_PROTOCOL,
      type: 'task',
      task_id: 'test-1',
      task: { kind: 'key_test', target: { ...login(), private_key: pair.privateKey } },
    });
    expect(await conn.next('task_result', 30_000, (m) => m.task_id === 'test-1')).toMatchObject({
      result: { kind: 'key_test', ok: true, reason: '' },
    });
    expect(conn.invalid).toEqual([]);
    const text = logs.lines.join('\n');
    expect(text).toContain('"kind":"key_upload"');
    expect(text).not.toContain(sshd.password);
    expect(text).not.toContain(pair.privateKey.split('\n')[1]);
  });
});
