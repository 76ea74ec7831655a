/**
 * The action log's query (spec 1 §7 GET /search_tunnel): a team's sessions, newest first, with
 * the spec's filters. An ordinary member reads only the sessions they made; the administrators
 * who see the Operation Log read the whole team's. Another team's sessions never match.
 *
 * Rows are mapped to the wire once here; the code is unsealed only to be masked. A member,
 * resource or code deleted since reads, and is found, by what it was when deleted
 * (former-identities.ts, migration 019).
 */
import { maskCode, Role, type ActionLogEntry, type SearchTunnelQuery } from '@portcullis/contract';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AppContext } from '../../context';
import { countRows } from '../../lib/paging';
import type { AuthContext } from '../../plugins/app/auth';
import { formerIdentities } from './former-identities';

/** `%text%` for LIKE, with the wildcards in the member's text taken literally. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A case-blind contains-match. Kysely's `like` has no ESCAPE clause, so the fragment is written
 * out; SQLite and PostgreSQL both read `ESCAPE '\'` (one backslash) the same way.
 */
function like(column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${contains(text.toLowerCase())} escape '\\'`;
}

/**
 * `column` is one of the ids the subquery selects. On PostgreSQL the ids are gathered first
 * (`= any(array(…))`, an InitPlan) so that the term can be an index condition, also inside an
 * OR; SQLite probes the subquery's ids as a set either way.
 */
function idIn(ctx: AppContext, column: string, ids: RawBuilder<unknown>): RawBuilder<SqlBool> {
  return ctx.dialect === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} = any(array(${ids}))`
    : sql<SqlBool>`${sql.ref(column)} in (${ids})`;
}

/**
 * Members whose name contains the text (any team: the session's own team bounds the match),
 * live or deleted: a deleted member's sessions are found by the name they had (migration 019).
 * Both tables are small beside the sessions, and the ids they give are index terms.
 */
function accountsNamed(ctx: AppContext, text: string): RawBuilder<unknown> {
  return sql`${ctx.db
    .selectFrom('account')
    .select('account.id')
    .where(like('account.name', text))
    .unionAll(
      ctx.db
        .selectFrom('former_identity')
        .select('former_identity.id')
        .where('former_identity.kind', '=', 'account')
        .where(like('former_identity.name', text)),
    )}`;
}

/** Resources, live or deleted, whose name, address or either contains the text. */
function resourcesMatching(
  ctx: AppContext,
  text: string,
  columns: ('name' | 'ip_address')[],
): RawBuilder<unknown> {
  return sql`${ctx.db
    .selectFrom('resource')
    .select('resource.id')
    .where((eb) => eb.or(columns.map((c) => like(`resource.${c}`, text))))
    .unionAll(
      ctx.db
        .selectFrom('former_identity')
        .select('former_identity.id')
        .where('former_identity.kind', '=', 'resource')
        .where((eb) => eb.or(columns.map((c) => like(`former_identity.${c}`, text)))),
    )}`;
}

/**
 * The session's own text columns (client address, file name) contain the text. On SQLite the
 * candidates come from the trigram index of migration 015 (brought up to date first, see
 * syncSearchText) and are checked with the same LIKE, so the match is exactly the LIKE's; a
 * text under three characters has no trigram and is matched row by row. On PostgreSQL the
 * LIKE itself is served by the pg_trgm indexes of 015 where the extension exists.
 */
