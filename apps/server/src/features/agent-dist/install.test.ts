/**
 * The install script for real: the server listens on loopback, the console's own install,
 * update, roll-back and uninstall commands run through `sh` (with curl) into a temporary root
 * folder without systemd (PORTCULLIS_NO_SYSTEMD=1; `sudo` in the commands becomes `env`, since
 * the tests already run as root), and the installed bundle is started from `<root>/run.sh`
 * as a child process and watched through the API.
 *
 * The older release the update and roll-back switch between is this same gateway source
 * built by apps/gateway/scripts/bundle.mjs with `--version 2.9.<pid>` stamped on it: the
 * server serves any version whose bundle is in its folder, and the script can pin one
 * (PORTCULLIS_VERSION). Updating then goes from that version to the published one, as it
 * would after a server upgrade.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshd, type SshdPeer } from '../../../../../scripts/peers/sshd.mjs';
import { PUBLISHED_GATEWAY_VERSION } from '../clusters/gateway-version';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { bundlePath } from './distribution';

const BUNDLE_SCRIPT = path.resolve(import.meta.dirname, '../../../../gateway/scripts/bundle.mjs');
const OLD_VERSION = `2.9.${process.pid % 10000}`;

async function poll<T>(read: () => Promise<T>, done: (v: T) => boolean, seconds = 30) {
  let value = await read();
  for (let i = 0; i < seconds * 10 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a shell command line the way an administrator pastes it. Asynchronously: the server
 * answering curl lives in this same process.
 */
