/**
 * A session start that races a revocation: the gateway resolved the code (its grant lives a
 * minute), then the member deletes the code, then the gateway starts the session. The deletion
 * looked for the code's live sessions before this one had a row, so the start itself must see
 * that the code is gone, not leave the session open until the next sweep. A fake gateway
 * speaks the control protocol to the real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp } from '../../test/harness';
import {
  addLinux,
  addMembersTo,
  addResourcesTo,
  clusterKey,
  createWorkgroup,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';
import { fakeGateway, type FakeGateway } from './fake-gateway.test-helpers';
import { cutRevokedSessions } from './revoke-sessions';

describe('a session start racing the deletion of its code', () => {
  let t: TestApp;
  let gateway: FakeGateway;
  let newCode: () => Promise<{ id: number; code: string }>;
  let deleteCode: (id: number) => Promise<void>;

  const send = (m: object) => gateway.send(m);
  const reply = (id: string) => gateway.reply(id);
  const online = () =>
    t.ctx.db.selectFrom('tunnel_connection').select('id').where('ended_at', 'is', null).execute();

  beforeAll(async () => {
    t = await createTestApp();
    const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    const admin = await signedIn(t);
    const lab = (await admin.post('/api/v1/network', { name: 'Lab' })).json().id as number;
    const key = await clusterKey(admin, lab);
    const server = await addLinux(admin, lab, 'box', '127.0.0.1', ['root']);
    const wg = await createWorkgroup(admin, 'Race');
    await addResourcesTo(admin, wg, [server]);
    const erin = await member(t, 'erin@demo.local');
    await addMembersTo(admin, wg, [erin.id]);

    gateway = fakeGateway(base, key);
    await gateway.welcomed();
    const projectResource = await projectResourceId(admin, wg, server);
    newCode = async () => {
      const made = await erin.client.post('/api/tunnel', { project_resource_id: projectResource });
      expect(made.statusCode, made.body).toBe(200);
      return made.json() as { id: number; code: string };
    };
    deleteCode = async (id) => {
      const res = await erin.client.patch(`/api/tunnel/${id}`, { status: 'disable' });
      expect(res.statusCode, res.body).toBe(200);
    };
  });
  afterAll(async () => {
    gateway.ws.close();
    await t.close();
  });

  it('refuses the session rather than open it on a deleted code', async () => {
    const { id, code } = await newCode();
    send({ type: 'resolve_code', request_id: 'r', code, client_ip: '127.0.0.1' });
    const { grant } = await reply('r');
    send({ type: 'session_credential', request_id: 'c', grant, username: 'root', kind: 'linux' });
    await reply('c');
    await deleteCode(id);
    send({
      type: 'session_start',
      request_id: 's',
      grant,
      client_ip: '127.0.0.1',
      way: 'terminal',
    });
    // Before, the session started and stayed online until the sweep, up to 5 s later.
    expect(await reply('s')).toMatchObject({ refusal: { code: 'TunnelNotFound' } });
    expect(await online()).toEqual([]);
  });

  it('still starts a session when a revocation look-up overlaps it but its code stands', async () => {
    const { code } = await newCode();
    send({ type: 'resolve_code', request_id: 'r2', code, client_ip: '127.0.0.1' });
    const { grant } = await reply('r2');
    send({ type: 'session_credential', request_id: 'c2', grant, username: 'root', kind: 'linux' });
    await reply('c2');
    expect(await cutRevokedSessions(t.ctx)).toBe(0); // what any other revocation runs
    send({
      type: 'session_start',
      request_id: 's2',
      grant,
      client_ip: '127.0.0.1',
      way: 'terminal',
    });
    expect(await reply('s2')).toMatchObject({ connection_id: expect.any(Number) });
    expect(await online()).toHaveLength(1);
  });
});
