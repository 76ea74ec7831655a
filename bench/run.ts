/**
 * `npm run bench`: every Portcullis benchmark in one run, on loopback, against temporary peers
 * this script starts itself; writes bench/RESULTS.md. Sizes come from the environment (see
 * bench/README.md); BENCH_ONLY=bulk,echo,… runs a subset (RESULTS.md then says which).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runActionLog } from './actionlog';
import { runBulk } from './bulk';
import { runEcho } from './echo';
import { runMemory } from './memory';
import { envInt, say, timed } from './lib/proc';
import { startStack } from './lib/stack';
import { runRecording } from './recording';
import { runSetup } from './setup';
import { writeResults, type Results } from './report';
import { runWebTerminal } from './webterm';

const root = path.resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
  const only = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
  const wants = (name: string): boolean => only.size === 0 || only.has(name);
  const reps = envInt('BENCH_REPS', 5);
  const bytes = envInt('BENCH_BYTES', 2 ** 30);
  const echoSamples = envInt('BENCH_ECHO_SAMPLES', 5000);
  const sessions = (process.env.BENCH_SESSIONS ?? '250,500,1000').split(',').map(Number);
  const recordingBytes = envInt('BENCH_RECORDING_BYTES', 16 * 2 ** 20);
  const logRows = envInt('BENCH_LOG_ROWS', 1_000_000);
  const webBytes = envInt('BENCH_WEB_BYTES', 64 * 2 ** 20);
  const webSamples = envInt('BENCH_WEB_ECHO_SAMPLES', Math.min(echoSamples, 1000));
  const logBackends = (process.env.BENCH_LOG_BACKENDS ?? 'sqlite,postgres')
    .split(',')
    .filter((b): b is 'sqlite' | 'postgres' => b === 'sqlite' || b === 'postgres');
  const started = new Date();
  say(`${os.cpus().length} cores, Node ${process.version}`);
  const results: Results = {
    command: commandLine(),
    started,
    machine: {
      cores: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: os.totalmem() / 2 ** 30,
      node: process.version,
      kernel: `${os.type()} ${os.release()}`,
      loadAtStart: os.loadavg(),
      ssh: (await timed('ssh', ['-V'])).stderr.trim(),
    },
    settings: { reps, bytes, echoSamples, sessions, recordingBytes, logRows },
    notes: [],
    skipped: ['bulk', 'echo', 'setup', 'memory', 'recording', 'actionlog', 'webterm'].filter(
      (n) => !wants(n),
    ),
  };
  const stack = await startStack(root);
  // Interrupted: take the peers and temporary folders down before leaving.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      say(`${signal}: stopping`);
      void stack.stop().finally(() => process.exit(130));
    });
  }
  try {
    if (wants('bulk')) results.bulk = await runBulk(stack, bytes, reps);
    if (wants('echo')) results.echo = await runEcho(stack, echoSamples);
    if (wants('setup')) results.setup = await runSetup(stack, reps);
    if (wants('recording')) results.recording = await runRecording(stack, recordingBytes, reps);
    if (wants('webterm')) {
      results.webTerminal = await runWebTerminal(stack, webBytes, reps, webSamples);
    }
    if (wants('memory')) results.memory = await runMemory(stack, sessions);
  } finally {
    await stack.stop();
  }
  if (wants('actionlog')) {
    results.actionLog = [];
    for (const backend of logBackends) {
      results.actionLog.push(await runActionLog(backend, logRows, reps));
    }
  }
  results.finished = new Date();
  const file = path.join(root, 'bench', process.env.BENCH_OUT ?? 'RESULTS.md');
  fs.writeFileSync(file, writeResults(results));
  say(`wrote ${file}`);
}

/** The command as a reader would type it again, with the settings that were not defaults. */
function commandLine(): string {
  const vars = Object.entries(process.env)
    .filter(([k]) => k.startsWith('BENCH_'))
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  return [...vars, 'npm run bench'].join(' ');
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
