// The target's side read as it passes, however TCP cuts it: the client gets the same bytes
// (a replaced message in its place), and the handler hears of every message once, in order.
import { describe, expect, it } from 'vitest';
import { ServerStream } from './server-stream';

const message = (type: string, body: string): Buffer => {
  const b = Buffer.from(body, 'utf8');
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(b.length + 4, 1);
  return Buffer.concat([head, b]);
};

const REPLACEMENT = message('E', 'replaced\0');

/** A SELECT's reply: description, rows, tag, an error (replaced), ready; then a parameter. */
const reply = Buffer.concat([
  message('T', 'c\0'.padEnd(40, 'x')),
  ...Array.from({ length: 20 }, (_, i) => message('D', `row ${i}`)),
  message('C', 'SELECT 20\0'),
  message('E', 'SERROR\0Mboom\0\0'),
  message('Z', 'I'),
  message('S', 'client_encoding\0UTF8\0'),
  message('N', ''),
]);
const expected = Buffer.concat([
  reply.subarray(0, reply.indexOf(message('E', 'SERROR\0Mboom\0\0'))),
  REPLACEMENT,
  message('Z', 'I'),
  message('S', 'client_encoding\0UTF8\0'),
  message('N', ''),
]);

function run(chunks: Buffer[]): { bytes: Buffer; seen: string[] } {
  const seen: string[] = [];
  const stream = new ServerStream({
    onPassed: (type) => void seen.push(String.fromCharCode(type)),
    onHeld: (type, buf, start, end) => {
      seen.push(`${String.fromCharCode(type)}:${buf.toString('utf8', start + 5, end)}`);
      return type === 'E'.charCodeAt(0) ? REPLACEMENT : undefined;
    },
  });
  const out = chunks.flatMap((chunk) => stream.feed(chunk));
  expect(stream.atBoundary).toBe(true);
  return { bytes: Buffer.concat(out), seen };
}

describe('the postgresql server stream', () => {
  const whole = run([reply]);

  it('passes a reply in one chunk, with the replaced message in its place', () => {
    expect(whole.bytes.equals(expected)).toBe(true);
    expect(whole.seen).toEqual([
      'T',
      ...Array.from({ length: 20 }, () => 'D'),
      'C:SELECT 20\0',
      'E:SERROR\0Mboom\0\0',
      'Z:I',
      'S:client_encoding\0UTF8\0',
      'N',
    ]);
  });

  it('gives the same a byte at a time and cut anywhere', () => {
    const bytewise = run([...reply].map((b) => Buffer.from([b])));
    expect(bytewise.bytes.equals(expected)).toBe(true);
    expect(bytewise.seen).toEqual(whole.seen);
    let state = 1;
    for (let round = 0; round < 50; round++) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < reply.length;) {
        state = (state * 1103515245 + 12345) & 0x7fffffff;
        const n = 1 + (state % 23);
        chunks.push(reply.subarray(at, at + n));
        at += n;
      }
      const cut = run(chunks);
      expect(cut.bytes.equals(expected)).toBe(true);
      expect(cut.seen).toEqual(whole.seen);
    }
  });

  it('passes a chunk of unchanged messages on as that chunk, in one piece', () => {
    const stream = new ServerStream({ onPassed: () => undefined, onHeld: () => undefined });
    const chunk = Buffer.concat([message('D', 'a'), message('C', 'SELECT 1\0'), message('Z', 'I')]);
    const out = stream.feed(chunk);
    expect(out).toHaveLength(1);
    expect(out[0]).toBe(chunk);
  });
});
