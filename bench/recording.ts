/**
 * Recording size and cost. The same terminal output (a generated file of log-like lines with
 * colours, a progress bar and some Chinese text) is shown in a pty session through the gateway
 * (`ssh -tt gw cat FILE`), and the bench compares:
 *   - the bytes the server stores for that session's recording (its store file) with the bytes
 *     the terminal received, and with `asciinema rec -c 'cat FILE'` of the same file;
 *   - the gateway's CPU seconds for the session (recording on: the shipped gateway records
 *     every terminal channel and has no switch to turn it off), and the recorder's own CPU for
 *     the same bytes measured in isolation (spooling to disk, upload excluded), which is the
 *     part that recording off would save.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSessionRecorder } from '../apps/gateway/src/recording/recorder';
import { createLogger } from '../apps/gateway/src/core/logger';
import { cpuSeconds, median, say, settle, sleep, timed, until } from './lib/proc';
import type { Stack } from './lib/stack';

export interface RecordingResult {
  outputBytes: number;
  /** Per repetition. */
  storedBytes: number[];
  gatewayCpuPerMB: number[];
  recorderCpuPerMB: number[];
  /** null when asciinema is not installed. */
  asciinemaBytes: number | null;
}

/** Log-like terminal output of about `size` bytes. */
function terminalText(size: number): string {
  const levels = ['\x1b[32mINFO\x1b[0m', '\x1b[33mWARN\x1b[0m', '\x1b[31mERROR\x1b[0m', 'DEBUG'];
  const words = ['request', 'served', 'user', 'cache', 'miss', 'deploy', '完成', '连接', 'ok'];
  const lines: string[] = [];
  let total = 0;
  let n = 0;
  const random = crypto.createHash('sha256');
  while (total < size) {
    n++;
    const seed = random.update(String(n)).copy().digest();
    let line: string;
    if (n % 50 === 0) {
      const pct = seed[0]! % 101;
      line = `\r[${'#'.repeat(Math.floor(pct / 4)).padEnd(25, '.')}] ${pct}%`;
    } else {
      const text = Array.from(
        { length: 6 + (seed[1]! % 10) },
        (_, i) => words[seed[i + 2]! % words.length],
      ).join(' ');
      line = `2026-11-22 08:${String(n % 60).padStart(2, '0')}:${String(seed[3]! % 60).padStart(2, '0')} ${levels[seed[2]! % levels.length]} pid=${seed.readUInt16BE(4)} ${text}`;
    }
    line += '\n';
    lines.push(line);
    total += Buffer.byteLength(line);
  }
  return lines.join('');
}

/** CPU seconds this process spends recording `chunks` with the gateway's recorder. */
async function recorderCpu(chunks: Buffer[]): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-bench-rec-'));
  try {
    const before = process.cpuUsage();
    const recorder = createSessionRecorder(dir, 1, createLogger({ level: 'silent' }), () => {
      throw new Error('the recorder failed');
    });
    const tap = recorder.channel({ cols: 80, rows: 24, term: 'xterm' }, { input: false });
    for (const chunk of chunks) tap.output(chunk);
    tap.end();
    await recorder.close();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1e6;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function latestConnection(
  stack: Stack,
): Promise<{ id: number; ended: boolean; recording: number }> {
  const row = await stack.t.ctx.db
    .selectFrom('tunnel_connection')
    .select(['id', 'ended_at', 'recording'])
    .where('account_id', '=', stack.memberId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return { id: row.id, ended: row.ended_at !== null, recording: row.recording };
}

export async function runRecording(
  stack: Stack,
  size: number,
  reps: number,
): Promise<RecordingResult> {
  const file = path.join(
    os.tmpdir(),
    `portcullis-bench-output-${crypto.randomBytes(4).toString('hex')}.txt`,
  );
  fs.writeFileSync(file, terminalText(size), { mode: 0o644 });
  const result: RecordingResult = {
    outputBytes: 0,
    storedBytes: [],
    gatewayCpuPerMB: [],
    recorderCpuPerMB: [],
    asciinemaBytes: null,
  };
  try {
    for (let rep = 1; rep <= reps; rep++) {
      const cpuBefore = cpuSeconds(stack.gatewayPid);
      const chunks: Buffer[] = [];
      const r = await new Promise<number | null>((resolve, reject) => {
        const child = spawn('ssh', [...stack.ssh('gw', ['-tt']), `cat ${file}`], {
          stdio: ['pipe', 'pipe', 'ignore'],
        });
        child.stdout.on('data', (d: Buffer) => chunks.push(d));
        child.on('error', reject);
        child.on('close', resolve);
      });
      if (r !== 0) throw new Error(`recorded session ended with ${r}`);
      const output = Buffer.concat(chunks).length;
      result.outputBytes = output;
      // Wait for the session's end and its recording on the server.
      let conn = await latestConnection(stack);
      await until(async () => {
        conn = await latestConnection(stack);
        return conn.ended && conn.recording !== 0;
      }, 60_000);
      await settle(stack.gatewayPid);
      const stored = path.join(stack.t.dataDir, 'recordings', '1', `${conn.id}.cast`);
      let last = -1;
      await until(async () => {
        const now = fs.existsSync(stored) ? fs.statSync(stored).size : 0;
        const stable = now > 0 && now === last;
        last = now;
        if (!stable) await sleep(500);
        return stable;
      }, 60_000);
      const cpu = cpuSeconds(stack.gatewayPid) - cpuBefore;
      result.storedBytes.push(last);
      result.gatewayCpuPerMB.push(cpu / (output / 1e6));
      result.recorderCpuPerMB.push((await recorderCpu(chunks)) / (output / 1e6));
      say(
        `recording rep ${rep}: ${output} bytes shown, ${last} stored, gateway ${cpu.toFixed(2)} s CPU`,
      );
    }
    const asciinema = await timed('asciinema', ['--version']).catch(() => null);
    if (asciinema && asciinema.code === 0) {
      const cast = path.join(stack.dir, 'asciinema.cast');
      const rec = await timed('asciinema', ['rec', '-q', '-c', `cat ${file}`, cast], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      if (rec.code === 0) result.asciinemaBytes = fs.statSync(cast).size;
    }
  } finally {
    fs.rmSync(file, { force: true });
  }
  return result;
}

export function recordingMedians(r: RecordingResult): {
  storedPerMB: number;
  gatewayCpuPerMB: number;
  recorderCpuPerMB: number;
} {
  return {
    storedPerMB: median(r.storedBytes) / r.outputBytes,
    gatewayCpuPerMB: median(r.gatewayCpuPerMB),
    recorderCpuPerMB: median(r.recorderCpuPerMB),
  };
}
