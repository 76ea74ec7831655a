/**
 * Keyword search of the action log (spec 1 §7 GET /search_tunnel) over a million sessions. The
 * keyword is a contains-match over the member's and the resource's names (small tables, turned
 * into id sets by the query) and over the session's own client address and file name, which no
 * B-tree serves: a scan of every session of the team, seconds at a million (bench/RESULTS.md).
 * This migration indexes those two columns by trigrams.
 *
 * - SQLite: an FTS5 trigram table (contentless: it holds the index only, rowid = the session's
 *   id) and a one-row mark of the last session it holds. Sessions are written by the gateway's
 *   reports and their address and file name never change, so the search brings the index up to
 *   date before it reads it (features/action-logs syncSearchText): no trigger. Backfilled here.
 *   014's covering index is widened by the two text columns, so that a keyword too short for
 *   trigrams (one or two characters) is tested on the index alone (1.3 s → 0.3-0.4 s at a
 *   million), and replaces both 014's and 012's (company_id, created_at) index, which start
 *   with the same two columns: while the narrower one existed, SQLite walked it for a page
 *   newest first and read each session's row to test the member and resource terms of a
 *   keyword (a keyword that matches nothing: 4 s at a million, 0.15 s through the cover).
 * - PostgreSQL: pg_trgm GIN indexes on lower(client_ip) and lower(filename), which serve the
 *   query's `lower(…) like '%…%'` as it is. Where the extension cannot be made (not installed,
 *   or the role may not create it) the indexes are skipped and the search still answers, by a
 *   scan.
 */
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  if (ctx.dialect === 'sqlite') {
    await sql`create virtual table if not exists tunnel_connection_text
      using fts5(client_ip, filename, content='', tokenize='trigram')`.execute(db);
    await sql`create table if not exists tunnel_connection_text_mark (last_id integer not null)`.execute(
      db,
    );
    await sql`delete from tunnel_connection_text_mark`.execute(db);
    await sql`insert into tunnel_connection_text (rowid, client_ip, filename)
      select id, client_ip, filename from tunnel_connection`.execute(db);
    await sql`insert into tunnel_connection_text_mark (last_id)
      select coalesce(max(id), 0) from tunnel_connection`.execute(db);
    await db.schema
      .createIndex('tunnel_connection_search')
      .ifNotExists()
      .on('tunnel_connection')
      .columns([
        'company_id',
        'created_at',
        'account_id',
        'resource_id',
        'tunnel_id',
        'client_ip',
        'filename',
      ])
      .execute();
    await db.schema.dropIndex('tunnel_connection_search_cover').ifExists().execute();
    await db.schema.dropIndex('tunnel_connection_company_time').ifExists().execute();
    return;
  }
  if (!(await trigramsAvailable(db))) return;
  for (const column of ['client_ip', 'filename']) {
    await sql`create index if not exists ${sql.id(`tunnel_connection_${column}_trgm`)}
      on tunnel_connection using gin (lower(${sql.ref(column)}) gin_trgm_ops)`.execute(db);
  }
}

/**
 * Makes pg_trgm if it can. The migrator runs this in a transaction, so a refused CREATE
 * EXTENSION is rolled back to a savepoint rather than failing the whole migration (run alone,
 * it makes a transaction of its own for the savepoint).
 */
async function trigramsAvailable(db: AnyDb): Promise<boolean> {
  const offered = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions
    where name = 'pg_trgm'`.execute(db);
  if ((offered.rows[0]?.n ?? 0) === 0) return false;
  if (!db.isTransaction) return db.transaction().execute((trx) => trigramsAvailable(trx));
  await sql`savepoint portcullis_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`release savepoint portcullis_trgm`.execute(db);
    return true;
  } catch {
    await sql`rollback to savepoint portcullis_trgm`.execute(db);
    return false;
  }
}
