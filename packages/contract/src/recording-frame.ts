/**
 * A recording chunk (control.ts `recording_chunk`) as a binary WebSocket frame: the bytes as
 * they are, after a 14-byte header, instead of base64 inside JSON. A busy database session
 * sends a statement log line per statement; as base64 in JSON each byte was encoded, escaped,
 * checked against a pattern and decoded again, which cost both processes more than the bytes
 * themselves. A gateway sends frames only to a server whose welcome says `binary_chunks`; the
 * JSON message stays for older servers.
 *
 * Layout, big-endian:
 *
 *   0       kind ({@link RECORDING_FRAME_KIND})
 *   1       the sender's protocol version (CONTROL_PROTOCOL)
 *   2..7    connection_id, unsigned 48-bit
 *   8..13   offset, unsigned 48-bit
 *   14..    the chunk's bytes, at most RECORDING_CHUNK_BYTES
 */
import { RECORDING_CHUNK_BYTES } from './control';

export const RECORDING_FRAME_KIND = 1;
export const RECORDING_FRAME_HEADER = 14;
const UINT32 = 2 ** 32;
/** The largest id or offset the header holds. */
const UINT48_MAX = 2 ** 48 - 1;

export interface RecordingChunk {
  connection_id: number;
  /** Where the bytes begin in the session's recording. */
  offset: number;
  data: Uint8Array;
}

function setUint48(view: DataView, at: number, value: number): void {
  view.setUint16(at, Math.floor(value / UINT32));
  view.setUint32(at + 2, value % UINT32);
}

function getUint48(view: DataView, at: number): number {
  return view.getUint16(at) * UINT32 + view.getUint32(at + 2);
}

/** The frame for a chunk; throws on what the header cannot hold (a bug, not input). */
export function encodeRecordingFrame(chunk: RecordingChunk, version: number): Uint8Array {
  const { connection_id: id, offset, data } = chunk;
  if (!Number.isSafeInteger(id) || id <= 0 || id > UINT48_MAX) {
    throw new RangeError(`connection id ${id} does not fit a recording frame`);
  }
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > UINT48_MAX) {
    throw new RangeError(`offset ${offset} does not fit a recording frame`);
  }
  const frame = new Uint8Array(RECORDING_FRAME_HEADER + data.length);
  const view = new DataView(frame.buffer);
  view.setUint8(0, RECORDING_FRAME_KIND);
  view.setUint8(1, version);
  setUint48(view, 2, id);
  setUint48(view, 8, offset);
  frame.set(data, RECORDING_FRAME_HEADER);
  return frame;
}

/**
 * Reads a frame; undefined when it is not a recording chunk this side can take (another kind,
 * a short header, no connection, more bytes than a chunk may hold). The data is a view of the
 * frame, not a copy.
 */
export function decodeRecordingFrame(
  frame: Uint8Array,
): (RecordingChunk & { v: number }) | undefined {
  if (frame.length < RECORDING_FRAME_HEADER) return undefined;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.length);
  if (view.getUint8(0) !== RECORDING_FRAME_KIND) return undefined;
  const id = getUint48(view, 2);
  const data = frame.subarray(RECORDING_FRAME_HEADER);
  if (id === 0 || data.length > RECORDING_CHUNK_BYTES) return undefined;
  return { v: view.getUint8(1), connection_id: id, offset: getUint48(view, 8), data };
}
