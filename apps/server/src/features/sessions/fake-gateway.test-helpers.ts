/**
 * A fake gateway for tests that speak the control protocol to the real server themselves (a
 * race the real gateway cannot be made to run): it dials in with a cluster key, says hello
 * with every port, and waits for the answers to its requests. Test-only.
 */
import { CONTROL_PATH, CONTROL_PROTOCOL, type ServerMessage } from '@portcullis/contract';
import WebSocket from 'ws';
import { PUBLISHED_GATEWAY_VERSION } from '../clusters/gateway-version';

export const HELLO = {
  type: 'hello',
  version: PUBLISHED_GATEWAY_VERSION,
  host: 'gw',
  ports: {
    ssh_port: 9998,
    webssh_port: 8889,
    mysql_port: 9696,
    postgresql_port: 9432,
    mssql_port: 9433,
    rdp_port: 9389,
    webrdp_port: 8389,
  },
  features: ['ssh'],
};

export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('timed out');
}

export type FakeGateway = ReturnType<typeof fakeGateway>;

/** Dials the server at `base` (ws://…) with the cluster key `key`. */
export function fakeGateway(base: string, key: string) {
  const ws = new WebSocket(base + CONTROL_PATH, { headers: { authorization: `Bearer ${key}` } });
  const messages: (ServerMessage & { request_id?: string })[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as ServerMessage));
  const opened = new Promise<void>((resolve) => ws.on('open', () => resolve()));
  const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
  const send = (m: object) => ws.send(JSON.stringify({ v: CONTROL_PROTOCOL, ...m }));
  const reply = async (id: string) => {
    await until(() => messages.some((m) => m.request_id === id));
    return messages.find((m) => m.request_id === id) as Record<string, unknown>;
  };
  /** Opened, greeted and welcomed. */
  const welcomed = async () => {
    await opened;
    send(HELLO);
    await until(() => messages.some((m) => m.type === 'welcome'));
  };
  return { ws, messages, opened, closed, send, reply, welcomed };
}
