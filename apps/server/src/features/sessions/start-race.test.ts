/**
 * A session start that races its gateway's disconnect: the gateway asks the server to start a
 * session and its channel closes before the answer (a network blip, the gateway stopping). The
 * gateway never hears of the session, so its row must not stay online. A fake gateway speaks
 * the control protocol to the real server.
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
import { fakeGateway } from './fake-gateway.test-helpers';

describe('a session start racing its gateway’s disconnect', () => {
  let t: TestApp;
  let base: string;
  let key: string;
  let code: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    const admin = await signedIn(t);
    const lab = (await admin.post('/api/v1/network', { name: 'Lab' })).json().id as number;
    key = await clusterKey(admin, lab);
    const server = await addLinux(admin, lab, 'box', '127.0.0.1', ['root']);
    const wg = await createWorkgroup(admin, 'Race');
    await addResourcesTo(admin, wg, [server]);
    const erin = await member(t, 'erin@demo.local');
    await addMembersTo(admin, wg, [erin.id]);
    // A code is made while a gateway of its cluster is connected; this one stays.
    await fakeGateway(base, key).welcomed();
    const made = await erin.client.post('/api/tunnel', {
      project_resource_id: await projectResourceId(admin, wg, server),
    });
    expect(made.statusCode, made.body).toBe(200);
    code = made.json().code as string;
  });
  afterAll(() => t.close());

  it('leaves no session online that no gateway carries', async () => {
    for (let round = 0; round < 5; round++) {
      const g = fakeGateway(base, key);
      await g.welcomed();
      g.send({ type: 'resolve_code', request_id: 'r', code, client_ip: '127.0.0.1' });
      const { grant } = await g.reply('r');
      g.send({
        type: 'session_credential',
        request_id: 'c',
        grant,
        username: 'root',
        kind: 'linux',
      });
      await g.reply('c');
      g.send({
        type: 'session_start',
        request_id: 's',
        grant,
        client_ip: '127.0.0.1',
        way: 'terminal',
      });
      g.ws.close();
      await g.closed;
    }
    // Before, on PostgreSQL every round left its row online for good.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const online = await t.ctx.db
      .selectFrom('tunnel_connection')
      .select('id')
      .where('ended_at', 'is', null)
      .execute();
    expect(online).toEqual([]);
  });
});
