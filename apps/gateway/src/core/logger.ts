/**
 * A small structured logger: one JSON object per line, in pino's shape (`level` as a number,
 * `time` in epoch milliseconds, `msg`), so the gateway's logs read like the server's without
 * bundling pino into the single-file gateway.
 *
 * Limits: it never serialises a secret it can recognise. Fields named like a credential
 * (password, private_key, key, authorization, token, passphrase) are replaced by "[redacted]"
 * at any depth, and Error objects are reduced to name/code (their messages can echo input).
 * Callers still must not put a secret inside a free-text `msg`.
 */
import os from 'node:os';

export const LOG_LEVELS = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
} as const;
export type LogLevel = keyof typeof LOG_LEVELS;

export type LogFields = Record<string, unknown>;

export interface Logger {
  trace(fields: LogFields | string, msg?: string): void;
  debug(fields: LogFields | string, msg?: string): void;
  info(fields: LogFields | string, msg?: string): void;
  warn(fields: LogFields | string, msg?: string): void;
  error(fields: LogFields | string, msg?: string): void;
  fatal(fields: LogFields | string, msg?: string): void;
  child(bindings: LogFields): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; standard output by default. Tests pass a collector. */
  write?: (line: string) => void;
  bindings?: LogFields;
}

const SECRET_FIELD =
  /^(password|passwd|passphrase|private_?key|key|cluster_?key|authorization|token|secret)$/i;
const MAX_DEPTH = 6;

/** A copy of `value` safe to log: credential-named fields redacted, errors reduced. */
export function sanitize(value: unknown, depth = 0): unknown {
  if (value instanceof Error) {
    const err = value as Error & { code?: unknown; level?: unknown };
    const out: LogFields = { type: err.name };
    if (typeof err.code === 'string' || typeof err.code === 'number') out.code = err.code;
    if (typeof err.level === 'string') out.level = err.level;
    return out;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[deep]';
  if (Array.isArray(value)) return value.map((v) => sanitize(v, depth + 1));
  const out: LogFields = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_FIELD.test(k) ? '[redacted]' : sanitize(v, depth + 1);
  }
  return out;
}

/** Creates a JSON-lines logger. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = LOG_LEVELS[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const base: LogFields = {
    pid: process.pid,
    hostname: os.hostname(),
    name: 'portcullis-gateway',
    ...options.bindings,
  };

  const emit = (level: number, fields: LogFields | string, msg?: string): void => {
    if (level < threshold) return;
    const own = typeof fields === 'string' ? { msg: fields } : { ...fields, msg };
    const record: LogFields = { level, time: Date.now(), ...base, ...(sanitize(own) as LogFields) };
    if (record.msg === undefined) delete record.msg;
    write(JSON.stringify(record));
  };

  return {
    trace: (f, m) => emit(LOG_LEVELS.trace, f, m),
    debug: (f, m) => emit(LOG_LEVELS.debug, f, m),
    info: (f, m) => emit(LOG_LEVELS.info, f, m),
    warn: (f, m) => emit(LOG_LEVELS.warn, f, m),
    error: (f, m) => emit(LOG_LEVELS.error, f, m),
    fatal: (f, m) => emit(LOG_LEVELS.fatal, f, m),
    child: (bindings) =>
      createLogger({ ...options, bindings: { ...options.bindings, ...bindings } }),
  };
}

/** Drops everything (the default when a test or embedder passes no logger). */
export const silentLogger: Logger = createLogger({ level: 'silent', write: () => undefined });
