/**
 * The web terminals, side by side against the same target sshd: Portcullis's (the browser's
 * side played by the `ws` client, as the gateway's tests do: text frames are JSON, binary
 * frames are terminal bytes; a token comes from the server for the member's code, `POST
 * /api/web_terminal/token`, as the console's Connect button asks), WeTTY and shellinabox (see
 * lib/webpeers.ts). Each is measured the same way, and they take turns within a repetition:
 *   - throughput: `head -c N /dev/urandom | base64` typed into the shell, timed until the
 *     end marker arrives, over the terminal output received (characters; base64 is ASCII);
 *   - echo: `stty raw -echo; cat`, one byte every 50 ms, as for SSH.
 * A peer that cannot be installed or started is reported as not measured with its error; the
 * others still run. BENCH_WEB_PEERS=wetty,shellinabox (default both; `none` for neither).
 */
import WebSocket from 'ws';
import { WEB_TERMINAL_ACK_BYTES } from '@portcullis/contract';
import { median, quantile, say, sleep } from './lib/proc';
import type { Stack } from './lib/stack';
import {
  endSignal,
  startShellinabox,
  startWetty,
  type Terminal,
  type WebPeer,
} from './lib/webpeers';

export const WEB_PEERS = ['portcullis', 'wetty', 'shellinabox'] as const;
export type WebPeerName = (typeof WEB_PEERS)[number];

export interface WebPeerResult {
  /** How it was set up (RESULTS.md). */
  setup: string;
  /** MB/s per repetition. */
  throughput: number[];
  echo?: { samples: number; p50: number; p99: number };
  /** Why it was not measured, or why a measure stopped. */
  error?: string;
}

export interface WebTerminalResult {
  bytes: number;
  samples: number;
  peers: Partial<Record<WebPeerName, WebPeerResult>>;
}

async function openPortcullis(stack: Stack): Promise<Terminal> {
  const res = await stack.memberClient.post('/api/web_terminal/token', {
    project_resource_id: stack.projectResource,
  });
  if (res.statusCode !== 200) throw new Error(`web terminal token: ${res.body}`);
  const { token, url } = res.json() as { token: string; url: string };
  if (!url.startsWith('ws://127.0.0.1:')) throw new Error(`unexpected terminal url ${url}`);
  const ws = new WebSocket(url);
  let listener: (data: Buffer | string) => void = () => undefined;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the web terminal did not get ready')), 30_000);
    // As the console: it acknowledges output (here at once, as it draws nothing).
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'auth', token, cols: 120, rows: 40, ack: true })),
    );
    let unacked = 0;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) {
        unacked += data.length;
        if (unacked >= WEB_TERMINAL_ACK_BYTES) {
          ws.send(JSON.stringify({ type: 'ack', bytes: unacked }));
          unacked = 0;
        }
        return listener(data);
      }
      const message = JSON.parse(data.toString()) as { type: string };
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve();
      }
    });
    ws.on('close', (code, reason) => reject(new Error(`closed ${code} ${reason.toString()}`)));
    ws.on('error', reject);
  });
  const ended = endSignal();
  ws.on('close', (code, reason) =>
    ended.end(`the gateway closed the terminal (${code} ${reason.toString()})`),
  );
  return {
    onOutput: (l) => (listener = l),
    onEnd: ended.onEnd,
    type: (text) => ws.send(Buffer.from(text), { binary: true }),
    close: () => {
      ended.closing();
      ws.close();
    },
  };
}

/** Nothing matched in time (the terminal still runs): worth typing again. */
class NoMarker extends Error {}

/**
 * Types a command and resolves when `marker` appears in the output; returns bytes received.
 * If the terminal ends first, or nothing matches within `limitMs`, the error says so with the
 * last output seen (a prompt, ssh's complaint), which is what tells why.
 */
function runUntil(
  term: Terminal,
  command: string,
  marker: string,
  limitMs = 600_000,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let received = 0;
    let tail = '';
    const fail = (why: string, As: new (message: string) => Error = Error): void => {
      clearTimeout(timer);
      term.onOutput(() => undefined);
      const last = tail.replace(/[^\x20-\x7e]+/g, ' ').slice(-120); // printable only
      reject(new As(`${why}; the last output: ${JSON.stringify(last)}`));
    };
    const timer = setTimeout(
      () => fail(`no ${marker} within ${Math.round(limitMs / 1000)} s`, NoMarker),
      limitMs,
    );
    term.onEnd((why) => fail(`${why} before ${marker}`));
    term.onOutput((data) => {
      received += data.length;
      tail = (tail + (typeof data === 'string' ? data : data.toString('latin1'))).slice(-200);
      if (tail.includes(marker)) {
        clearTimeout(timer);
        term.onOutput(() => undefined);
        term.onEnd(() => undefined);
        resolve(received);
      }
    });
    term.type(command);
  });
}

