/**
 * The web terminal: the browser's side played by the `ws` client, as the gateway's tests do
 * (text frames are JSON, binary frames are terminal bytes). A token comes from the server for
 * the member's code (`POST /api/web_terminal/token`), as the console's Connect button asks.
 *   - throughput: `head -c N /dev/urandom | base64` typed into the shell, timed until the
 *     end marker arrives, over the terminal bytes received;
 *   - echo: `stty raw -echo; cat`, one byte every 50 ms, as for SSH.
 */
import WebSocket from 'ws';
import { median, quantile, say, sleep } from './lib/proc';
import type { Stack } from './lib/stack';

export interface WebTerminalResult {
  bytes: number;
  /** MB/s per repetition. */
  throughput: number[];
  echo: { samples: number; p50: number; p99: number };
}

interface Terminal {
  ws: WebSocket;
  onOutput(listener: (data: Buffer) => void): void;
  type(text: string): void;
  close(): void;
}

async function openTerminal(stack: Stack): Promise<Terminal> {
  const res = await stack.memberClient.post('/api/web_terminal/token', {
    project_resource_id: stack.projectResource,
  });
  if (res.statusCode !== 200) throw new Error(`web terminal token: ${res.body}`);
  const { token, url } = res.json() as { token: string; url: string };
  if (!url.startsWith('ws://127.0.0.1:')) throw new Error(`unexpected terminal url ${url}`);
  const ws = new WebSocket(url);
  let listener: (data: Buffer) => void = () => undefined;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the web terminal did not get ready')), 30_000);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token, cols: 120, rows: 40 })));
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return listener(data);
      const message = JSON.parse(data.toString()) as { type: string };
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve();
      }
    });
    ws.on('close', (code, reason) => reject(new Error(`closed ${code} ${reason.toString()}`)));
    ws.on('error', reject);
  });
  return {
    ws,
    onOutput: (l) => (listener = l),
    type: (text) => ws.send(Buffer.from(text), { binary: true }),
    close: () => ws.close(),
  };
}

/** Types a command and resolves when `marker` appears in the output; returns bytes received. */
function runUntil(term: Terminal, command: string, marker: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let received = 0;
    let tail = '';
    const timer = setTimeout(() => reject(new Error(`no ${marker} within 10 minutes`)), 600_000);
    term.onOutput((data) => {
      received += data.length;
      tail = (tail + data.toString('latin1')).slice(-200);
      if (tail.includes(marker)) {
        clearTimeout(timer);
        term.onOutput(() => undefined);
        resolve(received);
      }
    });
    term.type(command);
  });
}

export async function runWebTerminal(
  stack: Stack,
  bytes: number,
  reps: number,
  samples: number,
): Promise<WebTerminalResult> {
  const term = await openTerminal(stack);
  const throughput: number[] = [];
  try {
    // The marker is typed split by quotes so that the echoed command line does not match.
    await runUntil(term, 'echo BENCH""-READY\r', 'BENCH-READY');
    await runUntil(
      term,
      `head -c 1000000 /dev/urandom | base64; echo BENCH""-DONE\r`,
      'BENCH-DONE',
    );
    for (let rep = 1; rep <= reps; rep++) {
      const start = process.hrtime.bigint();
      const received = await runUntil(
        term,
        `head -c ${bytes} /dev/urandom | base64; echo BENCH""-DONE\r`,
        'BENCH-DONE',
      );
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      throughput.push(received / seconds / 1e6);
      say(`web terminal rep ${rep}: ${(received / seconds / 1e6).toFixed(1)} MB/s`);
    }
    await runUntil(term, 'stty raw -echo; printf BENCH""-RAW; cat\r', 'BENCH-RAW');
    const latencies: number[] = [];
    let waiting: ((at: bigint) => void) | undefined;
    term.onOutput(() => {
      const w = waiting;
      waiting = undefined;
      w?.(process.hrtime.bigint());
    });
    const startAt = performance.now() + 100;
    for (let i = 0; i < samples + 20; i++) {
      const wait = startAt + i * 50 - performance.now();
      if (wait > 0) await sleep(wait);
      const back = new Promise<bigint>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no echo within 10 s')), 10_000);
        waiting = (at) => {
          clearTimeout(timer);
          resolve(at);
        };
      });
      const sent = process.hrtime.bigint();
      term.type(String.fromCharCode(0x61 + (i % 26)));
      const ms = Number((await back) - sent) / 1e6;
      if (i >= 20) latencies.push(ms); // the first 20 warm up
    }
    say(`web terminal echo p50 ${median(latencies).toFixed(3)} ms`);
    return {
      bytes,
      throughput,
      echo: { samples, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) },
    };
  } finally {
    term.close();
  }
}
