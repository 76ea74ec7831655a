/**
 * Online connections (tunnel_connection rows): one per session a gateway opened, ended_at set
 * when it ends. Which gateway socket carries which session is kept in memory, so the server can
 * cut a session and end the rows of a gateway that went away.
 * Limits: with several replicas, a cut for a session carried through another replica needs
 * Redis pub/sub (not built yet); the row alone does not say which gateway carries it.
 */
import type { AppContext } from '../../context';
import { prepared } from '../../db/prepared';
import { nowSeconds } from '../../lib/time';
import type { Grant } from './grants';

/** How the session was made, as the gateway's session_start says (shown in the online list). */
export interface ConnectionOrigin {
  way: string;
  clientIp: string;
}

// Built once (db/prepared.ts): one of each per session.
const insertConnection = prepared(
  ['company', 'account', 'at', 'tunnel', 'resource', 'way', 'ip'],
  (db, v) =>
    db
      .insertInto('tunnel_connection')
      .values({
        company_id: v.company,
        account_id: v.account,
        created_at: v.at,
        ended_at: null,
        tunnel_id: v.tunnel,
        resource_id: v.resource,
        way: v.way,
        client_ip: v.ip,
      })
      .returning('id'),
);

const endOne = prepared(['id', 'at'], (db, v) =>
  db
    .updateTable('tunnel_connection')
    .set({ ended_at: v.at })
    .where('id', '=', v.id)
    .where('ended_at', 'is', null),
);

export async function openConnection(
  ctx: AppContext,
  grant: Grant,
  origin: ConnectionOrigin,
): Promise<number> {
  const { resolved } = grant;
  const row = await insertConnection.first(ctx.db, {
    company: resolved.company_id,
    account: resolved.account.id,
    at: nowSeconds(),
    tunnel: resolved.tunnel_id,
    resource: resolved.resource.id,
    way: origin.way,
    ip: origin.clientIp,
  });
  if (!row) throw new Error('the new connection row has no id');
  return row.id;
}

export async function endConnections(ctx: AppContext, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  if (ids.length === 1) {
    await endOne.execute(ctx.db, { id: ids[0], at: nowSeconds() });
    return;
  }
  await ctx.db
    .updateTable('tunnel_connection')
    .set({ ended_at: nowSeconds() })
    .where('id', 'in', ids)
    .where('ended_at', 'is', null)
    .execute();
}

/**
 * At start-up no gateway is connected yet, so no session is online: rows a previous run left
 * open (it crashed or was killed before it could end them) are ended. Their gateways ended the
 * sessions themselves when the control channel went (gateway control/session-requests.ts); left
 * open, the rows stayed online for ever and a cut of them answered ok and reached nobody.
 * Returns how many there were.
 */
export async function endConnectionsLeftOpen(ctx: AppContext): Promise<number> {
  const result = await ctx.db
    .updateTable('tunnel_connection')
    .set({ ended_at: nowSeconds() })
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