/** How often the ready command is typed again, and for how long in all. */
const READY_RETRY_MS = 5_000;
const READY_WAIT_MS = 60_000;

/**
 * Waits for the shell, typing the ready command again every 5 s for a minute: a login on a
 * busy machine takes a while, and in a full run shellinabox's prompt came while the one
 * command typed before it never did (keys typed before its session ran seem to be lost).
 */
async function shellReady(term: Terminal): Promise<void> {
  for (let waited = READY_RETRY_MS; ; waited += READY_RETRY_MS) {
    try {
      await runUntil(term, 'echo BENCH""-READY\r', 'BENCH-READY', READY_RETRY_MS);
      return;
    } catch (err) {
      if (waited >= READY_WAIT_MS || !(err instanceof NoMarker)) throw err;
    }
  }
}

/** MB/s of one `head -c N /dev/urandom | base64` shown in the terminal. */
async function throughputOnce(term: Terminal, bytes: number): Promise<number> {
  const start = process.hrtime.bigint();
  // The marker is typed split by quotes so that the echoed command line does not match.
  const received = await runUntil(
    term,
    `head -c ${bytes} /dev/urandom | base64; echo BENCH""-DONE\r`,
    'BENCH-DONE',
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return received / seconds / 1e6;
}

async function echoLatencies(term: Terminal, samples: number): Promise<number[]> {
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
  return latencies;
}

export async function runWebTerminal(
  stack: Stack,
  bytes: number,
  reps: number,
  samples: number,
): Promise<WebTerminalResult> {
  const wanted = new Set(
    (process.env.BENCH_WEB_PEERS ?? 'wetty,shellinabox').split(',').filter(Boolean),
  );
  const result: WebTerminalResult = { bytes, samples, peers: {} };
  const servers: WebPeer[] = [];
  const terms = new Map<WebPeerName, Terminal>();
  const fail = (name: WebPeerName, err: unknown): void => {
    const message = String(err).split('\n')[0]!;
    say(`web terminal ${name}: ${message}`);
    const r = (result.peers[name] ??= { setup: '', throughput: [] });
    r.error = message;
    const term = terms.get(name);
    terms.delete(name);
    term?.close();
  };
  const starters: Record<Exclude<WebPeerName, 'portcullis'>, typeof startWetty> = {
    wetty: startWetty,
    shellinabox: startShellinabox,
  };
  try {
    for (const name of WEB_PEERS) {
      if (name !== 'portcullis' && !wanted.has(name)) continue;
      try {
        let term: Terminal;
        if (name === 'portcullis') {
          result.peers[name] = {
            setup: `Portcullis gateway (its own process), \`ws\` client, token from \`POST /api/web_terminal/token\``,
            throughput: [],
          };
          term = await openPortcullis(stack);
        } else {
          const peer = await starters[name](stack);
          servers.push(peer);
          result.peers[name] = { setup: peer.describe, throughput: [] };
          term = await peer.open();
        }
        terms.set(name, term);
        await shellReady(term);
        await runUntil(
          term,
          `head -c 1000000 /dev/urandom | base64; echo BENCH""-DONE\r`,
          'BENCH-DONE',
        );
        say(`web terminal ${name}: ready`);
      } catch (err) {
        fail(name, err);
      }
    }
    // The terminals take turns within each repetition, so that a busy spell hits all of them.
    for (let rep = 1; rep <= reps; rep++) {
      for (const [name, term] of terms) {
        try {
          const mbs = await throughputOnce(term, bytes);
          result.peers[name]!.throughput.push(mbs);
          say(`web terminal ${name} rep ${rep}: ${mbs.toFixed(1)} MB/s`);
        } catch (err) {
          fail(name, err);
        }
      }
    }
    for (const [name, term] of terms) {
      try {
        const latencies = await echoLatencies(term, samples);
        const p50 = quantile(latencies, 0.5);
        result.peers[name]!.echo = { samples, p50, p99: quantile(latencies, 0.99) };
        say(`web terminal ${name} echo p50 ${median(latencies).toFixed(3)} ms`);
      } catch (err) {
        fail(name, err);
      }
    }
    return result;
  } finally {
    for (const term of terms.values()) term.close();
    for (const peer of servers) await peer.stop();
  }
}
