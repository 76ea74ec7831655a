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
 * was: modules are evaluated in the order they are imported, so the three imports below lend
 * the pool, load ssh2, and take the pool back (esbuild's bundle keeps that order, and bundles
 * ssh2 as a plain import). Every module of the gateway takes ssh2's runtime value from here;
 * when something else in the process loaded ssh2 first (the server's key parsing in a test),
 * ssh2 keeps the stock function, which is only slower.
 */
// Order matters: see above. ssh2 is CommonJS: Node's ESM loader sees only its default export.
import './ssh2-lend-pool';
import ssh2 from 'ssh2';
import './ssh2-take-back-pool';

export { poolBytesServed, poolRandomFill } from './ssh2-padding';
export default ssh2;
