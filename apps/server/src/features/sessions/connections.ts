/**
 * Online connections (tunnel_connection rows): one per session a gateway opened, ended_at set
 * when it ends. Which gateway socket carries which session is kept in memory, so the server can
 * cut a session and end the rows of a gateway that went away.
 * Limits: with several replicas, a cut for a session carried through another replica needs
 * Redis pub/sub (not built yet); the row alone does not say which gateway carries it.
 */
import type { AppContext } from '../../context';
import { nowSeconds } from '../../lib/time';
import type { Grant } from './grants';

/** How the session was made, as the gateway's session_start says (shown in the online list). */
export interface ConnectionOrigin {
  way: string;
  clientIp: string;
}

export async function openConnection(
  ctx: AppContext,
  grant: Grant,
  origin: ConnectionOrigin,
): Promise<number> {
  const row = await ctx.db
    .insertInto('tunnel_connection')
    .values({
      company_id: grant.resolved.company_id,
      account_id: grant.resolved.account.id,
      created_at: nowSeconds(),
      ended_at: null,
      tunnel_id: grant.resolved.tunnel_id,
      resource_id: grant.resolved.resource.id,
      way: origin.way,
      client_ip: origin.clientIp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function endConnections(ctx: AppContext, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await ctx.db
    .updateTable('tunnel_connection')
    .set({ ended_at: nowSeconds() })
    .where('id', 'in', ids)
    .where('ended_at', 'is', null)
    .execute();
}