function rowTextMatches(
  ctx: AppContext,
  text: string,
  columns: ('client_ip' | 'filename')[],
): RawBuilder<SqlBool> {
  const check = (table: string): RawBuilder<SqlBool> =>
    sql<SqlBool>`(${sql.join(
      columns.map((c) => like(`${table}.${c}`, text)),
      sql` or `,
    )})`;
  if (ctx.dialect !== 'sqlite' || [...text].length < 3) return check('tunnel_connection');
  // An FTS5 phrase: the text in double quotes, inner quotes doubled; trigram phrases match
  // substrings, case folded.
  const phrase = `{${columns.join(' ')}} : "${text.replace(/"/g, '""')}"`;
  return sql<SqlBool>`tunnel_connection.id in (select t.id from ${sql.table(SEARCH_TEXT)}
    join tunnel_connection as t on t.id = ${sql.ref(`${SEARCH_TEXT}.rowid`)}
    where ${sql.table(SEARCH_TEXT)} match ${phrase} and ${check('t')})`;
}

/** The SQLite trigram index of the sessions' own text columns (migration 015). */
export const SEARCH_TEXT = 'tunnel_connection_text';
/** The last tunnel_connection id that SEARCH_TEXT holds (one row). */
export const SEARCH_TEXT_MARK = 'tunnel_connection_text_mark';

/**
 * Brings the SQLite trigram index up to the newest session. Sessions are written by the
 * gateway's reports (features/sessions) and their client address and file name never change
 * after the insert, so the index is append-only: the rows above the mark are added and the mark
 * moves, in one transaction. Ids only grow (AUTOINCREMENT), so nothing is skipped; a deleted
 * session left in the index matches no row. No-op on PostgreSQL.
 */
export async function syncSearchText(ctx: AppContext): Promise<void> {
  if (ctx.dialect !== 'sqlite') return;
  await ctx.db.transaction().execute(async (trx) => {
    const mark = await sql<{ last_id: number }>`select last_id from ${sql.table(SEARCH_TEXT_MARK)}`
      .execute(trx)
      .then((r) => r.rows[0]?.last_id ?? 0);
    const newest = await trx
      .selectFrom('tunnel_connection')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const last = newest?.id ?? 0;
    if (last <= mark) return;
    await sql`insert into ${sql.table(SEARCH_TEXT)} (rowid, client_ip, filename)
      select id, client_ip, filename from tunnel_connection where id > ${mark} and id <= ${last}`.execute(
      trx,
    );
    await sql`update ${sql.table(SEARCH_TEXT_MARK)} set last_id = ${last}`.execute(trx);
  });
}

/**
 * The matching sessions of the caller's team that the caller may read, unordered, from
 * tunnel_connection alone: the member, resource and code filters are id sets (a session's
 * member, resource and code are each one row, so this is the same match as filtering a join),
 * and the count needs no join at all. A caller with a keyword or an address brings the SQLite
 * trigram index up to date first (syncSearchText), as searchActionLog does.
 */
export function matching(ctx: AppContext, auth: AuthContext, q: SearchTunnelQuery) {
  const team = auth.company.id;
  let base = ctx.db
    .selectFrom('tunnel_connection')
    .where('tunnel_connection.company_id', '=', team);
  if (auth.account.is_admin === Role.Ordinary)
    base = base.where('tunnel_connection.account_id', '=', auth.account.id);
  if (q.time_from !== undefined)
    base = base.where('tunnel_connection.created_at', '>=', q.time_from);
  if (q.time_end !== undefined) base = base.where('tunnel_connection.created_at', '<', q.time_end);
  if (q.resource_id !== undefined)
    base = base.where('tunnel_connection.resource_id', '=', q.resource_id);
  if (q.way) base = base.where('tunnel_connection.way', '=', q.way);
  if (q.account_name)
    base = base.where(
      idIn(ctx, 'tunnel_connection.account_id', accountsNamed(ctx, q.account_name)),
    );
  if (q.resource_name) {
    const named = resourcesMatching(ctx, q.resource_name, ['name']);
    base = base.where(idIn(ctx, 'tunnel_connection.resource_id', named));
  }
  if (q.ip) {
    const ip = q.ip;
    const at = resourcesMatching(ctx, ip, ['ip_address']);
    base = base.where((eb) =>
      eb.or([
        idIn(ctx, 'tunnel_connection.resource_id', at),
        rowTextMatches(ctx, ip, ['client_ip']),
      ]),
    );
  }
  if (q.keywords) {
    const k = q.keywords;
    const resources = resourcesMatching(ctx, k, ['name', 'ip_address']);
    // The team term is repeated inside the id arms so that PostgreSQL can serve each arm of
    // the OR with a (company_id, …) index.
    base = base.where((eb) =>
      eb.or([
        eb.and([
          eb('tunnel_connection.company_id', '=', team),
          idIn(ctx, 'tunnel_connection.account_id', accountsNamed(ctx, k)),
        ]),
        eb.and([
          eb('tunnel_connection.company_id', '=', team),
          idIn(ctx, 'tunnel_connection.resource_id', resources),
        ]),
        rowTextMatches(ctx, k, ['client_ip', 'filename']),
      ]),
    );
  }
  if (q.unsafe_mode !== undefined) {
    // unsafe_mode 1: the session ran without security mode (safe_mode 0), as it started.
    base = base.where('tunnel_connection.safe_mode', '=', q.unsafe_mode === 1 ? 0 : 1);
  }
  return base;
}

