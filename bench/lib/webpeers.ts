/**
 * The two web terminals the bench sets beside Portcullis's (issue 6, "Benchmarks"): WeTTY (npm)
 * and shellinabox (Debian), both logging in to the bench's target sshd with ssh and a key, on
 * 127.0.0.1, each with a client in this process that speaks its protocol as its page does.
 *
 *   WeTTY        `npm install --prefix <cache>/wetty wetty@WETTY_VERSION` at bench time, outside
 *                the repository (its lock file stays as it is); node-pty is compiled by that
 *                install. Started with --force-ssh (the bench runs as root, and WeTTY would
 *                otherwise run `login` for 127.0.0.1), --ssh-key and --ssh-auth publickey. The
 *                client is the socket.io-client WeTTY's own install brings, loaded from that
 *                prefix; it acknowledges output with `commit` every 256 KiB as WeTTY's page
 *                does (WeTTY pauses the pty at 2 MiB unacknowledged).
 *   shellinabox  `apt-get install -y shellinabox` when `shellinaboxd` is missing; the bench
 *                starts its own `shellinaboxd --disable-ssl --localhost-only` on a free port
 *                (never the system service) with a service that runs ssh with a key. The
 *                client is ShellInABox.js's protocol: a POST with width, height and rooturl
 *                opens a session; a POST with the session id is a long poll answered with
 *                `{"session":…,"data":…}`; keys are a POST with `keys=` the UTF-8 bytes in hex.
 *
 * Both ssh clients read one ssh_config: aes128-gcm@openssh.com and ed25519, as every other
 * client hop of the bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CIPHER, freePort } from './stack';
import { ensureDebianCommand, portOpen, say, sleep, timed } from './proc';

export const WETTY_VERSION = '3.2.0';

/** What the bench needs of the target sshd and where it may write files. */
export interface PeerTarget {
  dir: string;
  target: { port: number; user: string; privateKey: string };
}

/** One open web terminal, whatever its protocol. Output is counted in characters. */
export interface Terminal {
  onOutput(listener: (data: Buffer | string) => void): void;
  /**
   * Called once if the terminal ends without the bench closing it (the peer closed the
   * session, a poll failed): why, in words. A listener set after the end is called at once.
   */
  onEnd(listener: (why: string) => void): void;
  type(text: string): void;
  close(): void;
}

/**
 * The end of a terminal, for its `onEnd`: remembered, so that a late listener still hears it,
 * and not an end at all once the bench has closed the terminal itself (`closing`).
 */
export function endSignal(): {
  onEnd: Terminal['onEnd'];
  end: (why: string) => void;
  closing: () => void;
} {
  let reason: string | undefined;
  let closed = false;
  let listener: ((why: string) => void) | undefined;
  return {
    onEnd: (l) => {
      listener = l;
      if (reason !== undefined) l(reason);
    },
    end: (why) => {
      if (closed || reason !== undefined) return;
      reason = why;
      listener?.(why);
    },
    closing: () => {
      closed = true;
    },
  };
}

export interface WebPeer {
  /** How it was installed and started, for RESULTS.md. */
  describe: string;
  open(): Promise<Terminal>;
  stop(): Promise<void>;
}

/** Where WeTTY is installed (kept between runs so that node-pty is compiled once). */
const cacheDir = (): string => process.env.BENCH_WEB_PEERS_DIR ?? '/tmp/portcullis-bench';

/** npm's settings from `npm run bench` must not leak into the install in another prefix. */
function withoutNpmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of Object.keys(process.env)) if (/^npm_/i.test(k)) env[k] = undefined;
  return env;
}

