/**
 * The pool behind ssh2's packet padding (see ssh2.ts): {@link poolRandomFill}, and the two
 * steps that lend it to ssh2 while ssh2 loads and then give the crypto module its own back.
 */
import crypto from 'node:crypto';

const POOL_BYTES = 64 * 1024;
/** Requests larger than this go straight to the crypto module. */
const POOLED_MAX = 256;

let pool = Buffer.alloc(0);
let used = 0;
let served = 0;

/** Bytes the pool has handed out so far (a check that ssh2 draws from it). */
export const poolBytesServed = (): number => served;

/** `crypto.randomFillSync(buffer, offset, size)` for ssh2's padding, served from a pool. */
export function poolRandomFill<T extends NodeJS.ArrayBufferView>(
  buffer: T,
  offset = 0,
  size?: number,
): T {
  const view = Buffer.isBuffer(buffer)
    ? buffer
    : Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const length = size ?? view.length - offset;
  if (length > POOLED_MAX || offset < 0 || offset + length > view.length) {
    // Large, or out of range: the crypto module fills it (and throws as it would).
    return crypto.randomFillSync(buffer, offset, size);
  }
  if (used + length > pool.length) {
    pool = crypto.randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    used = 0;
  }
  // A loop, not Buffer#copy and #fill: for a padding's few bytes, a call into C++ costs more.
  // Bytes handed out are wiped from the pool: none is ever given twice.
  for (let i = 0; i < length; i++) {
    view[offset + i] = pool[used + i] as number;
    pool[used + i] = 0;
  }
  used += length;
  served += length;
  return buffer;
}

/** The crypto module's own function, while the pool is lent. */
let stock: typeof crypto.randomFillSync | undefined;

/** Puts the pool in the crypto module's exports, where ssh2 takes it when it loads. */
export function lendPool(): void {
  stock ??= crypto.randomFillSync;
  (crypto as { randomFillSync: unknown }).randomFillSync = poolRandomFill;
}

/** Gives the crypto module its own function back (ssh2 keeps the pool it took). */
export function takeBackPool(): void {
  if (stock) crypto.randomFillSync = stock;
  stock = undefined;
}
