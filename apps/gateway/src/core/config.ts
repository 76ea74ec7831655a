/**
 * The gateway's settings, from three places in rising priority: a JSON config file (what the
 * install script writes), PORTCULLIS_GATEWAY_* environment variables, and command-line flags.
 * Everything is checked here, so the rest of the gateway gets a complete, valid config or the
 * operator gets one clear message.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GatewayPortsSchema, type GatewayPorts } from '../control/protocol';
import { controlUrl, insecureServerProblem } from '../control/url';
import { LOG_LEVELS, type LogLevel } from './logger';

export interface GatewayConfig {
  server: string;
  key: string;
  host?: string;
  ports: Partial<GatewayPorts>;
  logLevel: LogLevel;
  /** Where the key came from, so main can warn when it sits on the command line. */
  keySource: 'flag' | 'env' | 'file';
  configFile?: string;
  /** Where the gateway keeps its own files (the SSH proxy's host key); never a credential. */
  dataDir?: string;
  /** SSH worker processes; 0 runs SSH sessions in the gateway's own process. */
  sshWorkers: number;
  /** Seconds an idle PostgreSQL connection is kept for the next session; 0: none kept. */
  pgKeepIdle: number;
  /** The operator accepted a plain http:// server on another machine (--insecure-http). */
  insecureHttp: boolean;
}

