/**
 * A covering index for the action log (spec 1 §7 GET /search_tunnel) over a large table. The
 * search joins every session to its member, resource and code, and counts the whole match
 * before it reads a page. On SQLite that count walks the team's rows in the table itself to
 * find the join keys (tunnel_id is in no index of 012), one random page read per session: with
 * a million entries, seconds (bench/RESULTS.md). With the join keys in one index ordered like
 * the team's time index, the count reads only this index, in order: no filter 2.4 s → 0.47 s,
 * member name 4.8 s → 0.46 s on a million entries.
 *
 * SQLite only. PostgreSQL drops the unused joins from the count and already answers those
 * filters in a fraction of a second; there the same index made the keyword searches slower
 * (1.2-1.4 s → 1.6-2.5 s, its planner walking it instead of the table), so it is not made.
 * Keyword searches (contains-matches over four joined columns) stay slow on both: no B-tree
 * serves them, and the fix belongs in the query (see bench/RESULTS.md).
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  if (ctx.dialect !== 'sqlite') return;
  await db.schema
    .createIndex('tunnel_connection_search_cover')
    .ifNotExists()
    .on('tunnel_connection')
    .columns(['company_id', 'created_at', 'account_id', 'resource_id', 'tunnel_id'])
    .execute();
}
