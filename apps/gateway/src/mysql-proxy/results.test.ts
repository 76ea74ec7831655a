// The response tracker reads the target's bytes however TCP cuts them: whole packets in one
// chunk (read in place), packets split across chunks, a byte at a time.
import { describe, expect, it } from 'vitest';
import { errPayload, ER, frame, lenencInt, STATUS } from './packets';
import { ResponseTracker, type Expect, type Result } from './results';

const ok = (rows: number, status: number): Buffer =>
  Buffer.concat([
    Buffer.from([0x00]),
    lenencInt(rows),
    lenencInt(0),
    Buffer.from([status & 0xff, status >> 8, 0, 0]),
  ]);
const eof = (status: number): Buffer => Buffer.from([0xfe, 0, 0, status & 0xff, status >> 8]);

/** Packets numbered from 1, as a server answers a command. */
function response(payloads: Buffer[]): Buffer {
  return Buffer.concat(payloads.map((p, i) => frame(p, i + 1)));
}

const COLUMN = Buffer.from(
  '\x03def\x00\x00\x00\x01c\x00\x0c\x21\x00\x00\x01\x00\xfd\x00\x00\x00\x00',
  'latin1',
);
const row = (i: number): Buffer =>
  Buffer.concat([lenencInt(String(i).length), Buffer.from(String(i))]);

/** A result set of `rows` rows, then (more results) an OK of 3 affected rows. */
function resultSetThenOk(rows: number): Buffer {
  return response([
    lenencInt(1),
    COLUMN,
    eof(STATUS.AUTOCOMMIT),
    ...Array.from({ length: rows }, (_, i) => row(i)),
    eof(STATUS.AUTOCOMMIT | STATUS.MORE_RESULTS_EXISTS),
    ok(3, STATUS.AUTOCOMMIT),
  ]);
}

function track(expect: Expect, chunks: Buffer[]): { results: Result[]; done: number } {
  const seen = { results: [] as Result[], done: 0 };
  const tracker = new ResponseTracker({
    onResult: (r) => seen.results.push(r),
    onDone: () => (seen.done += 1),
    onPrepared: () => undefined,
  });
  tracker.expect(expect);
  for (const chunk of chunks) tracker.feed(chunk);
  return seen;
}

/** `bytes` cut at pseudo-random places (a fixed seed: the same cuts every run). */
function cut(bytes: Buffer, seed: number): Buffer[] {
  const chunks: Buffer[] = [];
  let state = seed;
  for (let at = 0; at < bytes.length;) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    const n = 1 + (state % 9);
    chunks.push(bytes.subarray(at, at + n));
    at += n;
  }
  return chunks;
}

describe('the mysql response tracker', () => {
  const bytes = resultSetThenOk(50);
  const expected = {
    results: [
      { kind: 'rows', rows: 50 },
      { kind: 'ok', rows: 3 },
    ],
    done: 1,
  };

  it('follows a multi-result response in one chunk', () => {
    expect(track('results', [bytes])).toEqual(expected);
  });

  it('follows it a byte at a time and cut anywhere', () => {
    expect(
      track(
        'results',
        [...bytes].map((b) => Buffer.from([b])),
      ),
    ).toEqual(expected);
    for (let seed = 1; seed <= 50; seed++)
      expect(track('results', cut(bytes, seed))).toEqual(expected);
  });

  it('reads an error in the middle of the rows', () => {
    const failing = response([
      lenencInt(1),
      COLUMN,
      eof(STATUS.AUTOCOMMIT),
      row(0),
      row(1),
      errPayload(ER.UNKNOWN, 'Query execution was interrupted'),
    ]);
    const seen = track('results', cut(failing, 7));
    expect(seen.results).toEqual([{ kind: 'error', message: 'Query execution was interrupted' }]);
    expect(seen.done).toBe(1);
  });
});
