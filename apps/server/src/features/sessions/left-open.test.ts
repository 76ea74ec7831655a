import { HEARTBEAT_GRACE_SECONDS } from '@portcullis/contract';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { nowSeconds } from '../../lib/time';
import { createTestApp, signedIn, type TestApp } from '../../test/harness';
import { endConnectionsOfLostGateways } from './connections';

/** The clusters of the test apps (a team may have only so many). */
const clusters = new WeakMap<TestApp, number>();

/** A gateway connection (agent row) of a cluster, heard from `seenAgo` s ago. */
async function agent(t: TestApp, seenAgo: number, disconnected = false): Promise<number> {
  let cluster = clusters.get(t);
  if (cluster === undefined) {
    const res = await (await signedIn(t)).post('/api/v1/network', { name: 'Lab' });
    expect(res.statusCode, res.body).toBe(200);
    clusters.set(t, (cluster = res.json().id as number));
  }
  const now = nowSeconds();
  const row = await t.ctx.db
    .insertInto('agent')
    .values({
      network_id: cluster,
      instance: `${Math.random()}`,
      version: '3.0.0',
      host: 'gw',
      ports: '{}',
      features: '[]',
      remote_ip: '127.0.0.1',
      connected_at: now - 60,
      last_seen_at: now - seenAgo,
      disconnected_at: disconnected ? now - 1 : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An online session row, carried by the gateway connection `agentId` (or none known). */
async function session(t: TestApp, agentId: number | null): Promise<number> {
  const admin = await t.ctx.db.selectFrom('account').select('id').executeTakeFirstOrThrow();
  const row = await t.ctx.db
    .insertInto('tunnel_connection')
    .values({
      company_id: 1,
      account_id: admin.id,
      created_at: 1_700_000_000,
      ended_at: null,
      tunnel_id: null,
      resource_id: null,
      agent_id: agentId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const endedAt = async (t: TestApp, id: number) =>
  (
    await t.ctx.db
      .selectFrom('tunnel_connection')
      .select('ended_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).ended_at;

describe('sessions a previous run of the server left online', () => {
  it('are ended when a server starts, unless their gateway connection is alive', async () => {
    const t = await createTestApp();
    // Killed with its server: nothing said which gateway carried it (a row from before 017).
    const unknown = await session(t, null);
    const gone = await session(t, await agent(t, 5, true));
    const silent = await session(t, await agent(t, HEARTBEAT_GRACE_SECONDS + 5));
    // Carried by a gateway connected to another replica, heard from a second ago.
    const alive = await session(t, await agent(t, 1));

    // Another replica starts on the same data (before, it ended every row, the live one too).
    const next = await buildApp(t.ctx.config);
    expect(await endedAt(t, unknown)).toBeGreaterThan(1_700_000_000);
    expect(await endedAt(t, gone)).toBeGreaterThan(1_700_000_000);
    expect(await endedAt(t, silent)).toBeGreaterThan(1_700_000_000);
    expect(await endedAt(t, alive)).toBeNull();
    await next.app.close();
    await t.close();
  });

  it('are ended by the sweep once their gateway connection goes silent', async () => {
    const t = await createTestApp();
    const gateway = await agent(t, 1);
    const row = await session(t, gateway);
    const unknown = await session(t, null);
    expect(await endConnectionsOfLostGateways(t.ctx, { unknown: false })).toBe(0);
    // The replica it was connected to died: nobody marks it disconnected, it just goes quiet.
    const lastHeard = nowSeconds() - HEARTBEAT_GRACE_SECONDS - 1;
    await t.ctx.db
      .updateTable('agent')
      .set({ last_seen_at: lastHeard })
      .where('id', '=', gateway)
      .execute();
    expect(await endConnectionsOfLostGateways(t.ctx, { unknown: false })).toBe(1);
    // Ended when its gateway was last heard from, not now (the outage is not session time).
    expect(await endedAt(t, row)).toBe(lastHeard);
    // A row that names no gateway connection is left to the start-up.
    expect(await endedAt(t, unknown)).toBeNull();
    await t.close();
  });

  it('keeps the rows of a gateway heard from within the grace, however short its watchdog', async () => {
    // A watchdog of 1 s (GATEWAY_SILENCE_SECONDS): heartbeats still come only every 10 s.
    const t = await createTestApp({ GATEWAY_SILENCE_SECONDS: '1' });
    const row = await session(t, await agent(t, 12));
    // Before, a gateway not heard from for longer than the watchdog lost its rows to the sweep.
    expect(await endConnectionsOfLostGateways(t.ctx, { unknown: false })).toBe(0);
    expect(await endedAt(t, row)).toBeNull();
    await t.close();
  });
});
