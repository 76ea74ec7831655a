/**
 * The bench's stack, all on 127.0.0.1 and all temporary: the real server (the test harness's
 * createTestApp, listening on a free port), the real gateway in a child process (see
 * gateway-process.ts), the target sshd and a second sshd that serves as the OpenSSH jump host
 * (scripts/peers/sshd.mjs, as the tests start them), a member with an ed25519 key and a code
 * for the target, and an OpenSSH client config naming the three paths:
 *
 *   gw       the member through the Portcullis gateway's SSH proxy (user = the code)
 *   direct   straight to the target sshd
 *   viajump  to the target sshd through the jump sshd (ProxyJump, i.e. `ssh -J`)
 *
 * Every hop of every path uses aes128-gcm@openssh.com and ed25519 keys. The gateway's own hop
 * to the target is ssh2's choice (the gateway offers no cipher setting); the bench reads it
 * from the target sshd's log and reports it.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startSshd, type SshdPeer } from '../../scripts/peers/sshd.mjs';
import {
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../apps/server/src/test/harness';
import {
  addMembersTo,
  addResourcesTo,
  clusterKey,
  createWorkgroup,
  member,
  projectResourceId,
} from '../../apps/server/src/features/workgroups/test-fixtures';
import { ensureDebianCommand, portOpen, say, timed, until } from './proc';

export const CIPHER = 'aes128-gcm@openssh.com';
/** How long the bench's codes live (hours): longer than any run. */
export const BENCH_CODE_HOURS = 12;
export type PathName = 'gw' | 'direct' | 'viajump';
/**
 * Also, for echo: bare, a bare ssh2 relay in its own process (bare-relay.ts), the floor under
 * the gateway; noderelay and socat, the target's own SSH through a plain TCP relay in Node.js
 * (tcp-relay.ts) and in C (socat), the cost of one process hop with no SSH work at all.
 */
export type SshPath = PathName | 'bare' | 'noderelay' | 'socat';

