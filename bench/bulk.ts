/**
 * Bulk throughput both ways on the three paths: a download (`head -c N /dev/zero` on the target,
 * read into /dev/null) and an upload (`head -c N /dev/zero` piped into `cat > /dev/null` on the
 * target), repeated, with the gateway's CPU seconds over the gateway runs. The paths take turns
 * within each repetition so that a slow spell of the shared machine hits all of them alike.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { cpuSeconds, median, say, settle, timed } from './lib/proc';
import type { PathName, Stack } from './lib/stack';

export const PATHS: PathName[] = ['gw', 'direct', 'viajump'];

export interface BulkResult {
  bytes: number;
  reps: number;
  /** MB/s (10^6 bytes per second), per direction and path: every repetition. */
  runs: Record<'download' | 'upload', Record<PathName, number[]>>;
  /** Gateway CPU seconds per GiB moved through it, per direction: every repetition. */
  gatewayCpuPerGiB: Record<'download' | 'upload', number[]>;
}

function download(stack: Stack, pathName: PathName, bytes: number): Promise<number> {
  return timed('ssh', [...stack.ssh(pathName), `head -c ${bytes} /dev/zero`], {
    stdio: ['ignore', fs.openSync('/dev/null', 'w'), 'pipe'],
  }).then((r) => {
    if (r.code !== 0) throw new Error(`download via ${pathName}: ${r.code} ${r.stderr}`);
    return r.seconds;
  });
}

function upload(stack: Stack, pathName: PathName, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const head = spawn('head', ['-c', String(bytes), '/dev/zero'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const ssh = spawn('ssh', [...stack.ssh(pathName), 'cat > /dev/null'], {
      stdio: [head.stdout, 'ignore', 'pipe'],
    });
    let stderr = '';
    ssh.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    ssh.on('error', reject);
    ssh.on('close', (code) => {
      if (code !== 0) reject(new Error(`upload via ${pathName}: ${code} ${stderr}`));
      else resolve(Number(process.hrtime.bigint() - start) / 1e9);
    });
  });
}

export async function runBulk(stack: Stack, bytes: number, reps: number): Promise<BulkResult> {
  const result: BulkResult = {
    bytes,
    reps,
    runs: {
      download: { gw: [], direct: [], viajump: [] },
      upload: { gw: [], direct: [], viajump: [] },
    },
    gatewayCpuPerGiB: { download: [], upload: [] },
  };
  for (const direction of ['download', 'upload'] as const) {
    const move = direction === 'download' ? download : upload;
    // One unmeasured warm-up per path (JIT, page cache, first handshake).
    for (const p of PATHS) await move(stack, p, Math.min(bytes, 16 * 1024 * 1024));
    for (let rep = 1; rep <= reps; rep++) {
      for (const p of PATHS) {
        const cpuBefore = cpuSeconds(stack.gatewayPid);
        const seconds = await move(stack, p, bytes);
        // The recording of a gateway exec is uploaded after the transfer: count it too.
        if (p === 'gw') await settle(stack.gatewayPid);
        const cpu = cpuSeconds(stack.gatewayPid) - cpuBefore;
        const mbps = bytes / seconds / 1e6;
        result.runs[direction][p].push(mbps);
        if (p === 'gw') result.gatewayCpuPerGiB[direction].push(cpu / (bytes / 2 ** 30));
        say(`bulk ${direction} ${p} rep ${rep}: ${mbps.toFixed(1)} MB/s`);
      }
    }
  }
  return result;
}

export function bulkMedians(
  r: BulkResult,
): Record<'download' | 'upload', Record<PathName, number>> {
  const pick = (d: 'download' | 'upload'): Record<PathName, number> => ({
    gw: median(r.runs[d].gw),
    direct: median(r.runs[d].direct),
    viajump: median(r.runs[d].viajump),
  });
  return { download: pick('download'), upload: pick('upload') };
}
