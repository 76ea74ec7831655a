// A real OpenSSH sshd for tests: started as root on a free high port bound to 127.0.0.1, with a
// generated host key, a test user (created once with `useradd -m`, password set with chpasswd),
// password and public-key authentication, and an authorized_keys file holding a generated test
// key. Each caller gets its own sshd, key pair and folder; `stop()` ends that sshd and removes
// the folder. The user and its password are shared by every instance (a password file under the
// temporary folder, readable by root only), so test files running in parallel agree on them.
//
//   const sshd = await startSshd();   // { host, port, user, password, privateKey, publicKey, stop }
//   …
//   await sshd.stop();
//
// The command line is the one in ARCHITECTURE.md ("Real parts and how tests start them"), plus
// the options a test needs: its own authorized_keys (StrictModes off, since the file lives under
// /tmp), only the test user allowed in, and room for concurrent connections.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const SSHD = '/usr/sbin/sshd';
const SSH_KEYGEN = '/usr/bin/ssh-keygen';
const HOST = '127.0.0.1';
export const DEFAULT_TEST_USER = 'portcullis-test';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Retries a command that can lose a race on /etc/passwd or /etc/shadow locks. */
async function withRetry(fn, attempts = 30) {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts) throw err;
      await sleep(100 + Math.random() * 200);
    }
  }
}

async function userExists(user) {
  try {
    await run('id', ['-u', user]);
    return true;
  } catch {
    return false;
  }
}

/** The shared test password: created once (atomically), then read by every later caller. */
function sharedPassword(user) {
  const dir = path.join(os.tmpdir(), 'portcullis-peers');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${user}.password`);
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, crypto.randomBytes(18).toString('base64url'), { mode: 0o600 });
    try {
      fs.linkSync(tmp, file); // atomic: exactly one creator wins
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** Creates the test user when missing and sets its password (idempotent). */
export async function ensureTestUser(user = DEFAULT_TEST_USER) {
  if (!/^[a-z_][a-z0-9_-]{0,30}$/.test(user)) throw new Error(`bad test user name: ${user}`);
  const password = sharedPassword(user);
  await withRetry(async () => {
    if (await userExists(user)) return;
    try {
      await run('useradd', ['-m', '-s', '/bin/bash', user]);
    } catch (err) {
      if (!(await userExists(user))) throw err; // another process created it meanwhile
    }
  });
  await withRetry(
    () =>
      new Promise((resolve, reject) => {
        const child = execFile('chpasswd', (err) => (err ? reject(err) : resolve()));
        child.stdin.end(`${user}:${password}\n`);
      }),
  );
  return { user, password };
}

async function keygen(file, comment) {
  await run(SSH_KEYGEN, ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file]);
}

/** sshd 9.8 and later penalise clients that fail to log in; tests fail on purpose. */
async function penaltyOptions() {
  const { stderr } = await run(SSHD, ['-V']).catch((err) => err);
  const match = /OpenSSH_(\d+)\.(\d+)/.exec(String(stderr ?? ''));
  const [major, minor] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  return major > 9 || (major === 9 && minor >= 8) ? ['-o', 'PerSourcePenalties=no'] : [];
}

/**
 * Starts an sshd for one test file.
 * @param {{ user?: string, options?: string[], homeAuthorizedKeys?: boolean }} [opts] extra
 *   `-o Key=Value` pairs in `options`; `homeAuthorizedKeys` also reads the user's
 *   ~/.ssh/authorized_keys (the file a key upload writes)
 */
export async function startSshd(opts = {}) {
  if (process.getuid?.() !== 0) throw new Error('the sshd test peer must run as root');
  if (!fs.existsSync(SSHD)) throw new Error(`${SSHD} is missing (Debian package openssh-server)`);
  const { user, password } = await ensureTestUser(opts.user ?? DEFAULT_TEST_USER);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-sshd-'));
  // sshd reads authorized_keys as the user, so the folder must be traversable by them.
  fs.chmodSync(dir, 0o755);
  const hostKey = path.join(dir, 'host_ed25519');
  const userKey = path.join(dir, 'user_ed25519');
  const authorizedKeys = path.join(dir, 'authorized_keys');
  const pidFile = path.join(dir, 'sshd.pid');
  await keygen(hostKey, 'portcullis-test-host');
  await keygen(userKey, `${user}@portcullis-test`);
  const privateKey = fs.readFileSync(userKey, 'utf8');
  const publicKey = fs.readFileSync(`${userKey}.pub`, 'utf8').trim();
  fs.writeFileSync(authorizedKeys, `${publicKey}\n`, { mode: 0o644 });
  fs.mkdirSync('/run/sshd', { recursive: true });
  const extra = [...(await penaltyOptions()), ...(opts.options ?? []).flatMap((o) => ['-o', o])];

  let port;
  let lastError;
  for (let attempt = 0; attempt < 5 && port === undefined; attempt++) {
    const candidate = await freePort();
    try {
      await run(SSHD, [
        '-f',
        '/dev/null',
        '-o',
        `Port=${candidate}`,
        '-o',
        `ListenAddress=${HOST}`,
        '-o',
        `HostKey=${hostKey}`,
        '-o',
        `PidFile=${pidFile}`,
        '-o',
        'UsePAM=no',
        '-o',
        'PasswordAuthentication=yes',
        '-o',
        'PubkeyAuthentication=yes',
        '-o',
        // With homeAuthorizedKeys, the user's own ~/.ssh/authorized_keys counts too (key upload).
        `AuthorizedKeysFile=${authorizedKeys}${opts.homeAuthorizedKeys ? ' .ssh/authorized_keys' : ''}`,
        '-o',
        'StrictModes=no',
        '-o',
        `AllowUsers=${user}`,
        '-o',
        'MaxStartups=200:30:400',
        '-o',
        'MaxSessions=50',
        '-E',
        path.join(dir, 'sshd.log'),
        ...extra,
      ]);
      for (let i = 0; i < 50 && !(await portOpen(candidate)); i++) await sleep(100);
      if (await portOpen(candidate)) port = candidate;
      else lastError = new Error(`sshd did not listen on ${candidate}`);
    } catch (err) {
      lastError = err; // most likely the port was taken between freePort() and bind
    }
  }
  if (port === undefined) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start sshd: ${lastError?.message ?? 'unknown error'}`);
  }

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8'), 10);
    if (Number.isInteger(pid) && pid > 1) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
      for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }

  return {
    host: HOST,
    port,
    user,
    password,
    privateKey,
    publicKey,
    logFile: path.join(dir, 'sshd.log'),
    stop,
  };
}
