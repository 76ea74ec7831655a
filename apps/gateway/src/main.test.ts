// The real command, run as a process: exit codes and what it prints, against the test peer.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { EXIT_KEY_REJECTED, EXIT_OK, EXIT_UPDATE_REQUIRED, EXIT_USAGE } from './core/exit-codes';
import { startControlPeer, type ControlPeer } from './test/control-peer';
import { freePort, waitFor } from './test/net';
import { GATEWAY_VERSION } from './core/version';

const MAIN = path.join(import.meta.dirname, 'main.ts');
const KEY = 'ck_cli_test_key_0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function gatewayProcess(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    // The SSH proxy's host key goes to the test's folder, not the repository's data/.
    env: { PATH: process.env.PATH, PORTCULLIS_GATEWAY_DATA_DIR: path.join(dir, 'data'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  running.push(child);
  return { child, stdout: () => out, stderr: () => err, exit };
}

const running: ChildProcess[] = [];
const peers: ControlPeer[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const peer of peers.splice(0)) await peer.close();
});

async function peer(
  options: Partial<Parameters<typeof startControlPeer>[0]> = {},
): Promise<ControlPeer> {
  const p = await startControlPeer({ key: KEY, ...options });
  peers.push(p);
  return p;
}

describe('portcullis-gateway (process)', () => {
  it('prints its version from package.json', async () => {
    const run = gatewayProcess(['--version']);
    expect(await run.exit).toBe(EXIT_OK);
    expect(run.stdout().trim()).toBe(GATEWAY_VERSION);
  });

  it('exits 2 with a clear message for missing or bad input', async () => {
    const missing = gatewayProcess([]);
    expect(await missing.exit).toBe(EXIT_USAGE);
    expect(missing.stderr()).toContain('missing --server');
    const bad = gatewayProcess(['--server', 'localhost:8080', '--key', KEY]);
    expect(await bad.exit).toBe(EXIT_USAGE);
    expect(bad.stderr()).toContain('http:// or https://');
  });

  it('connects from a config file and the environment, and stops on SIGTERM with 0', async () => {
    const server = await peer();
    const config = path.join(dir, 'gateway.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ server: server.url, host: 'gw-from-file', ports: { ssh_port: 2022 } }),
      {
        mode: 0o600,
      },
    );
    const run = gatewayProcess(['--config', config], { PORTCULLIS_GATEWAY_KEY: KEY });
    const conn = await server.nextConnection(15_000);
    const hello = await conn.next('hello');
    expect(hello).toMatchObject({
      version: GATEWAY_VERSION,
      host: 'gw-from-file',
      ports: { ssh_port: 2022, mysql_port: 9696 },
    });
    await waitFor(() => run.stdout().includes('welcomed by the server'), 5000, 'the welcome log');
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(EXIT_OK);
    expect(run.stdout()).not.toContain(KEY);
    expect(run.stdout()).not.toContain('visible to local users');
  });

  it('keeps retrying while the server is unreachable', async () => {
    const port = await freePort();
    const run = gatewayProcess(['--server', `http://127.0.0.1:${port}`], {
      PORTCULLIS_GATEWAY_KEY: KEY,
    });
    await waitFor(() => run.stdout().split('will retry').length > 2, 10_000, 'two retries');
    expect(run.child.exitCode).toBeNull();
    const server = await peer({ port });
    await server.nextConnection(15_000);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(EXIT_OK);
  });

  it.each([4401, 'http401'] as const)(
    'exits 3 when the server refuses the key (%s)',
    async (refuse) => {
      const server = await peer({ refuse });
      const run = gatewayProcess(['--server', server.url, '--key', 'ck_wrong_key']);
      expect(await run.exit).toBe(EXIT_KEY_REJECTED);
      expect(run.stdout()).toContain('the server refused the cluster key');
      expect(run.stdout()).toContain('visible to local users'); // the key was given as a flag
      expect(run.stdout()).not.toContain('ck_wrong_key');
    },
  );

  it('exits 4 when the server requires an update', async () => {
    const server = await peer({ autoWelcome: false });
    const run = gatewayProcess(['--server', server.url], { PORTCULLIS_GATEWAY_KEY: KEY });
    const conn = await server.nextConnection(15_000);
    await conn.next('hello');
    conn.send({ v: 1, type: 'update_required', min_protocol: 2, latest_version: '3.2.0' });
    expect(await run.exit).toBe(EXIT_UPDATE_REQUIRED);
    expect(run.stdout()).toContain('the server requires a newer gateway');
  });
});
