/**
 * A fake gateway for tests that speak the control protocol to the real server themselves (a
 * race the real gateway cannot be made to run): it dials in with a cluster key, says hello
 * with every port, and waits for the answers to its requests. Test-only.
 */
import { CONTROL_PATH, CONTROL_PROTOCOL, type ServerMessage } from '@portcullis/contract';
import WebSocket from 'ws';
import { until } from '../../test/until';
import { PUBLISHED_GATEWAY_VERSION } from '../clusters/gateway-version';
import { GATEWAY_PORTS } from '../workgroups/test-fixtures';

export const HELLO = {
  type: 'hello',
  version: PUBLISHED_GATEWAY_VERSION,
  host: 'gw',
  ports: GATEWAY_PORTS,
  features: ['ssh'],
};

/** Shared by the tests that use this fake gateway. */
export { until };

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
  /** Opened, greeted (with `hello`'s features: a gateway of some age) and welcomed. */
  const welcomed = async (hello: typeof HELLO = HELLO) => {
    await opened;
    send(hello);
    await until(() => messages.some((m) => m.type === 'welcome'));
  };
  return { ws, messages, opened, closed, send, reply, welcomed };
}
