/**
 * A server with a pinned host key and a gateway that does not say it checks pins (one older
 * than host_key_pin, or rolled back to one): the server gives it no credential for that server
 * (it would drop the pin unread and log in to whatever answers at the address), nor a key
 * task or connectivity test; a server without a pin is unaffected. A fake gateway speaks the
 * control protocol to the real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import {
  addLinux,
  addMembersTo,
  addResourcesTo,
  clusterKey,
  createWorkgroup,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';
import { fakeGateway, HELLO, type FakeGateway } from './fake-gateway.test-helpers';

const PIN = `SHA256:${'p'.repeat(43)}`;

describe('a pinned server behind a gateway that cannot check pins', () => {
  let t: TestApp;
  let admin: TestClient;
  let gateway: FakeGateway;
  let serverId: number;
  let code: string;

  const pin = (hostKey: string | null) =>
    t.ctx.db
      .updateTable('resource')
      .set({ host_key: hostKey })
      .where('id', '=', serverId)
      .execute();
  let round = 0;
  /** Resolves the code and asks for root's credential: the answer. */
  const credential = async () => {
    round += 1;
    gateway.send({ type: 'resolve_code', request_id: `r${round}`, code, client_ip: '127.0.0.1' });
    const { grant } = await gateway.reply(`r${round}`);
    gateway.send({
      type: 'session_credential',
      request_id: `c${round}`,
      grant,
      username: 'root',
      kind: 'linux',
    });
    return gateway.reply(`c${round}`);
  };

  beforeAll(async () => {
    t = await createTestApp();
    const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    admin = await signedIn(t);
    const lab = (await admin.post('/api/v1/network', { name: 'Lab' })).json().id as number;
    const key = await clusterKey(admin, lab);
    serverId = await addLinux(admin, lab, 'box', '127.0.0.1', ['root']);
    const wg = await createWorkgroup(admin, 'Pins');
    await addResourcesTo(admin, wg, [serverId]);
    const erin = await member(t, 'erin@demo.local');
    await addMembersTo(admin, wg, [erin.id]);
    // The fake gateway's hello names no host_key_pin, as a gateway before it.
    expect(HELLO.features).not.toContain('host_key_pin');
    gateway = fakeGateway(base, key);
    await gateway.welcomed();
    const made = await erin.client.post('/api/tunnel', {
      project_resource_id: await projectResourceId(admin, wg, serverId),
    });
    expect(made.statusCode, made.body).toBe(200);
    code = (made.json() as { code: string }).code;
  });
  afterAll(async () => {
    gateway.ws.close();
    await t.close();
  });

  it('gives the credential of a server with no pin', async () => {
    await pin(null);
    const answer = await credential();
    expect(answer).toMatchObject({ credential: { username: 'root', password: 'Secret#Pass1' } });
  });

  it('refuses the credential of a pinned server, saying the gateway needs an update', async () => {
    await pin(PIN);
    const answer = await credential();
    expect(answer.credential).toBeUndefined();
    expect(answer.refusal).toEqual({
      code: 'GatewayUpdateRequired',
      message:
        'The cluster’s gateway is too old for this; update the gateway: it cannot check the server’s pinned host key',
    });
  });

  it('starts no key task or connectivity test for a pinned server through it', async () => {
    await pin(PIN);
    const test = await admin.post('/api/service_connection_test', { resource_id: serverId });
    expect(test.json().code).toBe('GatewayUpdateRequired');
    await pin(null);
  });
});
