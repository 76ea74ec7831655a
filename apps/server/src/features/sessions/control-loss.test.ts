/**
 * Sessions when the gateway's control channel to the server goes down (a network blip, the
 * server restarting): the real server, the real gateway dialling it through a loopback relay
 * the test can break, the real sshd and the stock ssh client. The server ends the gateway's
 * online rows when the channel goes; the gateway ends the sessions themselves, which the server
 * could otherwise neither list nor cut.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { run, type OpenSshClient } from './openssh.test-helpers';
import { startSshStack, type SshStack } from './ssh-test-kit';

async function until(probe: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
}

describe('sessions when the control channel goes down', () => {
  let stack: SshStack | undefined;
  let t: TestApp;
  let client: OpenSshClient;
  let relay: net.Server;
  const relayed = new Set<net.Socket>();
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
      workgroup: 'Blip',
      gateway: { backoff: { initialMs: 100, maxMs: 500 } },
      // The gateway's way to the server, which the test can break.
      serverUrl: async (address) => {
        const server = new URL(address);
        relay = net.createServer((from) => {
          const to = net.connect(Number(server.port), server.hostname);
          from.pipe(to).pipe(from);
          relayed.add(from).add(to);
          const destroy = () => {
            from.destroy();
            to.destroy();
          };
          from.on('error', destroy).on('close', destroy);
          to.on('error', destroy).on('close', destroy);
        });
        await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
        return `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}`;
      },
    });
    ({ t, client, port, code } = stack);
    memberId = stack.erin.id;
  });
  afterAll(async () => {
    await stack?.stop();
    relay?.close();
  });

  it('ends the sessions it can no longer govern, and serves new ones once back', async () => {
    const running = ssh(['sleep 20; echo survived']);
    await until(async () => (await online()).length === 1);
    const brokeAt = Date.now();
    for (const socket of relayed) socket.destroy();

    // Before, the shell went on with no online row: no cut or revocation could reach it.
    const res = await running;
    expect(res.stdout.toString()).not.toContain('survived');
    expect(Date.now() - brokeAt).toBeLessThan(5000);
    // The server ends the row when it sees the channel close (the gateway cannot tell it).
    await until(async () => (await online()).length === 0);
    // Once the gateway has dialled again, new sessions work.
    await until(async () => (await ssh(['echo back'])).code === 0);
    const next = await ssh(['echo back']);
    expect([next.code, next.stdout.toString()]).toEqual([0, 'back\n']);
  }, 40_000);
});
