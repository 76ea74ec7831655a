/**
 * `npm run bench`: every Portcullis benchmark in one run, on loopback, against temporary peers
 * this script starts itself; writes bench/RESULTS.md. Sizes come from the environment (see
 * bench/README.md); BENCH_ONLY=bulk,echo,… runs a subset (RESULTS.md then says which).
 */
import os from 'node:os';
import path from 'node:path';
import { runBulk, type BulkResult } from './bulk';
import { envInt, say } from './lib/proc';
import { startStack } from './lib/stack';

const root = path.resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
  const only = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
  const wants = (name: string): boolean => only.size === 0 || only.has(name);
  const reps = envInt('BENCH_REPS', 5);
  const bytes = envInt('BENCH_BYTES', 2 ** 30);
  say(`${os.cpus().length} cores, Node ${process.version}`);
  const stack = await startStack(root);
  let bulk: BulkResult | undefined;
  try {
    if (wants('bulk')) bulk = await runBulk(stack, bytes, reps);
    console.log(JSON.stringify({ bulk }, null, 2));
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
