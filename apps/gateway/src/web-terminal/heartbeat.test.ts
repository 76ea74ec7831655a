import { WEB_TERMINAL_PATH } from '@portcullis/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SessionControlApi } from '../control/session-requests';
import { silentLogger } from '../core/logger';
import { startWebTerminal, type WebTerminal } from './server';

const HEARTBEAT_MS = 200;

/** The token's check never answers: the terminal stays open as long as its browser does. */
const control = {
  onCut: () => () => undefined,
  redeem: () => new Promise(() => undefined),
} as unknown as SessionControlApi;

describe('the web terminal’s heartbeat', () => {
  let terminal: WebTerminal;
  beforeAll(async () => {
    terminal = await startWebTerminal({
      port: 0,
      host: '127.0.0.1',
      control,
      logger: silentLogger,
      heartbeatMs: HEARTBEAT_MS,
    });
  });
  afterAll(() => terminal.close());

  /** A browser tab with the terminal open; `answers`: whether it answers pings. */
  const browser = async (answers: boolean) => {
    const ws = new WebSocket(`ws://127.0.0.1:${terminal.port}${WEB_TERMINAL_PATH}`, {
      autoPong: answers,
    });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'auth', token: 'a-token', cols: 80, rows: 24 }));
    let closedAt: number | undefined;
    ws.on('close', () => (closedAt = Date.now()));
    return { ws, closedAt: () => closedAt };
  };

  it('cuts off a browser that stopped answering, and keeps one that answers', async () => {
    const started = Date.now();
    const asleep = await browser(false);
    const awake = await browser(true);
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 5));
    // Before, the silent one stayed open (a laptop that slept, a network that went away).
    expect(asleep.closedAt()).toBeDefined();
    expect(asleep.closedAt()! - started).toBeLessThanOrEqual(HEARTBEAT_MS * 3 + 100);
    expect(awake.closedAt()).toBeUndefined();
    awake.ws.close();
  });
});
