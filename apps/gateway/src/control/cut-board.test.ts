import { describe, expect, it } from 'vitest';
import { createCutBoard } from './cut-board';
import { CHANNEL_LOST, createSessionRequests } from './session-requests';
import { CONTROL_PROTOCOL, type GatewayMessage } from './protocol';

const record =
  (sent: GatewayMessage[]) =>
  (message: GatewayMessage): boolean => {
    sent.push(message);
    return true;
  };
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the cut board', () => {
  it('tells a session listening for its id, and no other', () => {
    const board = createCutBoard();
    const heard: string[] = [];
    board.onCut(1, (reason) => heard.push(`1 ${reason}`));
    board.onCut(2, (reason) => heard.push(`2 ${reason}`));
    board.cut(1, 'audit');
    expect(heard).toEqual(['1 audit']);
  });

  it('keeps a cut nobody listened for, and tells the session that listens later, after the call', async () => {
    const board = createCutBoard();
    board.cut(7, 'Access revoked');
    const heard: string[] = [];
    board.onCut(7, (reason) => heard.push(reason));
    expect(heard).toEqual([]); // not while the caller is still setting up
    await Promise.resolve();
    expect(heard).toEqual(['Access revoked']);
    board.onCut(8, (reason) => heard.push(`8 ${reason}`));
    await tick();
    expect(heard).toEqual(['Access revoked']);
  });

  it('passes the reason’s catalogue code on, to a listener now and to one that listens later', async () => {
    const board = createCutBoard();
    const heard: unknown[] = [];
    board.onAnyCut((id, reason, code) => heard.push(['any', id, reason, code]));
    board.onCut(1, (reason, code) => heard.push([1, reason, code]));
    board.cut(1, 'The code has expired', 'TunnelExpire');
    board.cut(2, 'Disconnected from the console', 'SessionCutFromConsole');
    board.onCut(2, (reason, code) => heard.push([2, reason, code]));
    await Promise.resolve();
    expect(heard).toEqual([
      ['any', 1, 'The code has expired', 'TunnelExpire'],
      [1, 'The code has expired', 'TunnelExpire'],
      ['any', 2, 'Disconnected from the console', 'SessionCutFromConsole'],
      [2, 'Disconnected from the console', 'SessionCutFromConsole'],
    ]);
  });

  it('does not tell a session that stopped listening before the kept cut was told', async () => {
    const board = createCutBoard();
    board.cut(3, 'x');
    const heard: string[] = [];
    board.onCut(3, (reason) => heard.push(reason))();
    await tick();
    expect(heard).toEqual([]);
  });

  it('forgets kept cuts after their time, and keeps no more than its bound (the oldest go)', async () => {
    let now = 0;
    const board = createCutBoard(() => now, 1000, 3);
    board.cut(1, 'old');
    now = 1500;
    const heard: number[] = [];
    board.onCut(1, () => heard.push(1));
    for (const id of [10, 11, 12, 13]) board.cut(id, 'new');
    for (const id of [10, 11, 12, 13]) board.onCut(id, () => heard.push(id));
    await tick();
    expect(heard).toEqual([11, 12, 13]);
  });

  it('passes every cut to the listeners of any cut', () => {
    const board = createCutBoard();
    const heard: [number, string][] = [];
    const stop = board.onAnyCut((id, reason) => heard.push([id, reason]));
    board.onCut(1, () => undefined);
    board.cut(1, 'a');
    board.cut(2, 'b');
    stop();
    board.cut(3, 'c');
    expect(heard).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
  });
});

describe('session requests and cuts', () => {
  it('cuts a session whose start was answered when the channel went before it listened', async () => {
    const sent: GatewayMessage[] = [];
    const requests = createSessionRequests(record(sent));
    const started = requests.start('grant', '127.0.0.1', 'terminal');
    const ask = sent.find((m) => m.type === 'session_start') as { request_id: string };
    // The answer and the channel's loss in one go, before the session heard its answer.
    requests.onReply({
      v: CONTROL_PROTOCOL,
      type: 'session_started',
      request_id: ask.request_id,
      connection_id: 42,
    });
    requests.failAll();
    const outcome = await started;
    expect(outcome).toMatchObject({ ok: true, connectionId: 42 });
    const heard: string[] = [];
    requests.onCut(42, (reason) => heard.push(reason));
    await tick();
    expect(heard).toEqual([CHANNEL_LOST]);
  });

  it('ends a session the server started for a request that had already timed out', async () => {
    const sent: GatewayMessage[] = [];
    const requests = createSessionRequests(record(sent), 10);
    const outcome = await requests.start('grant', '127.0.0.1', 'terminal');
    expect(outcome.ok).toBe(false);
    const ask = sent.find((m) => m.type === 'session_start') as { request_id: string };
    requests.onReply({
      v: CONTROL_PROTOCOL,
      type: 'session_started',
      request_id: ask.request_id,
      connection_id: 43,
    });
    expect(sent.at(-1)).toEqual({ v: CONTROL_PROTOCOL, type: 'session_end', connection_id: 43 });
  });
});
