import { describe, expect, it } from 'vitest';
import { RECORDING_CHUNK_BYTES } from './control';
import {
  decodeRecordingFrame,
  encodeRecordingFrame,
  RECORDING_FRAME_HEADER,
  RECORDING_FRAME_KIND,
} from './recording-frame';

/** ASCII text as bytes (the contract's build has neither Buffer nor TextEncoder). */
const bytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('recording frames', () => {
  it('carries a chunk whole, with ids and offsets past 32 bits', () => {
    const data = bytes('{"time":"2026-11-26T05:00:00.000Z","statement":"SELECT 1"}\n');
    for (const [id, offset] of [
      [1, 0],
      [42, 123_456],
      [2 ** 40 + 3, 2 ** 33 + 7],
    ] as const) {
      const frame = encodeRecordingFrame({ connection_id: id, offset, data }, 2);
      expect(frame.length).toBe(RECORDING_FRAME_HEADER + data.length);
      const chunk = decodeRecordingFrame(frame);
      expect(chunk).toEqual({ v: 2, connection_id: id, offset, data });
    }
  });

  it('reads a frame lying inside a larger buffer (as a socket hands it over)', () => {
    const frame = encodeRecordingFrame({ connection_id: 9, offset: 5, data: bytes('abc') }, 2);
    const larger = new Uint8Array(frame.length + 10);
    larger.set(frame, 7);
    const chunk = decodeRecordingFrame(larger.subarray(7, 7 + frame.length));
    expect(chunk?.connection_id).toBe(9);
    expect(chunk?.data).toEqual(bytes('abc'));
  });

  it('refuses what is not a chunk it can take', () => {
    const good = encodeRecordingFrame({ connection_id: 3, offset: 0, data: bytes('x') }, 2);
    expect(decodeRecordingFrame(good.subarray(0, RECORDING_FRAME_HEADER - 1))).toBeUndefined();
    const otherKind = good.slice();
    otherKind[0] = RECORDING_FRAME_KIND + 1;
    expect(decodeRecordingFrame(otherKind)).toBeUndefined();
    const noConnection = good.slice();
    noConnection.fill(0, 2, 8);
    expect(decodeRecordingFrame(noConnection)).toBeUndefined();
    const tooLarge = new Uint8Array(RECORDING_FRAME_HEADER + RECORDING_CHUNK_BYTES + 1);
    tooLarge.set(good.subarray(0, RECORDING_FRAME_HEADER));
    expect(decodeRecordingFrame(tooLarge)).toBeUndefined();
  });

  it('will not encode what the header cannot hold', () => {
    const data = bytes('x');
    expect(() => encodeRecordingFrame({ connection_id: 0, offset: 0, data }, 2)).toThrow();
    expect(() => encodeRecordingFrame({ connection_id: 2 ** 48, offset: 0, data }, 2)).toThrow();
    expect(() => encodeRecordingFrame({ connection_id: 1, offset: -1, data }, 2)).toThrow();
  });
});
