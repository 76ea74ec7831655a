/**
 * Process helpers for the bench: run a command and time it, read another process's CPU time
 * and resident memory from /proc (Linux only), and small statistics.
 */
import { execFileSync, spawn, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** A process and its descendants (the gateway and its SSH workers). */
export function processTree(pid: number): number[] {
  const found = [pid];
  for (let i = 0; i < found.length; i++) {
    const p = found[i]!;
    let children = '';
    try {
      children = fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    found.push(...children.trim().split(/\s+/).filter(Boolean).map(Number));
  }
  return found;
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** User plus system CPU seconds a process and its descendants have used so far. */
export function cpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    const stat = readOr(`/proc/${p}/stat`);
    if (!stat) continue;
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis
    // are state, ppid, … with utime and stime as the 12th and 13th of them.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS;
}

/** Resident set size in bytes of a process and its descendants. */
export function rssBytes(pid: number): number {
  let kb = 0;
  for (const p of processTree(pid)) {
    kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(readOr(`/proc/${p}/status`))?.[1] ?? 0);
  }
  return kb * 1024;
}

export interface Timed {
  code: number | null;
  seconds: number;
  stderr: string;
  stdout: Buffer;
}

/** Runs a command to its end and measures its wall-clock time. */
export function timed(
  command: string,
  args: string[],
  options: {
    stdio?: StdioOptions;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    cwd?: string;
  } = {},
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, {
      stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
      cwd: options.cwd,
    });
    let stderr = '';
    const out: Buffer[] = [];
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      resolve({ code, seconds, stderr, stdout: Buffer.concat(out) });
    });
  });
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The q-quantile (0..1) by the nearest-rank method. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function until(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(50);
  }
}

/** Reads a positive integer from the environment, or the default. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** Logs a progress line to stderr (stdout stays free for the results). */
export function say(text: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}

/**
 * Waits until a process goes quiet (under 20 ms of CPU in half a second), so that work it does
 * after a transfer (the recording's upload) is counted with that transfer. Gives up after `ms`.
 */
export async function settle(pid: number, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  let last = cpuSeconds(pid);
  while (Date.now() < end) {
    await sleep(500);
    const now = cpuSeconds(pid);
    if (now - last < 0.02) return;
    last = now;
  }
}

/** Whether something accepts connections on 127.0.0.1:port (within a second). */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The path of a command on PATH, if any. */
export async function which(command: string): Promise<string | undefined> {
  const r = await timed('sh', ['-c', `command -v ${command}`]);
  return r.code === 0 ? r.stdout.toString().trim() : undefined;
}

/**
 * A peer the bench compares against, from Debian (`apt-get install -y PACKAGE` when `command`
 * is missing): installed at bench time, never a dependency of the repository.
 */
export async function ensureDebianCommand(command: string, pkg: string): Promise<string> {
  let bin = await which(command);
  if (!bin) {
    say(`installing ${pkg} (apt-get, for the bench only)`);
    const r = await timed('apt-get', ['install', '-y', pkg], {
      env: { DEBIAN_FRONTEND: 'noninteractive' },
      timeoutMs: 600_000,
    });
    bin = await which(command);
    if (r.code !== 0 || !bin) {
      throw new Error(`apt-get install -y ${pkg} failed (${r.code}): ${r.stderr.slice(-600)}`);
    }
  }
  return bin;
}