/** A problem with the input; its message is printed as is. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export type CliRequest =
  { kind: 'help' } | { kind: 'version' } | { kind: 'run'; config: GatewayConfig };

export const USAGE = `Usage: portcullis-gateway --server <http(s)://host:port> --key <cluster key> [options]

Options:
  --server <url>       the Portcullis server (env PORTCULLIS_GATEWAY_SERVER)
  --key <key>          the cluster key (env PORTCULLIS_GATEWAY_KEY; prefer the env or the
                       config file: a key on the command line is visible to local users)
  --config <file>      JSON config file with server, key, host, ports, log_level, ssh_workers,
                       pg_keep_idle
                       (env PORTCULLIS_GATEWAY_CONFIG)
  --host <name>        host name clients use to reach this gateway (env PORTCULLIS_GATEWAY_HOST)
  --data-dir <dir>     the gateway's own files, e.g. the SSH proxy's host key
                       (env PORTCULLIS_GATEWAY_DATA_DIR; default: data/ beside
                       the --config file, else ./data/gateway)
  --log-level <level>  trace, debug, info, warn, error, fatal or silent (env PORTCULLIS_GATEWAY_LOG_LEVEL)
  --ssh-workers <n>    processes that carry SSH sessions, 0-64; 0 (the default) keeps them in the
                       gateway's own process (env PORTCULLIS_GATEWAY_SSH_WORKERS)
  --pg-keep-idle <s>   seconds a PostgreSQL connection is kept idle for the next session of the
                       same login, 0-3600; 0 keeps none (default 30; env
                       PORTCULLIS_GATEWAY_PG_KEEP_IDLE)
  --insecure-http      accept an http:// server on another machine: the cluster key and the
                       targets' credentials then cross the network in clear (env
                       PORTCULLIS_GATEWAY_INSECURE_HTTP=1; config "insecure_http": true)
  --help, --version

Flags override the environment, which overrides the config file.
Exit codes: 0 stopped, 2 bad input, 3 cluster key refused, 4 update required, 1 other failure.`;

const FILE_FIELDS = new Set([
  'server',
  'key',
  'host',
  'ports',
  'log_level',
  'data_dir',
  'ssh_workers',
  'pg_keep_idle',
  'insecure_http',
]);
const SSH_WORKERS_MAX = 64;
const PG_KEEP_IDLE_MAX = 3600;
export const PG_KEEP_IDLE_DEFAULT = 30;

interface FileConfig {
  server?: string;
  key?: string;
  host?: string;
  ports?: Partial<GatewayPorts>;
  log_level?: string;
  data_dir?: string;
  ssh_workers?: number;
  pg_keep_idle?: number;
  insecure_http?: boolean;
}

function readConfigFile(file: string): FileConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'error';
    throw new ConfigError(`cannot read config file ${file} (${code})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`config file ${file} is not valid JSON`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new ConfigError(`config file ${file} must hold a JSON object`);
  }
  const record = json as Record<string, unknown>;
  for (const field of Object.keys(record)) {
    if (!FILE_FIELDS.has(field))
      throw new ConfigError(`config file ${file}: unknown field "${field}"`);
  }
  for (const field of ['server', 'key', 'host', 'log_level', 'data_dir'] as const) {
    if (record[field] !== undefined && typeof record[field] !== 'string') {
      throw new ConfigError(`config file ${file}: "${field}" must be a string`);
    }
  }
  if (record.insecure_http !== undefined && typeof record.insecure_http !== 'boolean') {
    throw new ConfigError(`config file ${file}: "insecure_http" must be true or false`);
  }
  if (record.ssh_workers !== undefined && typeof record.ssh_workers !== 'number') {
    throw new ConfigError(`config file ${file}: "ssh_workers" must be a number`);
  }
  let ports: Partial<GatewayPorts> | undefined;
  if (record.ports !== undefined) {
    const parsed = GatewayPortsSchema.partial().strict().safeParse(record.ports);
    if (!parsed.success) {
      const where = parsed.error.issues[0]?.path.join('.') ?? '';
      throw new ConfigError(
        `config file ${file}: "ports${where ? '.' + where : ''}" must be a port number 0-65535 ` +
          `(fields: ${Object.keys(GatewayPortsSchema.shape).join(', ')})`,
      );
    }
    ports = parsed.data;
  }
  return { ...(record as FileConfig), ports };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Reads the command line and environment (and the config file they name). */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv): CliRequest {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        server: { type: 'string' },
        key: { type: 'string' },
        config: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        'log-level': { type: 'string' },
        'ssh-workers': { type: 'string' },
        'pg-keep-idle': { type: 'string' },
        'insecure-http': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    }));
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const flag = (name: string): string | undefined =>
    nonEmpty(typeof values[name] === 'string' ? (values[name] as string) : undefined);

  const configFile = flag('config') ?? nonEmpty(env.PORTCULLIS_GATEWAY_CONFIG);
  const file = configFile !== undefined ? readConfigFile(configFile) : {};
  const pick = (name: string, envName: string, fileValue: string | undefined): string | undefined =>
    flag(name) ?? nonEmpty(env[envName]) ?? nonEmpty(fileValue);

  const server = pick('server', 'PORTCULLIS_GATEWAY_SERVER', file.server);
  if (server === undefined)
    throw new ConfigError('missing --server (the Portcullis server address)');
  try {
    controlUrl(server);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const insecureHttp =
    values['insecure-http'] === true ||
    env.PORTCULLIS_GATEWAY_INSECURE_HTTP === '1' ||
    file.insecure_http === true;
  const insecure = insecureServerProblem(server);
  if (insecure !== null && !insecureHttp) throw new ConfigError(insecure);
  const key = pick('key', 'PORTCULLIS_GATEWAY_KEY', file.key);
  if (key === undefined)
    throw new ConfigError('missing --key (the cluster key shown in the console)');
  if (!/^[\x21-\x7e]{1,512}$/.test(key)) {
    throw new ConfigError('the cluster key must be 1-512 printable characters without spaces');
  }
  const keySource =
    flag('key') !== undefined ? 'flag' : nonEmpty(env.PORTCULLIS_GATEWAY_KEY) ? 'env' : 'file';

  const host = pick('host', 'PORTCULLIS_GATEWAY_HOST', file.host);
  if (host !== undefined && (host.length > 255 || /\s/.test(host))) {
    throw new ConfigError(
      '--host must be a host name or address (at most 255 characters, no spaces)',
    );
  }
  // Beside an installed gateway's config file (the install script makes <root>/data writable
  // by the service user); ./data/gateway for a gateway run by hand.
  const dataDir =
    pick('data-dir', 'PORTCULLIS_GATEWAY_DATA_DIR', file.data_dir) ??
    (configFile ? path.join(path.dirname(configFile), 'data') : undefined);
  const level = pick('log-level', 'PORTCULLIS_GATEWAY_LOG_LEVEL', file.log_level) ?? 'info';
  if (!(level in LOG_LEVELS)) {
    throw new ConfigError(`--log-level must be one of ${Object.keys(LOG_LEVELS).join(', ')}`);
  }
  const workers = pick(
    'ssh-workers',
    'PORTCULLIS_GATEWAY_SSH_WORKERS',
    file.ssh_workers === undefined ? undefined : String(file.ssh_workers),
  );
  // In process by default: on the 2-core machine the bench runs on, workers did not shorten
  // echo beside a bulk transfer, and one comparison measured twice the CPU per byte (README).
  const sshWorkers = workers === undefined ? 0 : Number(workers);
  if (!Number.isInteger(sshWorkers) || sshWorkers < 0 || sshWorkers > SSH_WORKERS_MAX) {
    throw new ConfigError(`--ssh-workers must be a whole number from 0 to ${SSH_WORKERS_MAX}`);
  }
  const keepIdle = pick(
    'pg-keep-idle',
    'PORTCULLIS_GATEWAY_PG_KEEP_IDLE',
    file.pg_keep_idle === undefined ? undefined : String(file.pg_keep_idle),
  );
  const pgKeepIdle = keepIdle === undefined ? PG_KEEP_IDLE_DEFAULT : Number(keepIdle);
  if (!Number.isInteger(pgKeepIdle) || pgKeepIdle < 0 || pgKeepIdle > PG_KEEP_IDLE_MAX) {
    throw new ConfigError(
      `--pg-keep-idle must be a whole number of seconds from 0 to ${PG_KEEP_IDLE_MAX}`,
    );
  }
  return {
    kind: 'run',
    config: {
      sshWorkers,
      pgKeepIdle,
      insecureHttp,
      server,
      key,
      host,
      ports: file.ports ?? {},
      logLevel: level as LogLevel,
      keySource,
      configFile,
      ...(dataDir !== undefined && { dataDir }),
    },
  };
}

/** True when the file can be read by group or others (it holds the cluster key). */
export function readableByOthers(file: string): boolean {
  try {
    return (fs.statSync(file).mode & 0o077) !== 0;
  } catch {
    return false;
  }
}
