/**
 * The SSH proxy spread over worker processes (gateway ssh-proxy/pool), end to end: the real
 * server, a gateway whose sessions run in two real worker processes (its own main.ts in worker
 * mode, as an installed gateway runs them), the real sshd and the stock ssh client. Sessions
 * work as in one process: the code check, the target login, the recording (spooled by the
 * worker, uploaded by the primary), a cut from the console; a worker that dies is replaced.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../../gateway/src/control/client';
import type { TestApp, TestClient } from '../../test/harness';
import { run, type OpenSshClient } from './openssh.test-helpers';
import { startSshStack, type SshStack } from './ssh-test-kit';

const GATEWAY_MAIN = path.resolve(__dirname, '../../../../gateway/src/main.ts');

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The gateway's SSH workers: child processes of this test running main.ts --ssh-worker. */
function workerPids(): number[] {
  const children = fs
    .readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  return children.filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--ssh-worker');
    } catch {
      return false;
    }
  });
}

describe('SSH sessions in worker processes', () => {
  let stack: SshStack | undefined;
  let t: TestApp;
  let admin: TestClient;
  let gateway: Gateway;
  let client: OpenSshClient;
  let proxyPort: number;
  let code: string;

  const ssh = (args: string[]) =>
    run('ssh', [
      ...client.options('publickey'),
      '-p',
      String(proxyPort),
      `${code}@127.0.0.1`,
      ...args,
    ]);
  const live = () =>
    t.ctx.db.selectFrom('tunnel_connection').selectAll().where('ended_at', 'is', null).execute();

  beforeAll(async () => {
    stack = await startSshStack({
      workgroup: 'Workers',
      resourceName: 'web',
      gateway: {
        workers: {
          count: 2,
          entry: GATEWAY_MAIN,
          execArgv: ['--import', 'tsx'],
          logLevel: 'warn',
        },
      },
    });
    ({ t, admin, gateway, client, port: proxyPort, code } = stack);
    expect(await gateway.sshProxy).toEqual({ port: proxyPort });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('runs two worker processes that carry sessions, recorded and uploaded', async () => {
    expect(workerPids()).toHaveLength(2);
    const res = await ssh(['-tt', 'echo worker-$((40+2))']);
    expect(res.stderr).not.toContain('Portcullis:');
    expect([res.code, res.stdout.toString()]).toEqual([0, 'worker-42\r\n']);
    await until(async () => ((await live()).length === 0 ? true : undefined));
    const [row] = await t.ctx.db
      .selectFrom('tunnel_connection')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(row).toMatchObject({ way: 'terminal', client_ip: '127.0.0.1' });
    expect(await gateway.recordings!.idle(10_000)).toBe(true);
    const cast = await admin.get(`/api/download_tunnel_log?connection_id=${row!.id}`);
    expect(cast.statusCode, cast.body).toBe(200);
    expect(cast.body).toContain('worker-42');
    // The host key the worker saw came through the primary to the server, which pinned it.
    const resource = await admin.get(`/api/v1/resource/${stack!.resourceId}`);
    expect(resource.json().host_key).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });

  it('ends a session within a second when the console cuts it', async () => {
    const shell = spawn(
      'ssh',
      [...client.options('publickey'), '-tt', '-p', String(proxyPort), `${code}@127.0.0.1`],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => shell.once('exit', resolve));
    let seen = '';
    shell.stdout.on('data', (d: Buffer) => (seen += d.toString()));
    shell.stdin.write('echo ready-$((1+1))\n');
    await until(() => (seen.includes('ready-2') ? true : undefined));
    const [row] = await live();
    const cutAt = Date.now();
    const cut = await admin.delete(`/api/tunnel_connection/${row!.id}`);
    expect(cut.statusCode, cut.body).toBe(200);
    expect(await exited).not.toBe(0);
    expect(Date.now() - cutAt).toBeLessThan(1000);
  });

  it('starts another worker when one dies, and new sessions go on', async () => {
    const [victim] = workerPids();
    process.kill(victim!, 'SIGKILL');
    await until(() => {
      const pids = workerPids();
      return pids.length === 2 && !pids.includes(victim!) ? true : undefined;
    });
    for (let i = 0; i < 3; i++) {
      const res = await ssh(['echo', `again-${i}`]);
      expect([res.code, res.stdout.toString()]).toEqual([0, `again-${i}\n`]);
    }
  }, 30_000);

  it('ends the sessions of a worker that dies, and uploads what it recorded', async () => {
    await until(() => (workerPids().length === 2 ? true : undefined));
    const shell = spawn(
      'ssh',
      [...client.options('publickey'), '-tt', '-p', String(proxyPort), `${code}@127.0.0.1`],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => shell.once('exit', resolve));
    let seen = '';
    shell.stdout.on('data', (d: Buffer) => (seen += d.toString()));
    shell.stdin.write('echo before-$((6*7))\n');
    await until(() => (seen.includes('before-42') ? true : undefined));
    const [row] = await live();
    expect(row).toBeDefined();
    // The recorder spools every 250 ms: what it spooled before the worker died is kept.
    await new Promise((resolve) => setTimeout(resolve, 600));
    // Both, so that the one carrying the shell is among them.
    for (const pid of workerPids()) process.kill(pid, 'SIGKILL');
    expect(await exited).not.toBe(0);
    // Before, the row stayed online and the spool file waited until the gateway restarted.
    await until(async () => ((await live()).length === 0 ? true : undefined));
    expect(await gateway.recordings!.idle(10_000)).toBe(true);
    const cast = await admin.get(`/api/download_tunnel_log?connection_id=${row!.id}`);
    expect(cast.statusCode, cast.body).toBe(200);
    expect(cast.body).toContain('before-42');
    await until(() => (workerPids().length === 2 ? true : undefined));
  }, 30_000);
});