function sh(command: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe('gateway install script (real sh, curl and gateway bundle)', () => {
  let t: TestApp;
  let admin: TestClient;
  let address: string;
  let networkId: number;
  let key: string;
  let commands: Record<'install' | 'update' | 'rollback' | 'uninstall', string>;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-install-'));
  const root = path.join(base, 'gateway');
  let gateway: ChildProcess | null = null;
  let gatewayOutput = '';

  /** The console's command, run into the temporary root without systemd. */
  const paste = (action: keyof typeof commands, extra = '') =>
    sh(
      commands[action].replace(
        '| sudo ',
        `| env PORTCULLIS_ROOT='${root}' PORTCULLIS_NO_SYSTEMD=1 ${extra}`,
      ),
    );

  const cluster = async () => (await admin.get(`/api/v1/network/${networkId}`)).json();
  const currentVersion = () => fs.readlinkSync(path.join(root, 'current'));

  function start(): void {
    gatewayOutput = '';
    gateway = spawn('sh', [path.join(root, 'run.sh')], { stdio: ['ignore', 'pipe', 'pipe'] });
    gateway.stdout!.on('data', (d: Buffer) => (gatewayOutput += d.toString()));
    gateway.stderr!.on('data', (d: Buffer) => (gatewayOutput += d.toString()));
  }
  async function stop(): Promise<void> {
    const child = gateway;
    gateway = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
  async function expectAgent(status: 0 | 1, version?: string) {
    const c = await poll(cluster, (v) => v.agent_status === status, 20);
    expect(c.agent_status, gatewayOutput).toBe(status);
    if (version) expect(c.agent_version).toBe(version);
    return c;
  }

  beforeAll(async () => {
    t = await createTestApp();
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.ctx.config.publicUrl = address;
    admin = await signedIn(t);
    networkId = (await admin.post('/api/v1/network', { name: 'Installed' })).json().id;
    commands = (await admin.get(`/api/v1/network/${networkId}/agent_scripts`)).json();
    key = /'(pck_[A-Za-z0-9_-]+)'/.exec(commands.install)![1]!;
    const built = spawnSync(process.execPath, [BUNDLE_SCRIPT, '--version', OLD_VERSION], {
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
  });
  afterAll(async () => {
    await stop();
    await t?.close();
    fs.rmSync(base, { recursive: true, force: true });
    fs.rmSync(bundlePath(OLD_VERSION), { force: true });
  });

  it('serves the script and the bundle only to a cluster key', async () => {
    for (const url of ['/api/agent/install.sh', '/api/agent/bundle.js']) {
      for (const authorization of [undefined, 'Bearer pck_not-a-key', `Basic ${key}`]) {
        const res = await t.app.inject({
          method: 'GET',
          url,
          headers: authorization ? { authorization } : {},
        });
        expect(res.statusCode, `${url} ${authorization}`).toBe(401);
        expect(res.json().code).toBe('InvalidToken');
      }
    }
    const script = await t.app.inject({
      method: 'GET',
      url: '/api/agent/install.sh',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain(`PUBLISHED_VERSION='${PUBLISHED_GATEWAY_VERSION}'`);
    // The script carries the server and the key that fetched it: sudo needs neither.
    expect(script.body).toContain(`SERVER="\${PORTCULLIS_SERVER:-${address}}"`);
    expect(script.body).toContain(`KEY="\${PORTCULLIS_KEY:-${key}}"`);
    expect(commands.install).not.toContain('PORTCULLIS_KEY');
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/agent/bundle.js?version=0.0.1',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(missing.json().code).toBe('InvalidParameter');
    expect(t.logs()).not.toContain(key);
  });

  it('with a wrong key, fails with a clear message and installs nothing', async () => {
    const wrong = commands.install.replaceAll(key, `pck_${'x'.repeat(43)}`);
    const fetched = await sh(wrong.replace('| sudo ', `| env PORTCULLIS_ROOT='${root}' `));
    expect(fetched.stderr).toContain('401');
    expect(fs.existsSync(root)).toBe(false);

    // The right script, run with a wrong key: the bundle download is refused.
    const file = path.join(base, 'install.sh');
    const saved = await sh(
      `curl -fsS -H 'Authorization: Bearer ${key}' -o '${file}' '${address}/api/agent/install.sh'`,
    );
    expect(saved.status, saved.stderr).toBe(0);
    const run = await sh(`sh '${file}' install`, {
      PORTCULLIS_SERVER: address,
      PORTCULLIS_KEY: `pck_${'x'.repeat(43)}`,
      PORTCULLIS_ROOT: root,
      PORTCULLIS_NO_SYSTEMD: '1',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('the server refused the cluster key');
    expect(fs.existsSync(root)).toBe(false);
  });

  it('refuses unusable input before touching anything', async () => {
    const file = path.join(base, 'install.sh');
    const cases: [Record<string, string>, string][] = [
      [{ PORTCULLIS_SERVER: `${address}'; touch /tmp/pwned; '` }, 'PORTCULLIS_SERVER may hold'],
      [{ PORTCULLIS_SERVER: 'ftp://example.com' }, 'http:// or https://'],
      // Plain http:// to another machine would carry the key and credentials in clear.
      [{ PORTCULLIS_SERVER: 'http://192.0.2.10:8080' }, 'plain http:// to another machine'],
      [{ PORTCULLIS_SERVER: 'http://127.0.0.1.example.com' }, 'plain http:// to another machine'],
      [{ PORTCULLIS_KEY: 'pck_$(id)' }, 'not a cluster key'],
      [{ PORTCULLIS_ROOT: 'relative/dir' }, 'absolute folder path'],
      [{ PORTCULLIS_ROOT: '/usr' }, 'folder of its own'],
      [{ PORTCULLIS_ROOT: `${root}/../x` }, 'plain folder path'],
      [{ PORTCULLIS_VERSION: '1.0.0;id' }, 'PORTCULLIS_VERSION'],
      [{ PORTCULLIS_HOST: 'a b' }, 'PORTCULLIS_HOST'],
    ];
    // Only where systemd does not run: elsewhere this would install a real unit.
    if (!fs.existsSync('/run/systemd/system')) {
      cases.push([{ PORTCULLIS_NO_SYSTEMD: '0' }, 'systemd is not running here']);
    }
    for (const [env, message] of cases) {
      const run = await sh(`sh '${file}' install`, {
        PORTCULLIS_SERVER: address,
        PORTCULLIS_KEY: key,
        PORTCULLIS_ROOT: root,
        PORTCULLIS_NO_SYSTEMD: '1',
        ...env,
      });
      expect(run.status, JSON.stringify(env)).toBe(1);
      expect(run.stderr, JSON.stringify(env)).toContain(message);
    }
    expect((await sh(`sh '${file}' reinstall`)).stderr).toContain('usage');
    expect(fs.existsSync(root)).toBe(false);
    expect(fs.existsSync('/tmp/pwned')).toBe(false);
  });

  it('installs the published version; the gateway connects, goes away when killed, and comes back', async () => {
    const run = await paste('install');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`downloaded gateway ${PUBLISHED_GATEWAY_VERSION}`);
    expect(run.stdout).toContain(`start it with: ${root}/run.sh`);
    expect(currentVersion()).toBe(`versions/${PUBLISHED_GATEWAY_VERSION}`);
    expect(fs.existsSync(path.join(root, 'previous'))).toBe(false);
    expect((await paste('rollback')).stderr).toContain('there is no previous version');
    const config = path.join(root, 'config.json');
    expect(fs.statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(config, 'utf8'))).toMatchObject({ server: address, key });

    start();
    await expectAgent(1, PUBLISHED_GATEWAY_VERSION);
    await stop();
    await expectAgent(0);
    start();
    const alive = await expectAgent(1, PUBLISHED_GATEWAY_VERSION);
    expect(alive.need_update).toBe(false);
    expect(gatewayOutput).not.toContain(key);
  });

  it('runs tasks from the installed bundle: a connectivity test logs in to a real sshd', async () => {
    const sshd: SshdPeer = await startSshd();
    try {
      const resource = await admin.post('/api/v1/resource', {
        network_id: networkId,
        name: 'sshd',
        ip_address: '127.0.0.1',
        os: 'linux',
        port: sshd.port,
        login_users: [{ username: sshd.user, auth_type: 0, password: sshd.password }],
      });
      const begun = await admin.post('/api/service_connection_test', {
        resource_id: resource.json().id,
      });
      const result = await poll(
        async () =>
          (
            await admin.get(`/api/query_service_connection_test?task_id=${begun.json().task_id}`)
          ).json(),
        (s) => s.status !== 'pending',
      );
      expect(result).toEqual({ status: 'enable', reason: '' });
      await admin.delete(`/api/resource/${resource.json().id}`);
    } finally {
      await sshd.stop();
    }
  });

  it('updates from an older version to the published one, and rolls back and forth', async () => {
    // An older release installed over the current one (pinned with PORTCULLIS_VERSION).
    // PORTCULLIS_INSECURE_HTTP=1 goes into the config (the gateway then accepts http:// to
    // another machine; here it is this one, where it changes nothing).
    const older = await paste(
      'install',
      `PORTCULLIS_VERSION='${OLD_VERSION}' PORTCULLIS_INSECURE_HTTP=1 `,
    );
    expect(older.status, older.stderr).toBe(0);
    expect(currentVersion()).toBe(`versions/${OLD_VERSION}`);
    expect(JSON.parse(fs.readFileSync(path.join(root, 'config.json'), 'utf8'))).toMatchObject({
      server: address,
      key,
      insecure_http: true,
    });
    await stop();
    start();
    expect((await expectAgent(1, OLD_VERSION)).need_update).toBe(true);

    const update = await paste('update');
    expect(update.status, update.stderr).toBe(0);
    expect(update.stdout).toContain(
      `restart the gateway to run version ${PUBLISHED_GATEWAY_VERSION}`,
    );
    expect(currentVersion()).toBe(`versions/${PUBLISHED_GATEWAY_VERSION}`);
    expect(fs.readlinkSync(path.join(root, 'previous'))).toBe(`versions/${OLD_VERSION}`);
    await stop();
    start();
    expect((await expectAgent(1, PUBLISHED_GATEWAY_VERSION)).need_update).toBe(false);
    expect((await paste('update')).stdout).toContain(
      `already at version ${PUBLISHED_GATEWAY_VERSION}`,
    );

    const back = await paste('rollback');
    expect(back.status, back.stderr).toBe(0);
    expect(currentVersion()).toBe(`versions/${OLD_VERSION}`);
    await stop();
    start();
    await expectAgent(1, OLD_VERSION);

    expect((await paste('rollback')).status).toBe(0);
    expect(currentVersion()).toBe(`versions/${PUBLISHED_GATEWAY_VERSION}`);
    expect(fs.readdirSync(path.join(root, 'versions')).sort()).toEqual(
      [OLD_VERSION, PUBLISHED_GATEWAY_VERSION].sort(),
    );
    await stop();
    start();
    await expectAgent(1, PUBLISHED_GATEWAY_VERSION);
  });

  it('uninstalls: stops the gateway started from run.sh and removes the root', async () => {
    const child = gateway!;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    const run = await paste('uninstall');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`removed ${root}`);
    expect(await exited).toBe(0);
    gateway = null;
    expect(fs.existsSync(root)).toBe(false);
    await expectAgent(0);
    expect((await paste('uninstall')).stderr).toContain('no Portcullis gateway is installed');
  });
});
