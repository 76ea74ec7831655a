/**
 * Sessions when the gateway's control channel to the server goes down (a network blip, the
 * server restarting): the real server, the real gateway dialling it through a loopback relay
 * the test can break, the real sshd and the stock ssh client. The server ends the gateway's
 * online rows when the channel goes; the gateway ends the sessions themselves, which the server
 * could otherwise neither list nor cut.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../../../gateway/src/control/client';
import { startSshd, type SshdPeer } from '../../../../../scripts/peers/sshd.mjs';
import { createTestApp, signedIn, type TestApp } from '../../test/harness';
import {
  addMembersTo,
  addResourcesTo,
  createWorkgroup,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';
import { openSshClient, run, type OpenSshClient } from './openssh.test-helpers';
import { freePort } from '../../../../gateway/src/test/net';

async function until(probe: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
}

describe('sessions when the control channel goes down', () => {
  let t: TestApp;
  let gateway: Gateway;
  let sshd: SshdPeer;
  let client: OpenSshClient;
  let relay: net.Server;
  const relayed = new Set<net.Socket>();
  let dir: string;
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
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-control-loss-'));
    t = await createTestApp();
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const admin = await signedIn(t);
    const lab = (await admin.post('/api/v1/network', { name: 'Lab' })).json().id as number;
    const key = /PORTCULLIS_KEY='([^']+)'/.exec(
      (await admin.get(`/api/v1/network/${lab}/agent_scripts`)).json().install,
    )![1]!;
    sshd = await startSshd();
    const res = await admin.post('/api/v1/resource', {
      network_id: lab,
      name: 'sshd',
      ip_address: '127.0.0.1',
      os: 'linux',
      port: sshd.port,
      login_users: [{ username: sshd.user, auth_type: 0, password: sshd.password }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const wg = await createWorkgroup(admin, 'Blip');
    await addResourcesTo(admin, wg, [res.json().id as number]);
    const erin = await member(t, 'erin@demo.local');
    memberId = erin.id;
    await addMembersTo(admin, wg, [erin.id]);

    // The gateway's way to the server, which the test can break.
    relay = net.createServer((from) => {
      const to = net.connect(Number(address.port), address.hostname);
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
    port = await freePort();
    gateway = startGateway({
      server: `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}`,
      key,
      host: '127.0.0.1',
      ports: { ssh_port: port },
      backoff: { initialMs: 100, maxMs: 500 },
      sshProxy: { dataDir: path.join(dir, 'gateway'), listenHost: '127.0.0.1' },
    });
    await gateway.connected;
    await gateway.sshProxy;
    client = await openSshClient(dir);
    const added = await erin.client.post('/api/account_pubkey', {
      title: 'laptop',
      pubkey: client.publicKey,
    });
    expect(added.statusCode, added.body).toBe(200);
    const made = await erin.client.post('/api/tunnel', {
      project_resource_id: await projectResourceId(admin, wg, res.json().id as number),
    });
    expect(made.statusCode, made.body).toBe(200);
    code = made.json().code as string;
  });
  afterAll(async () => {
    await gateway?.stop();
    relay?.close();
    await sshd?.stop();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
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
