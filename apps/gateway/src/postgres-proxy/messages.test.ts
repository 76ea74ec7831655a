/**
 * The message reader under a large message arriving in small chunks (a Bind with a big value, a
 * long COPY row): the chunks are joined once, when the message is whole, not at every chunk
 * (which cost the square of the size and held the event loop for minutes at 64 MB).
 */
import { afterEach, expect, it, vi } from 'vitest';
import { MessageReader, ProtocolError } from './messages';

afterEach(() => vi.restoreAllMocks());

it('joins a message’s chunks once, when it is whole', () => {
  const reader = new MessageReader(64 * 1024 * 1024);
  const size = 8 * 1024 * 1024;
  const whole = Buffer.alloc(size + 1, 0x61);
  whole[0] = 0x51;
  whole.writeInt32BE(size, 1);
  const concat = vi.spyOn(Buffer, 'concat');
  let got;
  for (let at = 0; at < whole.length; at += 16 * 1024) {
    reader.push(whole.subarray(at, at + 16 * 1024));
    got = reader.next() ?? got;
  }
  expect(got?.raw.equals(whole)).toBe(true);
  expect(concat.mock.calls.length).toBeLessThanOrEqual(1);
});

it('reads a header split over chunks, and refuses a size beyond its limit', () => {
  const reader = new MessageReader(1024);
  reader.push(Buffer.from([0x51, 0x00]));
  expect(reader.next()).toBeUndefined();
  reader.push(Buffer.from([0x00, 0x10, 0x00]));
  expect(() => reader.next()).toThrow(ProtocolError);
});
