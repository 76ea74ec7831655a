/**
 * The SSH proxy when the target or the member goes away at a bad moment: the real server, the
 * real gateway, the real sshd behind a loopback TCP relay the test controls (it can reset the
 * gateway's connection, or hold the target's bytes back to make its login slow), and the stock
 * ssh client. The gateway runs in this process: a failure it does not handle fails the test.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { run, type OpenSshClient } from './openssh.test-helpers';
import { startSshStack, type SshStack } from './ssh-test-kit';

/** A TCP relay to the target: each connection the gateway opens, and a tap to hold it back. */
interface TargetRelay {
  port: number;
  /** The gateway's side of each connection, in order. */
  fromGateway: net.Socket[];
  /** While true, the target's bytes wait in the relay (a target slow to log in). */
  holding: boolean;
  release(): void;
  close(): Promise<void>;
}

async function targetRelay(targetPort: number): Promise<TargetRelay> {
  const held: (() => void)[] = [];
  const relay: TargetRelay = {
    port: 0,
    fromGateway: [],
    holding: false,
    release: () => {
      relay.holding = false;
      for (const flush of held.splice(0)) flush();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = net.createServer((socket) => {
    relay.fromGateway.push(socket);
    const target = net.connect(targetPort, '127.0.0.1');
    socket.pipe(target);
    target.on('data', (chunk: Buffer) => {
      if (!relay.holding) return void socket.write(chunk);
      held.push(() => !socket.destroyed && socket.write(chunk));
    });
    const destroy = () => {
      socket.destroy();
      target.destroy();
    };
    socket.on('error', destroy).on('close', destroy);
    target.on('error', destroy).on('close', destroy);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.port = (server.address() as net.AddressInfo).port;
  return relay;
}

async function until<T>(probe: () => Promise<T | undefined | false> | T | undefined | false) {
  for (let i = 0; i < 150; i++) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
}

describe('the SSH proxy when the target or the member goes away', () => {
  let stack: SshStack | undefined;
  let t: TestApp;
  let relay: TargetRelay;
  let client: OpenSshClient;
  let port: number;
  let code: string;
  let memberId: number;

  const ssh = (args: string[]) =>
    run('ssh', [...client.options('publickey'), '-p', String(port), `${code}@127.0.0.1`, ...args]);
  const online = () =>
    t.ctx.db
      .selectFrom('tunnel_connection')
      .select('id')
      .where('account_id', '=', memberId)
      .where('ended_at', 'is', null)
      .execute();

  beforeAll(async () => {
    stack = await startSshStack({
      workgroup: 'Loss',
      resourceName: 'behind-a-relay',
      targetPort: async (sshd) => (relay = await targetRelay(sshd.port)).port,
    });
    ({ t, client, port, code } = stack);
    memberId = stack.erin.id;
  });
  afterAll(async () => {
    await stack?.stop();
    await relay?.close();
  });

  it('ends the session when the target resets its connection, and goes on serving', async () => {
    const running = ssh(['sleep 30; echo done']);
    await until(async () => (await online()).length === 1);
    const connections = relay.fromGateway.length;
    relay.fromGateway[connections - 1]!.resetAndDestroy();

    const res = await running;
    expect(res.code).not.toBe(0);
    expect(res.stdout.toString()).not.toContain('done');
    await until(async () => (await online()).length === 0);
    // The gateway is still there for the next session.
    const next = await ssh(['echo still here']);
    expect([next.code, next.stdout.toString()]).toEqual([0, 'still here\n']);
  });

  it('opens no session for a member who left while the target was logging in', async () => {
    await until(async () => (await online()).length === 0);
    const before = relay.fromGateway.length;
    relay.holding = true;
    const child = spawn('ssh', [
      ...client.options('publickey'),
      '-p',
      String(port),
      `${code}@127.0.0.1`,
      'echo in',
    ]);
    // The code is proven and the gateway is logging in to the target (its bytes held back).
    await until(() => relay.fromGateway.length > before);
    const toTarget = relay.fromGateway[before]!;
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    relay.release();

    // The login completes, finds the member gone, and lets the target go.
    await until(() => toTarget.destroyed);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await online()).toEqual([]);
  });
});
