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
import fs from 'node:fs';
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
  // Its real path: started through a symlink (npm's bin), the worker saw no `.ts` and ran it
  // without tsx, and every large text under rules was refused.
  entry = fs.realpathSync(file);
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

/**
 * How long one text may wait for its verdict. Past it the text is refused (fail closed) and the
 * worker stopped; the texts queued behind it go to a new one. Without a limit one text (a dump of
 * tens of MB) held every other session's large statements for minutes, and a worker that hung
 * held them for good.
 */
export const JUDGE_TIMEOUT_MS = 30_000;
let timeoutMs = JUDGE_TIMEOUT_MS;

/** Tests only: a shorter limit. */
export function setJudgeTimeout(ms: number): void {
  timeoutMs = ms;
}

interface Pending {
  request: Request;
  resolve: (verdict: SqlVerdict) => void;
  timer: NodeJS.Timeout;
}

/** A worker and the texts it was sent (its own: a worker that goes fails only those). */
interface Judge {
  worker: Worker;
  waiting: Map<number, Pending>;
}

let current: Judge | undefined;
let nextId = 1;

function started(): Judge {
  if (current) return current;
  const judge: Judge = { worker: newWorker(), waiting: new Map() };
  const { worker: w, waiting } = judge;
  w.on('message', (reply: Reply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) w.unref();
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.resolve(reply.verdict);
  });
  const fail = (why: string): void => {
    if (current === judge) current = undefined;
    for (const pending of waiting.values()) {
      clearTimeout(pending.timer);
      pending.resolve(failed(why));
    }
    waiting.clear();
  };
  w.on('error', (err) => fail(err.message));
  w.on('exit', () => fail('the judge stopped'));
  // Idle, it does not keep the gateway running (unref'd after its listeners, which ref it).
  w.unref();
  current = judge;
  return judge;
}

/** The request took too long: it is refused, the worker stopped, the others sent again. */
function tooLong(judge: Judge, id: number): void {
  const late = judge.waiting.get(id);
  if (!late) return;
  const others = [...judge.waiting.values()].filter((p) => p !== late);
  for (const pending of judge.waiting.values()) clearTimeout(pending.timer);
  judge.waiting.clear();
  if (current === judge) current = undefined;
  void judge.worker.terminate();
  late.resolve(failed(`it took more than ${Math.round(timeoutMs / 1000)} s`));
  for (const pending of others) submit(pending.request, pending.resolve);
}

function submit(request: Request, resolve: (verdict: SqlVerdict) => void): void {
  try {
    const judge = started();
    const timer = setTimeout(() => tooLong(judge, request.id), timeoutMs);
    timer.unref();
    judge.waiting.set(request.id, { request, resolve, timer });
    // While a verdict is awaited, the worker keeps the process running.
    judge.worker.ref();
    judge.worker.postMessage(request);
  } catch (err) {
    current?.waiting.delete(request.id);
    resolve(failed(err instanceof Error ? err.message : 'no worker'));
  }
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
    const request: Request = { id: nextId++, dialect, sql, policy };
    if (bytes) request.bytes = bytes;
    submit(request, resolve);
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
