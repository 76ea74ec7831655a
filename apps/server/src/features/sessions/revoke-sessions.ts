/**
 * Revocation ends open sessions (ARCHITECTURE.md, "Revocation is live"): a live connection
 * whose code is disabled (deleted, or taken away when its member left the workgroup), gone
 * (deleted with its member, resource or workgroup, or with the resource's place in the
 * workgroup) or expired, or whose member is disabled or deleted, is cut at its gateway.
 *
 * One question, asked in two ways: right after the changes that revoke (code delete, member
 * disable or delete, workgroup removal, and deleting a resource, a workgroup or a resource's
 * place in one call cutRevokedSessions), and by a sweep every few
 * seconds for what nobody acts on (a code reaching its expiry). Limits: the sweep's period
 * bounds how late an expired code's session ends; a member losing a workgroup through a change
 * of team groups is caught only once their codes are disabled.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { nowSeconds } from '../../lib/time';
import { endConnectionsOfLostGateways } from './connections';
import { cutSessions } from './connections-service';

export const REVOKE_SWEEP_MS = 5_000;

/**
 * Revocation look-ups begun in this replica, counted before each one reads. A session start
 * that began before one and wrote its row after it (the look-up may have missed the row)
 * checks its own row (control.ts startSession), rather than stay open until the next sweep.
 */
let revocationLookups = 0;
export const revocationLookupCount = (): number => revocationLookups;

type RevokedReason = 'TunnelNotFound' | 'TunnelExpire' | 'AccountDisabled';
/** What a cut session's client is told (errors.ts): the code expired, or access went. */
type CutReason = 'AccessRevoked' | 'TunnelExpire' | 'AccountDisabled';

interface RevokedRow {
  tunnel_row: number | null;
  tunnel_status: string | null;
  expire_time: number | null;
}

/** Why a revoked connection's row is no longer allowed (the first that applies). */
function reasonOf(row: RevokedRow, now: number): RevokedReason {
  if (row.tunnel_row === null || row.tunnel_status !== 'enable') return 'TunnelNotFound';
  if (row.expire_time !== null && row.expire_time <= now) return 'TunnelExpire';
  return 'AccountDisabled';
}

/** Live connections (all, or the one `id`) whose code or member no longer allows them. */
function revokedConnections(ctx: AppContext, id?: number) {
  const now = nowSeconds();
  let query = ctx.db
    .selectFrom('tunnel_connection')
    .leftJoin('tunnel', 'tunnel.id', 'tunnel_connection.tunnel_id')
    .leftJoin('account', 'account.id', 'tunnel_connection.account_id')
    .select([
      'tunnel_connection.id',
      'tunnel.id as tunnel_row',
      'tunnel.status as tunnel_status',
      'tunnel.expire_time',
      'account.status as account_status',
    ])
    .where('tunnel_connection.ended_at', 'is', null)
    // A session without a code (none of the gateway's own) is not a code's to revoke.
    .where('tunnel_connection.tunnel_id', 'is not', null)
    .where((eb) =>
      eb.or([
        // The code went with what it belonged to: a member, a resource, a workgroup, or the
        // resource's place in the workgroup were deleted (their codes are deleted by cascade).
        eb('tunnel.id', 'is', null),
        eb('tunnel.status', '!=', 'enable'),
        eb('tunnel.expire_time', '<=', now),
        eb('account.id', 'is', null),
        eb('account.status', '!=', 0),
      ]),
    );
  if (id !== undefined) query = query.where('tunnel_connection.id', '=', id);
  return { query, now };
}

/**
 * Cuts every live session whose code or member no longer allows it; returns how many. Each
 * client is told why: its code expired (TunnelExpire), its member was disabled
 * (AccountDisabled), or the code was deleted or no longer reaches the resource (AccessRevoked;
 * "the code does not exist" would puzzle a member whose session was running on it).
 */
export async function cutRevokedSessions(ctx: AppContext): Promise<number> {
  revocationLookups += 1;
  const { query, now } = revokedConnections(ctx);
  const rows = await query.execute();
  const byReason = new Map<CutReason, number[]>();
  for (const row of rows) {
    const why = reasonOf(row, now);
    const reason: CutReason = why === 'TunnelNotFound' ? 'AccessRevoked' : why;
    let ids = byReason.get(reason);
    if (!ids) byReason.set(reason, (ids = []));
    ids.push(row.id);
  }
  for (const [reason, ids] of byReason) await cutSessions(ctx, ids, reason);
  return rows.length;
}

/** Why the live connection `id` is no longer allowed, or undefined while it is. */
export async function revokedReason(
  ctx: AppContext,
  id: number,
): Promise<RevokedReason | undefined> {
  const { query, now } = revokedConnections(ctx, id);
  const row = await query.executeTakeFirst();
  return row ? reasonOf(row, now) : undefined;
}

/**
 * Runs the sweep while the app is up (and ends the rows of gateway connections that are gone);
 * a run still going when the next is due is not doubled.
 */
export function startRevokeSweep(app: FastifyInstance, ctx: AppContext): void {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const cut = await cutRevokedSessions(ctx);
      if (cut > 0) app.log.info({ cut }, 'revoked sessions cut');
      // Rows whose gateway connection died with another replica (or went silent): the
      // gateway ended those sessions itself; nobody else is left to end their rows.
      const lost = await endConnectionsOfLostGateways(ctx, { unknown: false });
      if (lost > 0) app.log.info({ ended: lost }, 'sessions of lost gateway connections ended');
    } catch (err) {
      app.log.error({ err }, 'revoke sweep failed');
    } finally {
      running = false;
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void tick(), REVOKE_SWEEP_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
