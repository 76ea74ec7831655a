/**
 * The action log's query (spec 1 §7 GET /search_tunnel): a team's sessions, newest first, with
 * the spec's filters. An ordinary member reads only the sessions they made; the administrators
 * who see the Operation Log read the whole team's. Another team's sessions never match.
 *
 * Rows are mapped to the wire once here; the code is unsealed only to be masked.
 */
import { maskCode, Role, type ActionLogEntry, type SearchTunnelQuery } from '@portcullis/contract';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AppContext } from '../../context';
import { countRows } from '../../lib/paging';
import type { AuthContext } from '../../plugins/app/auth';

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

/** The matching sessions of the caller's team that the caller may read, unordered. */
export function matching(ctx: AppContext, auth: AuthContext, q: SearchTunnelQuery) {
  let base = ctx.db
    .selectFrom('tunnel_connection')
    .leftJoin('account', 'account.id', 'tunnel_connection.account_id')
    .leftJoin('resource', 'resource.id', 'tunnel_connection.resource_id')
    .leftJoin('tunnel', 'tunnel.id', 'tunnel_connection.tunnel_id')
    .where('tunnel_connection.company_id', '=', auth.company.id);
  if (auth.account.is_admin === Role.Ordinary)
    base = base.where('tunnel_connection.account_id', '=', auth.account.id);
  if (q.time_from !== undefined)
    base = base.where('tunnel_connection.created_at', '>=', q.time_from);
  if (q.time_end !== undefined) base = base.where('tunnel_connection.created_at', '<', q.time_end);
  if (q.resource_id !== undefined)
    base = base.where('tunnel_connection.resource_id', '=', q.resource_id);
  if (q.way) base = base.where('tunnel_connection.way', '=', q.way);
  if (q.account_name) base = base.where(like('account.name', q.account_name));
  if (q.resource_name) base = base.where(like('resource.name', q.resource_name));
  if (q.ip) {
    const ip = q.ip;
    base = base.where((eb) =>
      eb.or([like('resource.ip_address', ip), like('tunnel_connection.client_ip', ip)]),
    );
  }
  if (q.keywords) {
    const k = q.keywords;
    base = base.where((eb) =>
      eb.or(
        [
          'account.name',
          'resource.name',
          'resource.ip_address',
          'tunnel_connection.client_ip',
          'tunnel_connection.filename',
        ].map((c) => like(c, k)),
      ),
    );
  }
  if (q.unsafe_mode !== undefined) {
    // unsafe_mode 1: the code's security mode was off (safe_mode 0).
    base = base.where('tunnel.safe_mode', '=', q.unsafe_mode === 1 ? 0 : 1);
  }
  return base;
}

/** One page (or, for the export, the newest `limit`) of entries, and the whole match's count. */
export async function searchActionLog(
  ctx: AppContext,
  auth: AuthContext,
  q: SearchTunnelQuery,
  window: { limit: number; offset: number },
): Promise<{ total: number; data: ActionLogEntry[] }> {
  const base = matching(ctx, auth, q);
  const total = await countRows(base.select('tunnel_connection.id'));
  const rows = await base
    .select((eb) => [
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
      'account.name as account_name',
      'account.avatar',
      'resource.name as resource_name',
      'resource.ip_address as resource_ip',
      'tunnel.code_sealed',
      'tunnel.safe_mode',
      eb
        .selectFrom('agent')
        .select((a) => a.fn.max('agent.version').as('v'))
        .whereRef('agent.network_id', '=', 'resource.network_id')
        .as('agent_version'),
    ])
    .orderBy('tunnel_connection.created_at', 'desc')
    .orderBy('tunnel_connection.id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  const data = rows.map((r): ActionLogEntry => {
    const end = r.ended_at ?? 0;
    return {
      way: r.way,
      code: r.code_sealed ? maskCode(ctx.sealer.open(r.code_sealed)) : '',
      resource_id: r.resource_id,
      resource_name: r.resource_name ?? '',
      resource_ip_address: r.resource_ip ?? '',
      account_name: r.account_name ?? '',
      avatar: r.avatar ?? '',
      account_id: r.account_id,
      agent_version: r.agent_version ?? '',
      start_date: r.created_at,
      date: end,
      connection_id: r.id,
      // Terminal sessions only so far: no web RDP, no RDP geometry.
      guacamole: 0,
      rdp_width: 0,
      rdp_height: 0,
      client_ip_address: r.client_ip,
      unsafe_mode: r.safe_mode === 0 ? 1 : 0,
      play: r.recording !== 0 && end > r.created_at ? 1 : 0,
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
