/**
 * Session setup: the wall time of `ssh -o BatchMode=yes … true` one at a time, and connections
 * per second with 32 of them started at once, on each path. For the gateway, setup includes the
 * code check through the control channel and the gateway's own login to the target.
 */
import { median, say, timed } from './lib/proc';
import type { PathName, Stack } from './lib/stack';
import { PATHS } from './bulk';

export interface SetupResult {
  /** Sequential setups per repetition. */
  sequential: number;
  parallel: number;
  /** Median setup seconds, one value per repetition (each the median of `sequential` runs). */
  setupSeconds: Record<PathName, number[]>;
  /** Connections per second with `parallel` at once, one value per repetition. */
  perSecond: Record<PathName, number[]>;
  /** Key exchange algorithms seen in `ssh -v` (the jump path shows both hops when logged). */
  kex: Record<PathName, string[]>;
}

async function once(stack: Stack, p: PathName): Promise<number> {
  const r = await timed('ssh', [...stack.ssh(p, ['-o', 'BatchMode=yes']), 'true'], {
    timeoutMs: 120_000,
  });
  if (r.code !== 0) throw new Error(`ssh ${p} true: ${r.code} ${r.stderr}`);
  return r.seconds;
}

export async function runSetup(stack: Stack, reps: number): Promise<SetupResult> {
  const sequential = 10;
  const parallel = 32;
  const result: SetupResult = {
    sequential,
    parallel,
    setupSeconds: { gw: [], direct: [], viajump: [] },
    perSecond: { gw: [], direct: [], viajump: [] },
    kex: { gw: [], direct: [], viajump: [] },
  };
  for (const p of PATHS) await once(stack, p); // warm-up
  // The key exchange each path negotiates (OpenSSH's default is post-quantum sntrup761 when
  // both ends offer it; the gateway's ssh2 does not), since it weighs on setup time.
  for (const p of PATHS) {
    const v = await timed('ssh', [...stack.ssh(p, ['-v']), 'true']);
    result.kex[p] = [...v.stderr.matchAll(/kex: algorithm: (\S+)/g)].map((m) => m[1]!);
  }
  for (let rep = 1; rep <= reps; rep++) {
    for (const p of PATHS) {
      const times: number[] = [];
      for (let i = 0; i < sequential; i++) times.push(await once(stack, p));
      result.setupSeconds[p].push(median(times));
      const start = process.hrtime.bigint();
      await Promise.all(Array.from({ length: parallel }, () => once(stack, p)));
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      result.perSecond[p].push(parallel / seconds);
      say(
        `setup ${p} rep ${rep}: ${(median(times) * 1000).toFixed(0)} ms, ` +
          `${(parallel / seconds).toFixed(1)} conn/s`,
      );
    }
  }
  return result;
}
