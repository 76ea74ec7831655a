/**
 * Migration 020 on a database that predates it: terminal sessions stored as way `ssh` read as
 * the spec's `terminal`, in the rows, the action log and the alarm log's rows; other ways are
 * left as they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchTunnelReply } from '@portcullis/contract';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { migrationsFor } from './index';

describe('migration 020 (way terminal)', () => {
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    const row = (way: string, at: number) => ({
      company_id: 1,
      account_id: 1,
      created_at: at,
      ended_at: at + 5,
      way,
      client_ip: '',
      op: '',
      filename: '',
    });
    await t.ctx.db
      .insertInto('tunnel_connection')
      .values([row('ssh', 1_700_000_000), row('sftp', 1_700_000_001), row('wetty', 1_700_000_002)])
      .execute();
    const alarm = (way: string) => ({
      company_id: 1,
      log_type: 'alarm',
      event: 'notice',
      account_id: 1,
      account: 'admin@demo.local',
      admin: 1,
      user: '',
      group_name: '',
      net_name: '',
      resource_name: 'web-1',
      shared_company_name: '',
      project_name: 'Ops',
      project_account: '',
      con_ip: '127.0.0.1',
      way,
      command: 'sudo -l',
      notice_accounts: '[]',
      created_at: 1_700_000_000,
    });
    await t.ctx.db
      .insertInto('event_log')
      .values([alarm('ssh'), alarm('mysql')])
      .execute();
    await migrationsFor(t.ctx.dialect)['020-way-terminal']!.up(t.ctx.db);
  });
  afterAll(() => t.close());

  it('renames way ssh to terminal and leaves the others', async () => {
    const ways = await t.ctx.db
      .selectFrom('tunnel_connection')
      .select('way')
      .orderBy('created_at')
      .execute();
    expect(ways.map((r) => r.way)).toEqual(['terminal', 'sftp', 'wetty']);
    const res = await admin.get('/api/search_tunnel?way=terminal');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as SearchTunnelReply).data.map((e) => e.way)).toEqual(['terminal']);
    const alarms = await t.ctx.db
      .selectFrom('event_log')
      .select('way')
      .where('log_type', '=', 'alarm')
      .orderBy('id')
      .execute();
    expect(alarms.map((r) => r.way)).toEqual(['terminal', 'mysql']);
  });
});
