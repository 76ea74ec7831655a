// The recorder and the uploader against an in-memory server that keeps chunks by offset, as
// the real one does (apps/server features/recordings/store.ts). The end-to-end path, with
// sshd, the real server and a SIGKILLed gateway, is apps/server/.../sessions/recording.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger';
import type { RecordingChunk } from '../control/protocol';
import {
  createRecordings,
  logFilterMatcher,
  recordingSpool,
  STREAM_RECORD_BYTES,
  type Recordings,
} from './index';

/** Keeps bytes by offset; answers each chunk with the size held, as the server does. */
function fakeServer(options: { refuse?: boolean; connected?: () => boolean } = {}) {
  const held = new Map<number, Buffer>();
  const chunks: RecordingChunk[] = [];
  let recordings: Recordings | undefined;
  const send = (message: RecordingChunk): boolean => {
    if (options.connected && !options.connected()) return false;
    chunks.push(message);
    const have = held.get(message.connection_id) ?? Buffer.alloc(0);
    const data = Buffer.from(message.data);
    const end = message.offset + data.length;
    if (message.offset <= have.length && end > have.length) {
      held.set(
        message.connection_id,
        Buffer.concat([have, data.subarray(have.length - message.offset)]),
      );
    }
    const size = held.get(message.connection_id)?.length ?? 0;
    setImmediate(() =>
      recordings?.onAck({
        connection_id: message.connection_id,
        size,
        refused: options.refuse ?? false,
      }),
    );
    return true;
  };
  return {
    held,
    chunks,
    send,
    attach: (r: Recordings) => (recordings = r),
  };
}

