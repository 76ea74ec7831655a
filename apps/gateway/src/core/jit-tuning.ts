/**
 * V8 tuned for a relay whose hot paths run rarely: a keystroke every so often, not a tight
 * loop. V8 optimizes a function once it has run a budget of bytecode (about 66 KB by
 * default); at one key every 50 ms, ssh2's packet path took minutes to get there, and until
 * then each key ran in baseline code (with --trace-opt, over 400 keys only ssh2's `decrypt`
 * was optimized). A smaller budget optimizes it within the first few hundred keys. Imported
 * first by the gateway's entry points, before ssh2 and the proxies are loaded; setting the
 * flag at run time only changes the budgets V8 hands out from then on, which is all it needs.
 */
import v8 from 'node:v8';

/** Bytecode bytes a function runs before V8 considers optimizing it (V8's default: 67584). */
export const INTERRUPT_BUDGET = 4096;

v8.setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
