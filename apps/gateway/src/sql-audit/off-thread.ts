/**
 * Large texts judged off the event loop. Parsing is synchronous and costs about 0.65 s per MB
 * of MySQL text (node-sql-parser is JavaScript) and 0.25 s per MB of PostgreSQL: judged on the
 * gateway's one event loop, a 12 MB INSERT (a dump being loaded where rules apply) held every
 * other session for seconds, a console cut among them. Texts past {@link LARGE_TEXT} go to a
 * worker thread instead, one for the gateway, started when first needed; the session waits for
 * its verdict as it would have, the others carry on. A worker that fails refuses (fail closed).
 *
 * The worker runs the gateway's own entry file (main.ts under tsx, or the bundle: the gateway
 * registers it with {@link useJudgeWorkerEntry}) in worker mode ({@link isJudgeWorker}); where
 * no entry is registered (the gateway run in a test's process), this folder's
 * judge-worker-main.ts under tsx.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { SqlPolicy } from '@portcullis/contract';
import { judgeSql, type SqlDialect, type SqlVerdict } from './judge';
import { multibyteReadings } from './multibyte-readings';
import { loadPostgresParser } from './postgres';

/** Characters from which a text is judged by the worker. */
export const LARGE_TEXT = 256 * 1024;

const ROLE = 'portcullis-sql-judge';

interface Request {
  id: number;
  dialect: SqlDialect;
  sql: string;
  policy: SqlPolicy | undefined;
  /** The text's bytes, when they must also pass as multibyte character sets read them. */
  bytes?: Uint8Array;
}

interface Reply {
  id: number;
  verdict: SqlVerdict;
}

const failed = (why: string): SqlVerdict => ({
  action: 'block',
  reason: 'unreadable',
  message: `Portcullis blocked this statement: it could not be checked (${why}), and this database has rules`,
});

/** This thread is the judge worker (the entry file runs {@link runJudgeWorker} then). */
export function isJudgeWorker(): boolean {
  return !isMainThread && (workerData as { role?: string } | null)?.role === ROLE;
}

/** The worker's side: loads the parsers and judges what it is sent, one text at a time. */
export function runJudgeWorker(): void {
  const port = parentPort;
  if (!port) return;
  const ready = loadPostgresParser();
  port.on('message', (request: Request) => {
    void ready.then(
      () => {
        let verdict: SqlVerdict;
        try {
          const { bytes } = request;
          verdict = judgeWithBytes(
            request.dialect,
            request.sql,
            request.policy,
            bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
          );
        } catch {
          verdict = failed('the judge failed');
        }
        port.postMessage({ id: request.id, verdict } satisfies Reply);
      },
      () => port.postMessage({ id: request.id, verdict: failed('no parser') } satisfies Reply),
    );
  });
}

let entry: string | undefined;

/** The gateway's entry file, which the worker runs in worker mode. */
export function useJudgeWorkerEntry(file: string): void {
  entry = file;
}

/**
 * A worker of the entry file. A TypeScript one (under tsx) is started by a line of JavaScript
 * that registers tsx in the worker first: a worker does not take `--import tsx` from execArgv.
 */
function newWorker(): Worker {
  // Read only here: a bundle (CommonJS) has no import.meta, and registers its entry instead.
  const file = entry ?? fileURLToPath(new URL('./judge-worker-main.ts', import.meta.url));
  // No Node options: a worker refuses those that belong to the process (--expose-gc, …).
  const options = { workerData: { role: ROLE }, execArgv: [] };
  if (!file.endsWith('.ts')) return new Worker(file, options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const url = JSON.stringify(pathToFileURL(file).href);
  const boot = `import(${tsx}).then((api) => { api.register(); return import(${url}); })`;
  return new Worker(boot, { ...options, eval: true });
}

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, (verdict: SqlVerdict) => void>();

function started(): Worker {
  if (worker) return worker;
  const w = newWorker();
  w.on('message', (reply: Reply) => {
    const resolve = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) w.unref();
    resolve?.(reply.verdict);
  });
  const fail = (why: string): void => {
    if (worker === w) worker = undefined;
    for (const resolve of waiting.values()) resolve(failed(why));
    waiting.clear();
  };
  w.on('error', (err) => fail(err.message));
  w.on('exit', () => fail('the judge stopped'));
  // Idle, it does not keep the gateway running (unref'd after its listeners, which ref it).
  w.unref();
  worker = w;
  return w;
}

/** judgeSql in the worker thread, for texts of {@link LARGE_TEXT} characters or more. */
export function judgeSqlOffThread(
  dialect: SqlDialect,
  sql: string,
  policy: SqlPolicy | undefined,
  /** As judgeSql's `otherReadings`, made in the worker from the text's bytes. */
  bytes?: Buffer,
): Promise<SqlVerdict> {
  return new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    try {
      const request: Request = { id, dialect, sql, policy };
      if (bytes) request.bytes = bytes;
      const w = started();
      // While a verdict is awaited, the worker keeps the process running.
      w.ref();
      w.postMessage(request);
    } catch (err) {
      waiting.delete(id);
      resolve(failed(err instanceof Error ? err.message : 'no worker'));
    }
  });
}

/** judgeSql, the text's bytes (when given) also read as multibyte character sets would. */
function judgeWithBytes(
  dialect: SqlDialect,
  sql: string,
  policy: SqlPolicy | undefined,
  bytes: Buffer | undefined,
): SqlVerdict {
  return judgeSql(dialect, sql, policy, policy && bytes ? multibyteReadings(bytes) : []);
}

/**
 * Judges a statement text a client sent: here, or for a text of {@link LARGE_TEXT} characters
 * or more under rules, in the worker (a promise then). `bytes`, the text as the client sent it,
 * when it must also pass as the multibyte character sets read it (multibyte-readings.ts).
 */
export function judgeClientText(
  dialect: SqlDialect,
  sql: string,
  policy: SqlPolicy | undefined,
  bytes?: Buffer,
): SqlVerdict | Promise<SqlVerdict> {
  if (policy && sql.length >= LARGE_TEXT) return judgeSqlOffThread(dialect, sql, policy, bytes);
  return judgeWithBytes(dialect, sql, policy, bytes);
}

/** `then` on what {@link judgeClientText} gave: at once, or when the worker has answered. */
export function whenJudged<T>(
  verdict: SqlVerdict | Promise<SqlVerdict>,
  then: (verdict: SqlVerdict) => T,
): T | Promise<T> {
  return verdict instanceof Promise ? verdict.then(then) : then(verdict);
}