const dirs: string[] = [];
const open: Recordings[] = [];
afterEach(() => {
  for (const r of open.splice(0)) r.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function dataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-rec-'));
  dirs.push(d);
  return d;
}
function start(dir: string, server: ReturnType<typeof fakeServer>, maxBytes?: number): Recordings {
  const r = createRecordings(dir, server.send, silentLogger, maxBytes);
  server.attach(r);
  open.push(r);
  return r;
}

/**
 * What is left in a spool folder, besides the empty blanks kept for later spools
 * (spool-blanks.ts): those must hold no byte of anything.
 */
function spoolLeft(spool: string): string[] {
  const names = fs.readdirSync(spool);
  for (const name of names.filter((n) => n.startsWith('.blank-'))) {
    expect(fs.statSync(path.join(spool, name)).size).toBe(0);
  }
  return names.filter((n) => !n.startsWith('.blank-'));
}

/** Writes `text` as a session's output and closes the session. */
async function outputAndClose(
  session: ReturnType<Recordings['open']>,
  text: string,
): Promise<void> {
  const tap = session.channel({ cols: 80, rows: 24, term: 'xterm' }, { input: false });
  tap.output(Buffer.from(text));
  tap.end();
  await session.close();
}

describe('session recordings', () => {
  it('is idle only once the uploaded spool file is deleted', async () => {
    const dir = dataDir();
    const server = fakeServer();
    const recordings = start(dir, server);
    await outputAndClose(
      recordings.open(8, () => undefined),
      'done\r\n',
    );
    // The first moment the uploader says so, the file must already be gone.
    while (!(await recordings.idle(0))) await new Promise((r) => setImmediate(r));
    expect(spoolLeft(recordingSpool(dir))).toEqual([]);
  });

  it('empties an uploaded spool and renames it into place for the next session', async () => {
    const dir = dataDir();
    const server = fakeServer();
    const recordings = start(dir, server);
    await outputAndClose(
      recordings.open(21, () => undefined),
      'the first session\r\n',
    );
    expect(await recordings.idle(5000)).toBe(true);
    const spool = recordingSpool(dir);
    const [blank] = fs.readdirSync(spool);
    expect(blank).toMatch(/^\.blank-\d+-\d+$/);
    const inode = fs.statSync(path.join(spool, blank!)).ino;

    const second = recordings.open(22, () => undefined);
    // The blank became the new spool (the same file, so no new file was made)…
    expect(fs.statSync(path.join(spool, '22.cast')).ino).toBe(inode);
    await outputAndClose(second, 'the second\r\n');
    expect(await recordings.idle(5000)).toBe(true);
    // …and it held nothing of the first recording.
    const text = server.held.get(22)!.toString('utf8');
    expect(text).toContain('the second');
    expect(text).not.toContain('the first session');
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ version: 2 });
  });

  it('removes the blanks a previous run left', async () => {
    const dir = dataDir();
    const spool = recordingSpool(dir);
    fs.mkdirSync(spool, { recursive: true });
    fs.writeFileSync(path.join(spool, '.blank-1-0'), '');
    start(dir, fakeServer());
    expect(fs.readdirSync(spool)).toEqual([]);
  });

  it('spools asciicast v2 and uploads every byte, then drops the spool', async () => {
    const dir = dataDir();
    const server = fakeServer();
    const recordings = start(dir, server);
    let failed = false;
    const session = recordings.open(7, () => (failed = true));
    const tap = session.channel({ cols: 100, rows: 30, term: 'xterm' }, { input: true });
    tap.output(Buffer.from('hello '));
    // A UTF-8 character split across two reads is kept whole.
    const han = Buffer.from('中', 'utf8');
    tap.output(han.subarray(0, 1));
    tap.output(han.subarray(1));
    tap.input(Buffer.from('ls\r'));
    tap.resize(120, 40);
    tap.end();
    await session.close();
    expect(await recordings.idle(5000)).toBe(true);
    expect(failed).toBe(false);
    expect(spoolLeft(recordingSpool(dir))).toEqual([]);

    const lines = server.held.get(7)!.toString('utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      version: 2,
      width: 100,
      height: 30,
      env: { TERM: 'xterm' },
    });
    const events = lines.slice(1).map((l) => JSON.parse(l) as [number, string, string]);
    expect(events.map((e) => [e[1], e[2]])).toEqual([
      ['o', 'hello '],
      ['o', '中'],
      ['i', 'ls\r'],
      ['r', '120x40'],
    ]);
  });

  it('uploads what a previous run left in the spool, from the size the server holds', async () => {
    const dir = dataDir();
    const spool = recordingSpool(dir);
    fs.mkdirSync(spool, { recursive: true });
    const cast = '{"version":2,"width":80,"height":24}\n[0.5, "o", "left over"]\n';
    fs.writeFileSync(path.join(spool, '42.cast'), cast);
    fs.writeFileSync(path.join(spool, 'not-a-recording.txt'), 'x');
    const server = fakeServer();
    // The server already holds the header (the first run's upload before it died).
    server.held.set(42, Buffer.from(cast.slice(0, cast.indexOf('\n') + 1)));
    const recordings = start(dir, server);
    recordings.onConnected();
    expect(await recordings.idle(5000)).toBe(true);
    expect(server.held.get(42)!.toString()).toBe(cast);
    expect(spoolLeft(spool)).toEqual(['not-a-recording.txt']);
  });

  it('recovers what the log filters held when the gateway died, hidden where it must be', async () => {
    const dir = dataDir();
    const server = fakeServer({ connected: () => false });
    const first = start(dir, server);
    const session = first.open(9, () => undefined, logFilterMatcher(['secret-token']));
    const tap = session.channel({ cols: 80, rows: 24 }, { input: true });
    // A prompt and a half-typed line are held (a condition may start at their end) ...
    tap.output(Buffer.from('ok\r\n$ '));
    tap.input(Buffer.from('echo secret-to'));
    // ... longer than a flush period: the sidecar has them now.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const spool = recordingSpool(dir);
    // What the disk holds at this moment is what a SIGKILL would leave: copy it aside.
    const crashed = dataDir();
    fs.cpSync(spool, recordingSpool(crashed), { recursive: true });
    expect(spoolLeft(recordingSpool(crashed)).sort()).toEqual(['9.cast', '9.cast.held']);
    await session.close();
    // On close every held line is released into the spool, and the sidecar goes.
    expect(spoolLeft(spool)).toEqual(['9.cast']);

    const again = fakeServer();
    const restarted = start(crashed, again);
    restarted.onConnected();
    expect(await restarted.idle(5000)).toBe(true);
    const lines = again.held.get(9)!.toString('utf8').trimEnd().split('\n');
    const events = lines.slice(1).map((l) => JSON.parse(l) as [number, string, string]);
    expect(events.map((e) => [e[1], e[2]])).toEqual([
      ['o', 'ok\r\n'],
      ['o', '$ '],
      ['i', 'echo '], // released after its hold
      ['i', 'secret-to'], // kept back as a condition's possible start: from the sidecar
    ]);
    expect(spoolLeft(recordingSpool(crashed))).toEqual([]);
  });

  it('drops a sidecar that does not follow the spool (a write it does not know of)', async () => {
    const dir = dataDir();
    const first = start(dir, fakeServer({ connected: () => false }));
    const session = first.open(10, () => undefined, logFilterMatcher(['secret-token']));
    session.channel({ cols: 80, rows: 24 }, { input: true }).input(Buffer.from('cat secret-tok'));
    await new Promise((resolve) => setTimeout(resolve, 700));
    const stale = dataDir();
    fs.cpSync(recordingSpool(dir), recordingSpool(stale), { recursive: true });
    await session.close();
    fs.appendFileSync(path.join(recordingSpool(stale), '10.cast'), '[0.9, "o", "later"]\n');

    const server = fakeServer();
    const restarted = start(stale, server);
    restarted.onConnected();
    expect(await restarted.idle(5000)).toBe(true);
    const text = server.held.get(10)!.toString('utf8');
    const events = text
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as unknown[]);
    expect(events.map((e) => e.slice(1))).toEqual([
      ['i', 'cat '],
      ['o', 'later'],
    ]);
    expect(spoolLeft(recordingSpool(stale))).toEqual([]);
  });

  it('sends a busy live session at most about once a second, and the rest when it ends', async () => {
    const dir = dataDir();
    const server = fakeServer();
    const recordings = start(dir, server);
    const session = recordings.open(5, () => undefined);
    const tap = session.channel({ cols: 80, rows: 24 }, { input: false });
    // 2.2 s of output, a line every 20 ms.
    const began = Date.now();
    for (let i = 0; i < 110; i++) {
      tap.output(Buffer.from(`line ${i}\r\n`));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const live = server.chunks.length;
    expect(live).toBeGreaterThanOrEqual(1); // it streams while the session runs …
    // … about once a second (it was every pump, twice a second: 4 in 2.2 s).
    expect(live).toBeLessThanOrEqual(Math.floor((Date.now() - began) / 1000) + 1);
    await session.close();
    expect(await recordings.idle(5000)).toBe(true);
    expect(server.held.get(5)!.toString()).toContain('line 109');
  });

  it('keeps the spool while the channel is down, and sends it once connected', async () => {
    const dir = dataDir();
    let up = false;
    const server = fakeServer({ connected: () => up });
    const recordings = start(dir, server);
    const session = recordings.open(3, () => undefined);
    // No pty: the output is recorded with the CR a terminal would have added.
    session.channel(undefined, { input: false }).output(Buffer.from('while down\nnext\r\n'));
    await session.close();
    expect(await recordings.idle(700)).toBe(false);
    expect(fs.existsSync(path.join(recordingSpool(dir), '3.cast'))).toBe(true);
    up = true;
    recordings.onConnected();
    expect(await recordings.idle(5000)).toBe(true);
    expect(server.held.get(3)!.toString()).toContain('"while down\\r\\nnext\\r\\n"');
  });

  it('stops at the size limit with a note, and the session goes on', async () => {
    const dir = dataDir();
    const server = fakeServer();
    const recordings = start(dir, server, 4096);
    let failed = false;
    const session = recordings.open(11, () => (failed = true));
    const tap = session.channel(undefined, { input: false });
    for (let i = 0; i < 400; i++) tap.output(Buffer.from(`line ${i}\n`));
    await session.close();
    expect(await recordings.idle(5000)).toBe(true);
    const text = server.held.get(11)!.toString();
    expect(text.length).toBeLessThan(4096 + 200);
    expect(text).toContain('line 0');
    expect(text).not.toContain('line 399');
    expect(text.trimEnd().split('\n').at(-1)).toContain('stopped at its size limit');
    expect(failed).toBe(false);
  });

  it('records a data stream (an exec without a pty) up to its limit, then a note', async () => {
    const dir = dataDir();
    const server = fakeServer();
    const recordings = start(dir, server);
    const session = recordings.open(12, () => undefined);
    const stream = session.channel(undefined, { input: false, stream: true });
    // NUL bytes are the worst case: six bytes stored (\u0000) for each.
    const chunk = Buffer.alloc(32 * 1024);
    let tapped = 0;
    while (stream.output(chunk)) tapped++;
    expect(tapped).toBeLessThan(8); // about 1 MiB stored of 32 KiB chunks × 6
    expect(stream.output(chunk)).toBe(false); // and it stays closed
    // Another channel of the session, a terminal, is still recorded.
    const shell = session.channel({ cols: 80, rows: 24 }, { input: true });
    expect(shell.output(Buffer.from('after the stream'))).toBe(true);
    await session.close();
    expect(await recordings.idle(5000)).toBe(true);
    const text = server.held.get(12)!.toString();
    expect(Buffer.byteLength(text)).toBeGreaterThan(STREAM_RECORD_BYTES - 1024);
    expect(Buffer.byteLength(text)).toBeLessThan(STREAM_RECORD_BYTES + 1024);
    const lines = text.trimEnd().split('\n');
    expect(lines.at(-2)).toContain('the rest of this output was not recorded');
    expect(lines.at(-1)).toContain('after the stream');
    for (const line of lines) JSON.parse(line); // every line whole
  });

  it('drops a recording the server refuses', async () => {
    const dir = dataDir();
    const server = fakeServer({ refuse: true });
    const recordings = start(dir, server);
    const session = recordings.open(9, () => undefined);
    session.channel(undefined, { input: false }).output(Buffer.from('x'));
    await session.close();
    expect(await recordings.idle(5000)).toBe(true);
    expect(spoolLeft(recordingSpool(dir))).toEqual([]);
  });

  it('ends the session when its spool cannot be written (fail closed)', async () => {
    const dir = dataDir();
    const recordings = start(dir, fakeServer());
    fs.rmSync(recordingSpool(dir), { recursive: true });
    const failed = new Promise<true>((resolve) => recordings.open(5, () => resolve(true)));
    expect(await failed).toBe(true);
  });

  it('uploads a short session’s log from memory without ever making a file', async () => {
    const dir = dataDir();
    const server = fakeServer();
    const recordings = start(dir, server);
    const text = '{"statement":"SELECT 1"}\n';
    recordings.finishFromMemory(11, Buffer.from(text), Date.now() + 250);
    expect(spoolLeft(recordingSpool(dir))).toEqual([]);
    expect(await recordings.idle(5000)).toBe(true);
    expect(server.held.get(11)!.toString()).toBe(text);
    expect(spoolLeft(recordingSpool(dir))).toEqual([]);
  });

  it('spools a log from memory that the server does not take in time, and sends it later', async () => {
    const dir = dataDir();
    let up = false;
    const server = fakeServer({ connected: () => up });
    const recordings = start(dir, server);
    const text = '{"statement":"SELECT 2"}\n';
    recordings.finishFromMemory(12, Buffer.from(text), Date.now() + 100);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.readFileSync(path.join(recordingSpool(dir), '12.cast'), 'utf8')).toBe(text);
    up = true;
    recordings.onConnected();
    expect(await recordings.idle(5000)).toBe(true);
    expect(server.held.get(12)!.toString()).toBe(text);
    expect(spoolLeft(recordingSpool(dir))).toEqual([]);
  });

  it('writes what only memory holds to the spool when the gateway stops', async () => {
    const dir = dataDir();
    const recordings = start(dir, fakeServer({ connected: () => false }));
    recordings.finishFromMemory(13, Buffer.from('line\n'), Date.now() + 60_000);
    recordings.stop();
    expect(fs.readFileSync(path.join(recordingSpool(dir), '13.cast'), 'utf8')).toBe('line\n');
  });

  it('uploads a failed spool’s bytes, then the tail its file did not take, then drops it', async () => {
    const dir = dataDir();
    const server = fakeServer();
    const recordings = start(dir, server);
    const spool = path.join(recordingSpool(dir), '14.cast');
    // What the file took, and past it what a torn write left: the tail replaces that.
    fs.writeFileSync(spool, 'head\ntorn');
    recordings.track(14);
    recordings.finishWithTail(14, Buffer.from('tail\n'), 'head\n'.length);
    expect(await recordings.idle(5000)).toBe(true);
    expect(server.held.get(14)!.toString()).toBe('head\ntail\n');
    expect(spoolLeft(recordingSpool(dir))).toEqual([]);
  });

  it('writes a failed spool’s tail into its file when the gateway stops', async () => {
    const dir = dataDir();
    const recordings = start(dir, fakeServer({ connected: () => false }));
    const spool = path.join(recordingSpool(dir), '15.cast');
    fs.writeFileSync(spool, 'head\ntorn');
    recordings.finishWithTail(15, Buffer.from('tail\n'), 'head\n'.length);
    recordings.stop();
    expect(fs.readFileSync(spool, 'utf8')).toBe('head\ntail\n');
  });
});
