/**
 * `npm start` as a newcomer runs it: the first start on an empty data folder prints the team,
 * account and a generated password once, serves the console and the API, and that password
 * signs in. A second start on the same folder prints no password.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/** The version this repository publishes; the local gateway runs it. */
const gatewayVersion = (
  JSON.parse(fs.readFileSync(new URL('../apps/gateway/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

const root = path.resolve(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function start(dataDir: string, port: number): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

async function until(check: () => boolean | Promise<boolean>, seconds: number): Promise<void> {
  for (let i = 0; i < seconds * 4; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('timed out');
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

describe('npm start', () => {
  const children: ChildProcess[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-start-'));
  afterEach(async () => {
    for (const c of children.splice(0)) await stop(c);
  });

  it('creates the first team, prints its password once, and serves the console and API', async () => {
    const port = await freePort();
    const run = start(dataDir, port);
    children.push(run.child);
    await until(() => /Password: \S+/.test(run.output()), 60);
    const out = run.output();
    expect(out).toContain('Team ID:  demo');
    expect(out).toContain('Account:  admin@demo.local');
    const password = /Password: (\S+)/.exec(out)![1]!;
    expect(password.length).toBeGreaterThanOrEqual(16);

    const page = await fetch(`http://127.0.0.1:${port}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    const first = await fetch(`http://127.0.0.1:${port}/api/v2/utils/notification_banner/csos`);
    const csrf = /pc_csrf=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `pc_csrf=${csrf}`,
        'x-csrf-token': csrf,
      },
      body: JSON.stringify({ domain: 'demo', username: 'admin@demo.local', password }),
    });
    expect(login.status).toBe(200);
    // The printed password serves once: the first sign-in must choose another.
    expect(await login.json()).toMatchObject({ is_admin: 1, op: 'change_pwd' });
    const session = /pc_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
    const cookie = `pc_csrf=${csrf}; pc_session=${session}`;
    const held = await fetch(`http://127.0.0.1:${port}/api/v1/network/list`, {
      headers: { cookie },
    });
    expect(held.status).toBe(403);
    const changed = await fetch(`http://127.0.0.1:${port}/api/current_account/change_password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf },
      body: JSON.stringify({ pwd: 'Chosen#Admin2026' }),
    });
    expect(changed.status, await changed.text()).toBe(200);

    // A working cluster at once: the gateway started beside the server is its agent.
    let cluster: { name: string; agent_status: number; agent_version: string } | undefined;
    await until(async () => {
      const list = await fetch(`http://127.0.0.1:${port}/api/v1/network/list`, {
        headers: { cookie },
      });
      cluster = ((await list.json()) as { objects: (typeof cluster)[] }).objects[0];
      return cluster?.agent_status === 1;
    }, 60);
    expect(cluster).toMatchObject({
      name: 'Local',
      agent_status: 1,
      agent_version: gatewayVersion,
    });
    expect((fs.statSync(path.join(dataDir, 'local-gateway.json')).mode & 0o077) === 0).toBe(true);
    // The password is printed on the terminal only: never in the data folder in clear.
    for (const file of fs.readdirSync(dataDir).filter((f) => f.startsWith('portcullis.db'))) {
      expect(fs.readFileSync(path.join(dataDir, file)).includes(Buffer.from(password)), file).toBe(
        false,
      );
    }
  });

  it('prints no password on a later start of the same data folder', async () => {
    const port = await freePort();
    const run = start(dataDir, port);
    children.push(run.child);
    await until(async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/api/v2/utils/notification_banner/csos`)).ok;
      } catch {
        return false;
      }
    }, 60);
    expect(run.output()).not.toContain('Password:');
  });
});
