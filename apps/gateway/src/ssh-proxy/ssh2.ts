/**
 * ssh2, loaded so that its packet padding comes from a pool of random bytes. ssh2 fills the
 * 4 to 19 padding bytes of every packet it sends with `crypto.randomFillSync`, one call per
 * packet: a trip into OpenSSL (a job object, a getpid for fork safety) on the path of every
 * keystroke, twice. {@link poolRandomFill} hands out bytes of one 64 KiB `randomFillSync` at a
 * time instead: the same CSPRNG, each byte used once. Measured in an ssh2 relay with a key
 * every 50 ms, from a channel's data to the write on the other socket: 82 and 48 µs (median,
 * the two directions) with the stock call, 55 and 33 µs with the pool.
 *
 * ssh2 takes `randomFillSync` from the crypto module once, when its protocol code is first
 * loaded, so the pool is put in place for that load only and the crypto module is left as it
 * was. Every module of the gateway takes ssh2's runtime value from here; when something else
 * in the process loaded ssh2 first (the server's key parsing in a test), ssh2 keeps the
 * stock function, which is only slower.
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type ssh2Module from 'ssh2';

const POOL_BYTES = 64 * 1024;
/** Requests larger than this go straight to the crypto module. */
const POOLED_MAX = 256;

let pool = Buffer.alloc(0);
let used = 0;

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
  return buffer;
}

function loadWithPooledPadding(): typeof ssh2Module {
  const require = createRequire(import.meta.url);
  // The crypto module's CommonJS exports, which ssh2 destructures when it loads.
  const cryptoExports = require('node:crypto') as { randomFillSync: typeof poolRandomFill };
  const stock = cryptoExports.randomFillSync;
  cryptoExports.randomFillSync = poolRandomFill;
  try {
    return require('ssh2') as typeof ssh2Module;
  } finally {
    cryptoExports.randomFillSync = stock;
  }
}

const ssh2 = loadWithPooledPadding();
export default ssh2;