export interface Stack {
  dir: string;
  t: TestApp;
  admin: TestClient;
  memberClient: TestClient;
  memberId: number;
  /** The member's project resource id of the target (for tokens and codes). */
  projectResource: number;
  code: string;
  target: SshdPeer;
  jump: SshdPeer;
  gatewayPid: number;
  gatewaySshPort: number;
  gatewayWebPort: number;
  /** The gateway's database proxies. */
  gatewayPgPort: number;
  gatewayMysqlPort: number;
  /** The bench's cluster and the member's workgroup (database resources join them). */
  networkId: number;
  workgroupId: number;
  /** The member's private key (OpenSSH format), for ssh2 clients. */
  memberKey: string;
  /** Arguments that make `ssh` take one of the paths; append the remote command. */
  ssh(pathName: SshPath, extra?: string[]): string[];
  /** Asks the gateway to collect garbage (so that its RSS settles). */
  gatewayGc(): Promise<void>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function writeKey(file: string, privateKey: string): void {
  fs.writeFileSync(file, privateKey.endsWith('\n') ? privateKey : `${privateKey}\n`, {
    mode: 0o600,
  });
}

/** The gateway's log messages (warnings and worse) and how often each came. */
export const gatewayWarnings = new Map<string, number>();

async function startGatewayProcess(
  root: string,
  env: Record<string, string>,
): Promise<ChildProcess> {
  const child = fork(path.join(root, 'bench', 'lib', 'gateway-process.ts'), [], {
    cwd: root,
    // BENCH_GATEWAY_NODE_ARGS: extra Node options for the gateway alone (`--cpu-prof`).
    execArgv: [
      '--expose-gc',
      '--import',
      'tsx',
      ...(process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // Its log (JSON lines, warn and above, on stdout) passes through to stderr, and each message
  // is counted for RESULTS.md.
  const relay = (d: Buffer): void => {
    process.stderr.write(d);
    for (const line of d.toString().split('\n')) {
      const msg = /"msg":"([^"]*)"/.exec(line)?.[1];
      if (msg) gatewayWarnings.set(msg, (gatewayWarnings.get(msg) ?? 0) + 1);
    }
  };
  child.stdout?.on('data', relay);
  child.stderr?.on('data', relay);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the gateway did not start')), 60_000);
    child.on('message', (m) => {
      if (m === 'ready') {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code})`)));
  });
  return child;
}

/** A relay of bench/lib/ (bare-relay.ts, tcp-relay.ts) in a process of its own. */
export async function forkRelay(
  root: string,
  file: string,
  env: Record<string, string>,
): Promise<ChildProcess> {
  const child = fork(path.join(root, 'bench', 'lib', file), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', (m) => (m === 'ready' ? resolve() : reject(new Error(String(m)))));
    child.once('exit', (code) => reject(new Error(`${file} exited (${code})`)));
  });
  return child;
}

/** socat relaying TCP to the target: one process hop in C with no SSH (the floor's floor). */
async function startSocat(targetPort: number): Promise<{ port: number; child: ChildProcess }> {
  const bin = await ensureDebianCommand('socat', 'socat');
  const port = await freePort();
  const child = spawn(
    bin,
    [
      `TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr,nodelay`,
      `TCP:127.0.0.1:${targetPort},nodelay`,
    ],
    { stdio: 'ignore' },
  );
  await until(() => portOpen(port), 10_000);
  return { port, child };
}

export async function startStack(root: string): Promise<Stack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-bench-'));
  say(`temp folder ${dir}`);
  const t = await createTestApp({ LOG_LEVEL: 'warn' });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await signedIn(t);
  const lab = (await admin.post('/api/v1/network', { name: 'Bench' })).json().id as number;
  // The key the cluster's install command carries, read as every test reads it.
  const key = await clusterKey(admin, lab);

  // Room for the memory test's idle shells: many concurrent handshakes and connections.
  const sshdOptions = ['MaxStartups=2000:100:4000', 'MaxSessions=50'];
  const target = await startSshd({ options: sshdOptions });
  const jump = await startSshd({ options: sshdOptions });

  const res = await admin.post('/api/v1/resource', {
    network_id: lab,
    name: 'bench-target',
    ip_address: '127.0.0.1',
    os: 'linux',
    port: target.port,
    login_users: [{ username: target.user, auth_type: 0, password: target.password }],
  });
  if (res.statusCode !== 200) throw new Error(`add resource: ${res.body}`);
  const resourceId = res.json().id as number;
  const wg = await createWorkgroup(admin, 'Bench');
  await addResourcesTo(admin, wg, [resourceId]);
  const erin = await member(t, 'bench@demo.local');
  await addMembersTo(admin, wg, [erin.id]);
  const projectResource = await projectResourceId(admin, wg, resourceId);

  const memberKeyFile = path.join(dir, 'member_ed25519');
  const keygen = await timed('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', memberKeyFile]);
  if (keygen.code !== 0) throw new Error(`ssh-keygen: ${keygen.stderr}`);
  const added = await erin.client.post('/api/account_pubkey', {
    title: 'bench',
    pubkey: fs.readFileSync(`${memberKeyFile}.pub`, 'utf8').trim(),
  });
  if (added.statusCode !== 200) throw new Error(`add key: ${added.body}`);

  const gatewaySshPort = await freePort();
  const gatewayWebPort = await freePort();
  const gatewayPgPort = await freePort();
  const gatewayMysqlPort = await freePort();
  const gateway = await startGatewayProcess(root, {
    BENCH_GW_PG_PORT: String(gatewayPgPort),
    BENCH_GW_MYSQL_PORT: String(gatewayMysqlPort),
    BENCH_GW_SERVER: address,
    BENCH_GW_KEY: key,
    BENCH_GW_DATA: path.join(dir, 'gateway'),
    BENCH_GW_SSH_PORT: String(gatewaySshPort),
    BENCH_GW_WEB_PORT: String(gatewayWebPort),
  });

  // A code needs its cluster's gateway online. It lives for the run: the default, 30 minutes,
  // ran out during a full run at the settings (1 GiB, 5000 echo samples: 35 minutes).
  const codeRes = await erin.client.post('/api/tunnel', {
    project_resource_id: projectResource,
    expire: BENCH_CODE_HOURS,
  });
  if (codeRes.statusCode !== 200) throw new Error(`create code: ${codeRes.body}`);
  const code = codeRes.json().code as string;

  const barePort = await freePort();
  const bareRelay = await forkRelay(root, 'bare-relay.ts', {
    BARE_PORT: String(barePort),
    BARE_TARGET_PORT: String(target.port),
    BARE_TARGET_USER: target.user,
    BARE_TARGET_PASSWORD: target.password,
  });
  const nodeRelayPort = await freePort();
  const nodeRelay = await forkRelay(root, 'tcp-relay.ts', {
    TCP_RELAY_PORT: String(nodeRelayPort),
    TCP_RELAY_TARGET_PORT: String(target.port),
  });
  const socat = await startSocat(target.port);
  const targetKey = path.join(dir, 'target_ed25519');
  const jumpKey = path.join(dir, 'jump_ed25519');
  writeKey(targetKey, target.privateKey);
  writeKey(jumpKey, jump.privateKey);
  const config = path.join(dir, 'ssh_config');
  // The first value obtained wins in ssh_config, so the shared settings come first.
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
      'Host gw',
      '  HostName 127.0.0.1',
      `  Port ${gatewaySshPort}`,
      `  User ${code}`,
      `  IdentityFile ${memberKeyFile}`,
      'Host direct',
      '  HostName 127.0.0.1',
      `  Port ${target.port}`,
      `  User ${target.user}`,
      `  IdentityFile ${targetKey}`,
      'Host bare',
      '  HostName 127.0.0.1',
      `  Port ${barePort}`,
      '  User bench',
      '  PreferredAuthentications none',
      // The target itself, its SSH passed through a plain relay: the Node.js hop, then C's.
      ...(
        [
          ['noderelay', nodeRelayPort],
          ['socat', socat.port],
        ] as const
      ).flatMap(([name, port]) => [
        `Host ${name}`,
        '  HostName 127.0.0.1',
        `  Port ${port}`,
        `  User ${target.user}`,
        `  IdentityFile ${targetKey}`,
      ]),
      'Host jumphost',
      '  HostName 127.0.0.1',
      `  Port ${jump.port}`,
      `  User ${jump.user}`,
      `  IdentityFile ${jumpKey}`,
      'Host viajump',
      '  HostName 127.0.0.1',
      `  Port ${target.port}`,
      `  User ${target.user}`,
      `  IdentityFile ${targetKey}`,
      '  ProxyJump jumphost',
      '',
    ].join('\n'),
  );

  const gatewayGc = (): Promise<void> =>
    new Promise((resolve) => {
      const onMessage = (m: unknown): void => {
        if (m !== 'gc-done') return;
        gateway.off('message', onMessage);
        resolve();
      };
      gateway.on('message', onMessage);
      gateway.send('gc');
    });

  // The console's sign-ins end after the team's idle time (30 minutes by default), and a full
  // run at the settings is longer: the web terminal's token (asked for after 36
  // minutes) came back NeedLogin. A request every few minutes keeps both signed in, as the
  // console's own polling does.
  const keepSignedIn = setInterval(() => {
    for (const c of [admin, erin.client]) void c.get('/api/current_account');
  }, 5 * 60_000);
  keepSignedIn.unref();

  return {
    dir,
    t,
    admin,
    memberClient: erin.client,
    memberId: erin.id,
    projectResource,
    code,
    target,
    jump,
    gatewayPid: gateway.pid!,
    gatewaySshPort,
    gatewayWebPort,
    gatewayPgPort,
    gatewayMysqlPort,
    networkId: lab,
    workgroupId: wg,
    memberKey: fs.readFileSync(memberKeyFile, 'utf8'),
    ssh: (pathName, extra = []) => ['-F', config, '-c', CIPHER, ...extra, pathName],
    gatewayGc,
    async stop() {
      clearInterval(keepSignedIn);
      if (gateway.exitCode === null) {
        const exited = new Promise((r) => gateway.once('exit', r));
        gateway.send('stop');
        const timer = setTimeout(() => gateway.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      bareRelay.kill('SIGTERM');
      nodeRelay.kill('SIGTERM');
      socat.child.kill('SIGTERM');
      await target.stop();
      await jump.stop();
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
