import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readableByOthers } from './config';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-config-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content), {
    mode: 0o600,
  });
  return p;
}

const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const request = loadConfig(argv, env);
  if (request.kind !== 'run') throw new Error(`expected run, got ${request.kind}`);
  return request.config;
};

describe('loadConfig', () => {
  it('reads flags', () => {
    expect(
      run(['--server', 'https://bastion.example:8443', '--key', 'ck_1', '--host', 'gw1']),
    ).toEqual({
      server: 'https://bastion.example:8443',
      key: 'ck_1',
      host: 'gw1',
      ports: {},
      logLevel: 'info',
      keySource: 'flag',
      configFile: undefined,
      // SSH sessions in the gateway's own process unless told otherwise.
      sshWorkers: 0,
      // PostgreSQL connections kept idle for half a minute unless told otherwise.
      pgKeepIdle: 30,
      insecureHttp: false,
    });
  });

  it('refuses plain http:// to another machine unless the operator accepts it', () => {
    const key = ['--key', 'k'];
    // This machine: the control channel never crosses a network.
    for (const server of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']) {
      expect(run(['--server', server, ...key]).insecureHttp).toBe(false);
    }
    for (const server of [
      'http://10.0.0.5:8080',
      'http://127.0.0.1.example.com',
      'http://bastion',
    ]) {
      expect(() => run(['--server', server, ...key])).toThrow(
        /plain http:\/\/ to another machine: the control channel would carry the cluster key/,
      );
    }
    const lan = ['--server', 'http://10.0.0.5:8080', ...key];
    expect(run([...lan, '--insecure-http']).insecureHttp).toBe(true);
    expect(run(lan, { PORTCULLIS_GATEWAY_INSECURE_HTTP: '1' }).insecureHttp).toBe(true);
    const config = file('insecure.json', {
      server: 'http://10.0.0.5:8080',
      key: 'k',
      insecure_http: true,
    });
    expect(run(['--config', config]).insecureHttp).toBe(true);
    expect(() =>
      run([
        '--config',
        file('insecure-bad.json', { server: 'https://a', key: 'k', insecure_http: 'yes' }),
      ]),
    ).toThrow(/"insecure_http" must be true or false/);
  });

  it('reads how long PostgreSQL connections are kept idle; 0 keeps none', () => {
    const base = ['--server', 'http://localhost:1', '--key', 'k'];
    expect(run([...base, '--pg-keep-idle', '0']).pgKeepIdle).toBe(0);
    expect(run(base, { PORTCULLIS_GATEWAY_PG_KEEP_IDLE: '120' }).pgKeepIdle).toBe(120);
    const config = file('keep.json', { server: 'http://localhost:1', key: 'k', pg_keep_idle: 5 });
    expect(run(['--config', config]).pgKeepIdle).toBe(5);
    for (const bad of ['-1', '3601', '1.5', 'long'])
      expect(() => run([...base, `--pg-keep-idle=${bad}`])).toThrow(/--pg-keep-idle must be/);
  });

  it('reads the SSH workers from the flag, the environment or the file; 0 keeps them in', () => {
    const base = ['--server', 'http://localhost:1', '--key', 'k'];
    expect(run([...base, '--ssh-workers', '0']).sshWorkers).toBe(0);
    expect(run(base, { PORTCULLIS_GATEWAY_SSH_WORKERS: '3' }).sshWorkers).toBe(3);
    const config = file('workers.json', { server: 'http://localhost:1', key: 'k', ssh_workers: 4 });
    expect(run(['--config', config]).sshWorkers).toBe(4);
    for (const bad of ['-1', '65', '1.5', 'many'])
      expect(() => run([...base, `--ssh-workers=${bad}`])).toThrow(/--ssh-workers must be/);
  });

  it('flags override the environment, which overrides the config file', () => {
    const config = file('all.json', {
      server: 'https://from-file:8080',
      key: 'ck_file',
      host: 'file-host',
      log_level: 'debug',
      ports: { ssh_port: 2222, webrdp_port: 0 },
    });
    const fromFile = run(['--config', config]);
    expect(fromFile).toMatchObject({
      server: 'https://from-file:8080',
      key: 'ck_file',
      host: 'file-host',
      logLevel: 'debug',
      ports: { ssh_port: 2222, webrdp_port: 0 },
      keySource: 'file',
    });
    const env = {
      PORTCULLIS_GATEWAY_CONFIG: config,
      PORTCULLIS_GATEWAY_KEY: 'ck_env',
      PORTCULLIS_GATEWAY_HOST: 'env-host',
    };
    expect(run([], env)).toMatchObject({
      key: 'ck_env',
      host: 'env-host',
      server: 'https://from-file:8080',
      keySource: 'env',
    });
    expect(run(['--host', 'flag-host', '--server', 'https://flag:1'], env)).toMatchObject({
      key: 'ck_env',
      host: 'flag-host',
      server: 'https://flag:1',
    });
  });

  it('answers help and version', () => {
    expect(loadConfig(['--help'], {})).toEqual({ kind: 'help' });
    expect(loadConfig(['--version'], {})).toEqual({ kind: 'version' });
  });

  it.each([
    [[], /missing --server/],
    [['--server', 'http://localhost:1'], /missing --key/],
    [['--server', 'ws://s:1', '--key', 'k'], /http:\/\/ or https:\/\//],
    [['--server', 'not a url', '--key', 'k'], /http:\/\/ or https:\/\//],
    [['--server', 'http://user:pw@s:1', '--key', 'k'], /credentials/],
    [['--server', 'http://localhost:1', '--key', 'two words'], /printable/],
    [['--server', 'http://localhost:1', '--key', 'k', '--log-level', 'loud'], /--log-level/],
    [['--server', 'http://localhost:1', '--key', 'k', '--host', 'a b'], /--host/],
    [['--server', 'http://localhost:1', '--key', 'k', '--bogus'], /Unknown option '--bogus'/],
    [['--server', 'http://localhost:1', '--key', 'k', 'positional'], /positional/],
    [['--config', '/nonexistent/gw.json'], /cannot read config file .* \(ENOENT\)/],
  ])('refuses %j', (argv, message) => {
    expect(() => loadConfig(argv as string[], {})).toThrow(ConfigError);
    expect(() => loadConfig(argv as string[], {})).toThrow(message);
  });

  it.each([
    ['not json', 'not valid JSON'],
    [[1, 2], 'must hold a JSON object'],
    [{ server: 'http://localhost:1', key: 'k', sever: 'typo' }, 'unknown field "sever"'],
    [{ server: 8080, key: 'k' }, '"server" must be a string'],
    [
      { server: 'http://localhost:1', key: 'k', ports: { ssh_port: 70000 } },
      '"ports.ssh_port" must be a port number',
    ],
    [
      { server: 'http://localhost:1', key: 'k', ports: { telnet_port: 23 } },
      '"ports" must be a port number',
    ],
    [
      { server: 'http://localhost:1', key: 'k', ssh_workers: '2' },
      '"ssh_workers" must be a number',
    ],
  ])('refuses the config file %j', (content, message) => {
    const p = file(`bad-${Math.random()}.json`, content);
    expect(() => loadConfig(['--config', p], {})).toThrow(message);
  });

  it('tells whether the config file is readable by others', () => {
    const p = file('perm.json', {});
    expect(readableByOthers(p)).toBe(false);
    fs.chmodSync(p, 0o644);
    expect(readableByOthers(p)).toBe(true);
  });
});