/** Starts a server process and waits for its port; its output is kept for the error. */
async function startServer(
  name: string,
  command: string,
  args: string[],
  port: number,
  cwd?: string,
): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d: Buffer): void => {
    log = (log + d.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  for (let i = 0; i < 300; i++) {
    if (spawnError) throw new Error(`${name}: ${spawnError.message}`);
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${log}`);
    if (await portOpen(port)) return child;
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not listen on ${port} within 30 s: ${log}`);
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** The key and ssh_config both peers' ssh clients use, written under the stack's folder. */
function sshFiles(t: PeerTarget): { key: string; config: string } {
  const key = path.join(t.dir, 'webpeer_ed25519');
  const pem = t.target.privateKey;
  fs.writeFileSync(key, pem.endsWith('\n') ? pem : `${pem}\n`, { mode: 0o600 });
  const config = path.join(t.dir, 'webpeer_ssh_config');
  fs.writeFileSync(
    config,
    [
      'Host *',
      '  StrictHostKeyChecking no',
      '  UserKnownHostsFile /dev/null',
      '  GlobalKnownHostsFile /dev/null',
      '  BatchMode yes',
      '  IdentitiesOnly yes',
      `  Ciphers ${CIPHER}`,
      '  HostKeyAlgorithms ssh-ed25519',
      '  LogLevel ERROR',
      '  ControlMaster no',
      '  ControlPath none',
      '',
    ].join('\n'),
  );
  return { key, config };
}

// ---------------------------------------------------------------------------------- WeTTY

async function ensureWetty(): Promise<string> {
  const dir = path.join(cacheDir(), 'wetty');
  const installed = (): string | undefined => {
    try {
      const pkg = path.join(dir, 'node_modules', 'wetty', 'package.json');
      return (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version;
    } catch {
      return undefined;
    }
  };
  if (installed() !== WETTY_VERSION) {
    fs.mkdirSync(dir, { recursive: true });
    say(`installing wetty@${WETTY_VERSION} into ${dir} (npm; compiles node-pty)`);
    const r = await timed(
      'npm',
      ['install', '--prefix', dir, '--no-audit', '--no-fund', `wetty@${WETTY_VERSION}`],
      { cwd: dir, env: withoutNpmEnv(), timeoutMs: 900_000 },
    );
    if (r.code !== 0 || installed() !== WETTY_VERSION) {
      throw new Error(
        `npm install wetty@${WETTY_VERSION} failed (${r.code}): ${r.stderr.slice(-600)}`,
      );
    }
  }
  const pty = path.join(dir, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node');
  if (!fs.existsSync(pty)) {
    throw new Error(`node-pty was not compiled (${pty} missing): WeTTY cannot open a pty`);
  }
  return dir;
}

/** The little of socket.io-client's Socket the bench uses. */
interface IoSocket {
  on(event: string, listener: (...args: never[]) => void): IoSocket;
  once(event: string, listener: (...args: never[]) => void): IoSocket;
  emit(event: string, ...args: unknown[]): IoSocket;
  close(): void;
}
type Io = (url: string, options: Record<string, unknown>) => IoSocket;

export async function startWetty(t: PeerTarget): Promise<WebPeer> {
  const dir = await ensureWetty();
  const { key, config } = sshFiles(t);
  const port = await freePort();
  const main = path.join(dir, 'node_modules', 'wetty', 'build', 'main.js');
  const args = [
    main,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--ssh-host',
    '127.0.0.1',
    '--ssh-port',
    String(t.target.port),
    '--ssh-user',
    t.target.user,
    '--ssh-auth',
    'publickey',
    '--ssh-key',
    key,
    '--ssh-config',
    config,
    '--known-hosts',
    '/dev/null',
    '--force-ssh',
    '--log-level',
    'error',
  ];
  const child = await startServer('wetty', process.execPath, args, port, dir);
  const requireFromWetty = createRequire(path.join(dir, 'node_modules', 'wetty', 'package.json'));
  const { io } = requireFromWetty('socket.io-client') as { io: Io };
  const ioVersion = (requireFromWetty('socket.io-client/package.json') as { version: string })
    .version;
  const nodePty = (requireFromWetty('node-pty/package.json') as { version: string }).version;
  return {
    describe:
      `WeTTY ${WETTY_VERSION} (node-pty ${nodePty}, \`npm install --prefix ${dir}\`), ` +
      `\`node main.js --force-ssh --ssh-auth publickey --ssh-key KEY --ssh-config CFG\` on ` +
      `127.0.0.1:${port}: ssh -t in a pty to the target sshd; client socket.io-client ` +
      `${ioVersion} from that install (WebSocket transport), acknowledging every 256 KiB ` +
      `with \`commit\` as WeTTY's page does`,
    open: () => openWetty(io, port),
    stop: () => stopServer(child),
  };
}

async function openWetty(io: Io, port: number): Promise<Terminal> {
  const socket = io(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  let listener: (data: Buffer | string) => void = () => undefined;
  const ended = endSignal();
  // WeTTY's FlowControlClient: count what arrived, `commit` 256 KiB each time that much has.
  const ackBytes = 262144;
  let unacked = 0;
  socket.on('data', (data: string) => {
    unacked += data.length;
    while (unacked >= ackBytes) {
      unacked -= ackBytes;
      socket.emit('commit', ackBytes);
    }
    listener(data);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('WeTTY sent no login within 30 s')), 30_000);
    socket.once('login', () => {
      clearTimeout(timer);
      socket.emit('resize', { cols: 120, rows: 40 });
      resolve();
    });
    socket.once('connect_error', (err: Error) => reject(new Error(`WeTTY: ${err.message}`)));
    socket.once('logout', () => reject(new Error('WeTTY: the ssh process exited')));
  });
  socket.once('logout', () => ended.end('WeTTY: the ssh process exited'));
  socket.once('disconnect', (why: string) => ended.end(`WeTTY disconnected (${why})`));
  return {
    onOutput: (l) => (listener = l),
    onEnd: ended.onEnd,
    type: (text) => socket.emit('input', text),
    close: () => {
      ended.closing();
      socket.close();
    },
  };
}

// ---------------------------------------------------------------------------- shellinabox

export async function startShellinabox(t: PeerTarget): Promise<WebPeer> {
  const bin = await ensureDebianCommand('shellinaboxd', 'shellinabox');
  const version = (
    await timed('dpkg-query', ['-W', '-f', '${Version}', 'shellinabox'])
  ).stdout.toString();
  const { key, config } = sshFiles(t);
  const port = await freePort();
  // USER:GROUP:CWD:CMD; the command runs as root (the owner of the key) in a pty.
  const command = `ssh -t -F ${config} -i ${key} -p ${t.target.port} ${t.target.user}@127.0.0.1`;
  const args = [
    '--disable-ssl',
    '--localhost-only',
    '--no-beep',
    '-p',
    String(port),
    '-s',
    `/:root:root:/:${command}`,
  ];
  const child = await startServer('shellinaboxd', bin, args, port);
  return {
    describe:
      `shellinabox ${version || '(version unknown)'} (Debian package), ` +
      `\`shellinaboxd --disable-ssl --localhost-only -p ${port} -s '/:root:root:/:ssh -t -F CFG -i KEY …'\`: ` +
      `ssh -t in a pty to the target sshd; client in the bench speaking ShellInABox.js's ` +
      `HTTP long polling (keep-alive connections, one poll outstanding, keys as hex)`,
    open: () => openShellinabox(port),
    stop: () => stopServer(child),
  };
}

interface SibResponse {
  session?: string;
  data?: string;
}

async function openShellinabox(port: number): Promise<Terminal> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const rooturl = `http://127.0.0.1:${port}/`;
  const size = 'width=120&height=40';
  const post = (body: string): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/?',
          method: 'POST',
          agent,
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
            'Cache-Control': 'no-cache',
            'Content-Length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const parse = (text: string): SibResponse => {
    try {
      return JSON.parse(text) as SibResponse;
    } catch {
      throw new Error(`shellinabox answered something else than JSON: ${text.slice(0, 200)}`);
    }
  };

  const first = await post(`${size}&rooturl=${encodeURIComponent(rooturl)}`);
  if (first.status !== 200) throw new Error(`shellinabox: ${first.status} ${first.text}`);
  const opened = parse(first.text);
  if (!opened.session) throw new Error(`shellinabox gave no session: ${first.text}`);
  const session = encodeURIComponent(opened.session);
  let listener: (data: Buffer | string) => void = () => undefined;
  const ended = endSignal();
  let open = true;
  if (opened.data) listener(opened.data);

  // One long poll outstanding at a time, sent again as soon as the last one is answered.
  void (async () => {
    while (open) {
      let r: { status: number; text: string };
      try {
        r = await post(`${size}&session=${session}`);
      } catch (err) {
        ended.end(`shellinabox poll failed: ${String(err)}`);
        return;
      }
      if (!open) return;
      if (r.status !== 200) {
        const text = r.text.replace(/\s+/g, ' ').slice(0, 120);
        return ended.end(`shellinabox answered a poll with ${r.status} (${text})`);
      }
      const response = parse(r.text);
      if (response.data) listener(response.data);
      if (response.session !== opened.session) return ended.end('shellinabox closed the session');
    }
  })();

  // As ShellInABox.js: one keys request in flight; keys typed meanwhile wait for it.
  let inFlight = false;
  let pending = '';
  const sendKeys = (hex: string): void => {
    if (inFlight) {
      pending += hex;
      return;
    }
    inFlight = true;
    const keys = pending + hex;
    pending = '';
    post(`${size}&session=${session}&keys=${keys}`).then(
      (answer) => {
        if (answer.status !== 200) say(`shellinabox answered keys with ${answer.status}`);
        inFlight = false;
        if (pending) sendKeys('');
      },
      (err: unknown) => ended.end(`shellinabox refused keys: ${String(err)}`),
    );
  };
  return {
    onOutput: (l) => (listener = l),
    onEnd: ended.onEnd,
    type: (text) => sendKeys(Buffer.from(text, 'utf8').toString('hex').toUpperCase()),
    close: () => {
      open = false;
      ended.closing();
      agent.destroy();
    },
  };
}
