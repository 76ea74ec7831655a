/**
 * The gateway version each action-log entry carries: its cluster's newest gateway connection,
 * compared by when it connected and not as text (where `3.9.0` sorts above `3.10.0`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchTunnelReply } from '@portcullis/contract';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { addLinux, createCluster } from '../workgroups/test-fixtures';

const T0 = 1_700_000_000;

describe('agent_version of action-log entries', () => {
  let t: TestApp;
  let admin: TestClient;

  /** A gateway connection of the cluster, connected at `connectedAt`, gone an hour later. */
  const agent = (networkId: number, version: string, connectedAt: number) =>
    t.ctx.db
      .insertInto('agent')
      .values({
        network_id: networkId,
        instance: `test-${networkId}-${version}-${connectedAt}-${Math.random()}`,
        version,
        host: 'gw.example.test',
        ports: '{}',
        features: '[]',
        remote_ip: '127.0.0.1',
        connected_at: connectedAt,
        last_seen_at: connectedAt + 3600,
        disconnected_at: connectedAt + 3600,
      })
      .execute();

  const session = (resourceId: number | null, createdAt: number) =>
    t.ctx.db
      .insertInto('tunnel_connection')
      .values({
        company_id: 1,
        account_id: 1,
        resource_id: resourceId,
        created_at: createdAt,
        ended_at: createdAt + 60,
        way: 'terminal',
        client_ip: '192.168.1.7',
      })
      .execute();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    // Upgraded from 3.9.0 to 3.10.0: the text max() said 3.9.0.
    const upgraded = await createCluster(admin, 'upgraded');
    await agent(upgraded.id, '3.9.0', T0);
    await agent(upgraded.id, '3.10.0', T0 + 7200);
    await session(await addLinux(admin, upgraded.id, 'up-1', '10.0.1.1'), T0 + 1);
    // Rolled back from 3.12.1, then two connections in the same second: the later row is the
    // newer one (neither the text max, 3.9.9, nor the highest, 3.12.1).
    const rolledBack = await createCluster(admin, 'rolled-back');
    await agent(rolledBack.id, '3.12.1', T0);
    await agent(rolledBack.id, '3.9.9', T0 + 7200);
    await agent(rolledBack.id, '3.11.0', T0 + 7200);
    await session(await addLinux(admin, rolledBack.id, 'back-1', '10.0.2.1'), T0 + 2);
    // A resource of no cluster any more (deleted): no version.
    await session(null, T0 + 3);
  });
  afterAll(() => t.close());

  it("is the version of the cluster's newest gateway connection", async () => {
    const res = await admin.get('/api/search_tunnel');
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json() as SearchTunnelReply;
    expect(data.map((e) => [e.resource_name, e.agent_version])).toEqual([
      ['', ''],
      ['back-1', '3.11.0'],
      ['up-1', '3.10.0'],
    ]);
  });
});
