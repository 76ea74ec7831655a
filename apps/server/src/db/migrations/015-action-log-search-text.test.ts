/**
 * Migration 015 on a database that predates it: sessions already in tunnel_connection are
 * found by client address and file name once it has run (SQLite: backfilled into the trigram
 * index and the mark set past them; PostgreSQL: the pg_trgm indexes made).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchTunnelReply } from '@portcullis/contract';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { migrationsFor } from './index';

describe('migration 015 (action-log search text)', () => {
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    // As before 015: none of what it makes.
    if (t.ctx.dialect === 'sqlite') {
      await sql`drop table tunnel_connection_text`.execute(t.ctx.db);
      await sql`drop table tunnel_connection_text_mark`.execute(t.ctx.db);
    } else {
      await sql`drop index if exists tunnel_connection_client_ip_trgm`.execute(t.ctx.db);
      await sql`drop index if exists tunnel_connection_filename_trgm`.execute(t.ctx.db);
    }
    await t.ctx.db
      .insertInto('tunnel_connection')
      .values([
        // Same keys in both rows: SQLite has no DEFAULT in a VALUES list.
        {
          company_id: 1,
          account_id: 1,
          created_at: 1_700_000_000,
          ended_at: null,
          way: 'terminal',
          client_ip: '198.51.100.4',
          op: '',
          filename: '',
        },
        {
          company_id: 1,
          account_id: 1,
          created_at: 1_700_000_001,
          ended_at: 1_700_000_001,
          way: 'sftp',
          client_ip: '',
          op: 'upload',
          filename: 'backup-2026.tar.gz',
        },
      ])
      .execute();
    await migrationsFor(t.ctx.dialect)['015-action-log-search-text']!.up(t.ctx.db);
  });
  afterAll(() => t.close());

  it('indexes the sessions already there', async () => {
    if (t.ctx.dialect === 'sqlite') {
      const held = await sql<{ n: number }>`select count(*) as n from tunnel_connection_text
        where tunnel_connection_text match '"198.51.100" OR "backup-2026"'`.execute(t.ctx.db);
      expect(held.rows[0]!.n).toBe(2);
      const names = await sql<{ name: string }>`select name from sqlite_master
        where type = 'index' and tbl_name = 'tunnel_connection'`.execute(t.ctx.db);
      const made = names.rows.map((r) => r.name);
      expect(made).toContain('tunnel_connection_search');
      expect(made).not.toContain('tunnel_connection_company_time');
      expect(made).not.toContain('tunnel_connection_search_cover');
    } else {
      const names = await sql<{ name: string }>`select indexname as name from pg_indexes
        where tablename = 'tunnel_connection'`.execute(t.ctx.db);
      expect(names.rows.map((r) => r.name)).toEqual(
        expect.arrayContaining([
          'tunnel_connection_client_ip_trgm',
          'tunnel_connection_filename_trgm',
        ]),
      );
    }
  });

  it('lets the search find them by address and file name', async () => {
    for (const [keywords, n] of [
      ['198.51.100', 1],
      ['BACKUP-2026', 1],
      ['nowhere-at-all', 0],
    ] as const) {
      const res = await admin.get(`/api/search_tunnel?keywords=${keywords}`);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as SearchTunnelReply).total).toBe(n);
    }
  });
});