/**
 * A text match under this many rows per row of the page (offset included) is read by a sort
 * rather than a walk of the time index (PostgreSQL): below it, a walk that finds matches at
 * that density would pass tens of thousands of rows.
 */
const SPARSE_MATCH = 50;

/**
 * The version of each cluster's newest gateway connection (the agent row connected last; the
 * later id breaks a tie), in one query for a whole page or export. The newest, not the highest:
 * `max()` over the text put `3.9.0` above `3.10.0`, and a cluster rolled back to an older
 * gateway runs that one. Each cluster's rows are reached through the agent_network_live index.
 */
async function newestAgentVersions(
  ctx: AppContext,
  networkIds: number[],
): Promise<Map<number, string>> {
  if (networkIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('network')
    .where('network.id', 'in', [...new Set(networkIds)])
    .select((eb) => [
      'network.id',
      eb
        .selectFrom('agent')
        .select('agent.version')
        .whereRef('agent.network_id', '=', 'network.id')
        .orderBy('agent.connected_at', 'desc')
        .orderBy('agent.id', 'desc')
        .limit(1)
        .as('version'),
    ])
    .execute();
  return new Map(rows.flatMap((r) => (r.version === null ? [] : [[r.id, r.version]])));
}

/** One page (or, for the export, the newest `limit`) of entries, and the whole match's count. */
export async function searchActionLog(
  ctx: AppContext,
  auth: AuthContext,
  q: SearchTunnelQuery,
  window: { limit: number; offset: number },
): Promise<{ total: number; data: ActionLogEntry[] }> {
  if (q.keywords || q.ip) await syncSearchText(ctx);
  const base = matching(ctx, auth, q);
  const total = await countRows(base.select('tunnel_connection.id'));
  if (total <= window.offset) return { total, data: [] };
  // The page's ids from tunnel_connection alone, newest first, then the joins for those rows
  // only. Given a text term, PostgreSQL walks the time index backwards testing each row until
  // the page is full: quick while matches are dense, but through the whole team for a rare one
  // (2 s at a million). When the match is small beside the rows the page needs, ordering by an
  // expression keeps it on the indexed match and a top-N sort, which costs about what the count
  // just did.
  const sparse =
    ctx.dialect === 'postgres' &&
    Boolean(q.keywords || q.ip) &&
    total < SPARSE_MATCH * (window.offset + window.limit);
  const time = sparse
    ? sql`${sql.ref('tunnel_connection.created_at')} + 0`
    : sql.ref('tunnel_connection.created_at');
  const page = base
    .select('tunnel_connection.id')
    .orderBy(time, 'desc')
    .orderBy('tunnel_connection.id', 'desc')
    .limit(window.limit)
    .offset(window.offset);
  const rows = await ctx.db
    .selectFrom('tunnel_connection')
    .leftJoin('account', 'account.id', 'tunnel_connection.account_id')
    .leftJoin('resource', 'resource.id', 'tunnel_connection.resource_id')
    .leftJoin('tunnel', 'tunnel.id', 'tunnel_connection.tunnel_id')
    .where('tunnel_connection.id', 'in', page)
    .select([
      'tunnel_connection.id',
      'tunnel_connection.created_at',
      'tunnel_connection.ended_at',
      'tunnel_connection.way',
      'tunnel_connection.client_ip',
      'tunnel_connection.resource_id',
      'tunnel_connection.account_id',
      'tunnel_connection.recording',
      'tunnel_connection.op',
      'tunnel_connection.filename',
      'tunnel_connection.parent_id',
      'tunnel_connection.tunnel_id',
      'account.name as account_name',
      'account.avatar',
      'resource.name as resource_name',
      'resource.ip_address as resource_ip',
      'tunnel.code_sealed',
      'tunnel_connection.safe_mode',
      'resource.network_id',
    ])
    .orderBy('tunnel_connection.created_at', 'desc')
    .orderBy('tunnel_connection.id', 'desc')
    .execute();
  // A member, resource or code deleted since reads as it was when deleted (migration 019);
  // asked for only when the page holds one, by primary key.
  const former = await formerIdentities(ctx, {
    account: rows.flatMap((r) => (r.account_name === null ? [r.account_id] : [])),
    resource: rows.flatMap((r) =>
      r.resource_name === null && r.resource_id !== null ? [r.resource_id] : [],
    ),
    tunnel: rows.flatMap((r) =>
      r.code_sealed === null && r.tunnel_id !== null ? [r.tunnel_id] : [],
    ),
  });
  const versions = await newestAgentVersions(
    ctx,
    rows.flatMap((r) => {
      const network = r.network_id ?? former.resource.get(r.resource_id ?? 0)?.network_id;
      return network === null || network === undefined ? [] : [network];
    }),
  );
  const data = rows.map((r): ActionLogEntry => {
    const gone = {
      account: former.account.get(r.account_id),
      resource: r.resource_id === null ? undefined : former.resource.get(r.resource_id),
      tunnel: r.tunnel_id === null ? undefined : former.tunnel.get(r.tunnel_id),
    };
    const network = r.network_id ?? gone.resource?.network_id ?? null;
    const end = r.ended_at ?? 0;
    return {
      way: r.way,
      code: r.code_sealed ? maskCode(ctx.sealer.open(r.code_sealed)) : (gone.tunnel?.name ?? ''),
      resource_id: r.resource_id,
      resource_name: r.resource_name ?? gone.resource?.name ?? '',
      resource_ip_address: r.resource_ip ?? gone.resource?.ip_address ?? '',
      account_name: r.account_name ?? gone.account?.name ?? '',
      avatar: r.avatar ?? '',
      account_id: r.account_id,
      agent_version: network === null ? '' : (versions.get(network) ?? ''),
      start_date: r.created_at,
      date: end,
      connection_id: r.id,
      // Terminal sessions only so far: no web RDP, no RDP geometry.
      guacamole: 0,
      rdp_width: 0,
      rdp_height: 0,
      client_ip_address: r.client_ip,
      unsafe_mode: r.safe_mode === 0 ? 1 : 0,
      // A recording of an ended session, whatever its length: one that began and ended in the
      // same second (`ssh host uptime`, a one-query psql) still downloads. Whether it has
      // anything to play back is the console's call (end after start, spec 1 §2.7).
      play: r.recording !== 0 && end !== 0 ? 1 : 0,
      // File-log entries (migration 013) carry the direction and the file name.
      ...((r.op === 'download' || r.op === 'upload') && {
        op: r.op,
        filename: r.filename,
        ...(r.parent_id !== null && { parent_connection_id: r.parent_id }),
      }),
    };
  });
  return { total, data };
}
