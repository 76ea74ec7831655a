/**
 * How the database part runs a throughput tool on many paths: each path is smoke-tested first
 * (a failure is kept as that path's error, never a zero), then every workload runs on every
 * live path once per repetition, the paths taking turns in an order that rotates with the
 * repetition. Also the cleanup list the part's processes and data are registered on.
 */
import { say } from '../lib/proc';

/** One path of a throughput benchmark: how it is reached, and why it was not measured. */
export interface DbPath {
  name: string;
  describe: string;
  error?: string;
}

/** A throughput benchmark: per workload and path, one figure per repetition. */
export interface Throughput {
  unit: string;
  paths: DbPath[];
  workloads: string[];
  runs: Record<string, Record<string, number[]>>;
  /** Runs that failed during timing (workload, path, error), the first of each pair. */
  runErrors: string[];
  commands: string[];
}

/** Cleanup steps, run newest first; each one's failure is logged and the rest still run. */
export class Cleanup {
  private steps: { name: string; run: () => Promise<void> }[] = [];
  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }
  async runAll(): Promise<void> {
    for (const s of this.steps.reverse()) {
      await s.run().catch((e: unknown) => say(`db: stop ${s.name}: ${String(e)}`));
    }
    this.steps = [];
  }
}

export const firstLine = (e: unknown): string =>
  String(e instanceof Error ? e.message : e)
    .split('\n')[0]!
    .slice(0, 300);

/** Paths in a different order each repetition, so that none always goes first. */
export const rotated = <T>(items: T[], rep: number): T[] => {
  const k = rep % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
};

export interface Runner<W, E> {
  workloads: W[];
  key: (w: W) => string;
  smoke: (e: E) => Promise<unknown>;
  run: (e: E, w: W) => Promise<number>;
  command: (e: E, w: W) => string;
}

/** Smoke-tests every path, then times each workload on each (paths taking turns). */
export async function throughput<W, E>(
  label: string,
  unit: string,
  endpoints: { path: DbPath; endpoint?: E }[],
  runner: Runner<W, E>,
  reps: number,
): Promise<Throughput> {
  const result: Throughput = {
    unit,
    paths: endpoints.map((p) => p.path),
    workloads: runner.workloads.map(runner.key),
    runs: {},
    runErrors: [],
    commands: [],
  };
  const live: { path: DbPath; endpoint: E }[] = [];
  for (const p of endpoints) {
    if (p.path.error || !p.endpoint) continue;
    try {
      await runner.smoke(p.endpoint);
      live.push({ path: p.path, endpoint: p.endpoint });
    } catch (e) {
      p.path.error = `smoke run failed: ${firstLine(e)}`;
      say(`db: ${label} ${p.path.name}: ${p.path.error}`);
    }
  }
  for (const p of live) {
    for (const w of runner.workloads) result.commands.push(runner.command(p.endpoint, w));
  }
  const failed = new Set<string>();
  for (let rep = 0; rep < reps; rep++) {
    for (const w of runner.workloads) {
      const key = runner.key(w);
      const row = (result.runs[key] ??= {});
      const line: string[] = [];
      for (const p of rotated(live, rep)) {
        try {
          const v = await runner.run(p.endpoint, w);
          (row[p.path.name] ??= []).push(v);
          line.push(`${p.path.name} ${v.toFixed(0)}`);
        } catch (e) {
          line.push(`${p.path.name} failed`);
          const id = `${key} / ${p.path.name}`;
          if (!failed.has(id)) result.runErrors.push(`${id}: ${firstLine(e)}`);
          failed.add(id);
        }
      }
      say(`db: ${label} rep ${rep + 1} ${key}: ${line.join(', ')} ${unit}`);
    }
  }
  return result;
}

/**
 * A command as the report shows it: a member's code (the gateway path's user name) is a
 * credential, so it reads CODE (codes are 20 characters of a-z and 2-7, contract CODE_PATTERN).
 */
export function withoutCodes(command: string): string {
  return command.replace(/(?<![a-z0-9])[a-z2-7]{20}(?![a-z0-9])/g, 'CODE');
}
