/**
 * A cluster's setting tab: sharing with other teams (who see it read-only and may return it),
 * log filters, and safe mode for servers (switches, approvers, notifiers, intercept and notice
 * commands). Enforcement of safe mode lives with the sessions; this is its configuration.
 */
import { TERMINAL_WAYS } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { findCompanyByDomain } from '../accounts';
import { writeEvent } from '../events/writer';
import { openSessionIds } from '../sessions/connections';
import { cutSessions } from '../sessions/connections-service';
import { teamCluster, visibleCluster } from './service';

/** The cluster as its owner or as a team it is shared with sees it. */
export async function listShares(ctx: AppContext, auth: AuthContext, networkId: number) {
  const network = await teamCluster(ctx, auth, networkId);
  const rows = await ctx.db
    .selectFrom('network_share')
    .innerJoin('company', 'company.id', 'network_share.company_id')
    .select(['network_share.id', 'network_share.created_at', 'company.domain', 'company.full_name'])
    .where('network_share.network_id', '=', network.id)
    .orderBy('network_share.created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    company: { domain: r.domain, full_name: r.full_name },
    create_time: r.created_at,
  }));
}

export async function shareCluster(
  ctx: AppContext,
  auth: AuthContext,
  networkId: number,
  domain: string,
) {
  const network = await teamCluster(ctx, auth, networkId);
  const other = await findCompanyByDomain(ctx, domain);
  if (!other || other.id === auth.company.id) throw new AppError('NetworkCannotShare');
  const exists = await ctx.db
    .selectFrom('network_share')
    .select('id')
    .where('network_id', '=', network.id)
    .where('company_id', '=', other.id)
    .executeTakeFirst();
  if (exists) throw new AppError('NetworkAlreadyShared');
  await ctx.db
    .insertInto('network_share')
    .values({ network_id: network.id, company_id: other.id, created_at: nowSeconds() })
    .execute()
    .catch((error: unknown) => {
      if (/unique|duplicate/i.test(String((error as Error).message)))
        throw new AppError('NetworkAlreadyShared');
      throw error;
    });
  await writeEvent(ctx, auth, 'cluster', 'shareNet', {
    net_name: network.name,
    shared_company_name: other.full_name,
  });
  return listShares(ctx, auth, network.id);
}

export async function cancelShare(
  ctx: AppContext,
  auth: AuthContext,
  networkId: number,
  shareId: number,
) {
  const network = await teamCluster(ctx, auth, networkId);
  const share = await ctx.db
    .selectFrom('network_share')
    .innerJoin('company', 'company.id', 'network_share.company_id')
    .select(['network_share.id', 'company.full_name'])
    .where('network_share.id', '=', shareId)
    .where('network_share.network_id', '=', network.id)
    .executeTakeFirst();
  if (!share) throw new AppError('NetworkNotFound');
  await ctx.db.deleteFrom('network_share').where('id', '=', share.id).execute();
  await writeEvent(ctx, auth, 'cluster', 'cancelShareNet', {
    net_name: network.name,
    shared_company_name: share.full_name,
  });
  return listShares(ctx, auth, network.id);
}

/** The receiving team gives a shared cluster back. */
export async function returnSharedCluster(
  ctx: AppContext,
  auth: AuthContext,
  networkId: number,
): Promise<void> {
  const { row, shared } = await visibleCluster(ctx, auth, networkId);
  if (!shared) throw new AppError('NetworkNotFound');
  await ctx.db
    .deleteFrom('network_share')
    .where('network_id', '=', row.id)
    .where('company_id', '=', auth.company.id)
    .execute();
  await writeEvent(ctx, auth, 'cluster', 'returnNet', { net_name: row.name });
}

export async function listLogFilters(ctx: AppContext, auth: AuthContext, networkId: number) {
  const { row } = await visibleCluster(ctx, auth, networkId);
  const rows = await ctx.db
    .selectFrom('log_filter')
    .selectAll()
    .where('network_id', '=', row.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    network_id: r.network_id,
    operator: 'contains' as const,
    condition: r.condition,
    create_time: r.created_at,
  }));
}

/** Only the owner changes log filters; a team it is shared with reads them. */
async function ownedForLogFilters(ctx: AppContext, auth: AuthContext, networkId: number) {
  const { row, shared } = await visibleCluster(ctx, auth, networkId);
  if (shared) throw new AppError('SharedNetworkCannotChangeLogFilter');
  return row;
}

export async function createLogFilter(
  ctx: AppContext,
  auth: AuthContext,
  networkId: number,
  condition: string,
) {
  const network = await ownedForLogFilters(ctx, auth, networkId);
  const row = await ctx.db
    .insertInto('log_filter')
    .values({ network_id: network.id, condition, created_at: nowSeconds() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    network_id: row.network_id,
    operator: 'contains' as const,
    condition: row.condition,
    create_time: row.created_at,
  };
}

export async function deleteLogFilters(
  ctx: AppContext,
  auth: AuthContext,
  ids: number[],
): Promise<void> {
  const rows = await ctx.db
    .selectFrom('log_filter')
    .select(['id', 'network_id'])
    .where('id', 'in', ids)
    .execute();
  if (rows.length !== new Set(ids).size) throw new AppError('LogFilterNotFound');
  for (const networkId of new Set(rows.map((r) => r.network_id))) {
    await ownedForLogFilters(ctx, auth, networkId).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'NetworkNotFound'
        ? new AppError('LogFilterNotFound')
        : error;
    });
  }
  await ctx.db.deleteFrom('log_filter').where('id', 'in', ids).execute();
}

async function accountsOf(ctx: AppContext, networkId: number, role: 'approver' | 'notice') {
  return ctx.db
    .selectFrom('network_account')
    .innerJoin('account', 'account.id', 'network_account.account_id')
    .select(['account.id', 'account.name', 'account.account'])
    .where('network_account.network_id', '=', networkId)
    .where('network_account.role', '=', role)
    .orderBy('account.name')
    .execute();
}

export async function safeMode(ctx: AppContext, auth: AuthContext, networkId: number) {
  const network = await teamCluster(ctx, auth, networkId);
  return {
    safe_mode: network.safe_mode === 1,
    safe_mode_approver: network.safe_mode_approver === 1,
    safe_mode_notice: network.safe_mode_notice === 1,
    approver_accounts: await accountsOf(ctx, network.id, 'approver'),
    notice_accounts: await accountsOf(ctx, network.id, 'notice'),
    online: (await openTerminals(ctx, network.id)).length,
  };
}

/** The terminal sessions open in a cluster now, every team's (security mode governs them). */
const openTerminals = (ctx: AppContext, networkId: number) =>
  openSessionIds(ctx, { networkId }, TERMINAL_WAYS);

export async function updateSafeMode(
  ctx: AppContext,
  auth: AuthContext,
  networkId: number,
  body: {
    safe_mode: boolean;
    safe_mode_approver: boolean;
    safe_mode_notice: boolean;
    approver_accounts: number[];
    notice_accounts: number[];
    cut_sessions?: boolean;
  },
) {
  const network = await teamCluster(ctx, auth, networkId);
  const ids = [...new Set([...body.approver_accounts, ...body.notice_accounts])];
  if (ids.length > 0) {
    const found = await ctx.db
      .selectFrom('account')
      .select('id')
      .where('company_id', '=', auth.company.id)
      .where('id', 'in', ids)
      .execute();
    if (found.length !== ids.length) throw new AppError('AccountNotFound');
  }
  const before = await safeMode(ctx, auth, network.id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('network')
      .set({
        safe_mode: body.safe_mode ? 1 : 0,
        safe_mode_approver: body.safe_mode_approver ? 1 : 0,
        safe_mode_notice: body.safe_mode_notice ? 1 : 0,
      })
      .where('id', '=', network.id)
      .execute();
    await trx.deleteFrom('network_account').where('network_id', '=', network.id).execute();
    const rows = [
      ...body.approver_accounts.map((id) => ({
        network_id: network.id,
        account_id: id,
        role: 'approver',
      })),
      ...body.notice_accounts.map((id) => ({
        network_id: network.id,
        account_id: id,
        role: 'notice',
      })),
    ];
    if (rows.length > 0) await trx.insertInto('network_account').values(rows).execute();
  });
  const fields = { net_name: network.name };
  if (before.safe_mode !== body.safe_mode)
    await writeEvent(
      ctx,
      auth,
      'cluster',
      body.safe_mode ? 'openSafeMode' : 'closeSafeMode',
      fields,
    );
  if (before.safe_mode_approver !== body.safe_mode_approver) {
    await writeEvent(
      ctx,
      auth,
      'cluster',
      body.safe_mode_approver ? 'auditSafeMode' : 'unauditSafeMode',
      fields,
    );
  }
  const sameApprovers =
    before.approver_accounts
      .map((a) => a.id)
      .sort()
      .join() === [...body.approver_accounts].sort().join();
  if (!sameApprovers) await writeEvent(ctx, auth, 'cluster', 'modifySafeModeAuditor', fields);
  // The console saves the command lists first and this last: the open terminals go now if the
  // administrator asked, each told why, so that nobody works on under the settings replaced.
  if (body.cut_sessions) {
    await cutSessions(ctx, await openTerminals(ctx, network.id), 'SecurityModeChanged');
  }
  return safeMode(ctx, auth, network.id);
}

export async function listIntercepts(ctx: AppContext, auth: AuthContext, networkId: number) {
  const network = await teamCluster(ctx, auth, networkId);
  const rows = await ctx.db
    .selectFrom('intercept_command')
    .selectAll()
    .where('network_id', '=', network.id)
    .orderBy('kind')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    network_id: r.network_id,
    command: r.command,
    kind: r.kind as 'intercept' | 'notice',
  }));
}

export async function addIntercepts(
  ctx: AppContext,
  auth: AuthContext,
  body: { network_id: number; intercept: string[]; notice: string[] },
) {
  const network = await teamCluster(ctx, auth, body.network_id);
  const existing = new Set(
    (await listIntercepts(ctx, auth, network.id)).map((r) => `${r.kind}\u0000${r.command}`),
  );
  const wanted = [
    ...body.intercept.map((command) => ({ kind: 'intercept', command })),
    ...body.notice.map((command) => ({ kind: 'notice', command })),
  ];
  // Duplicates within the list are skipped; one that exists already is refused (CommandExist).
  const fresh = wanted.filter(
    (w, i) => wanted.findIndex((o) => o.kind === w.kind && o.command === w.command) === i,
  );
  if (fresh.some((w) => existing.has(`${w.kind}\u0000${w.command}`)))
    throw new AppError('CommandExist');
  if (fresh.length > 0) {
    const now = nowSeconds();
    await ctx.db
      .insertInto('intercept_command')
      .values(
        fresh.map((w) => ({
          network_id: network.id,
          kind: w.kind,
          command: w.command,
          created_at: now,
        })),
      )
      .execute();
    for (const w of fresh) {
      if (w.kind === 'intercept')
        await writeEvent(ctx, auth, 'cluster', 'addInterceptInstruction', {
          net_name: network.name,
          command: w.command,
        });
    }
  }
  return listIntercepts(ctx, auth, network.id);
}

export async function deleteIntercepts(
  ctx: AppContext,
  auth: AuthContext,
  ids: number[],
  kind: 'intercept' | 'notice',
) {
  const rows = await ctx.db
    .selectFrom('intercept_command')
    .innerJoin('network', 'network.id', 'intercept_command.network_id')
    .select(['intercept_command.id', 'intercept_command.command', 'network.name as net_name'])
    .where('network.company_id', '=', auth.company.id)
    .where('intercept_command.kind', '=', kind)
    .where('intercept_command.id', 'in', ids)
    .execute();
  if (rows.length !== new Set(ids).size)
    throw new AppError('InvalidParameter', { field: 'ids' }, { field: 'ids' });
  await ctx.db.deleteFrom('intercept_command').where('id', 'in', ids).execute();
  if (kind === 'intercept') {
    for (const r of rows)
      await writeEvent(ctx, auth, 'cluster', 'removeInterceptInstruction', {
        net_name: r.net_name,
        command: r.command,
      });
  }
}
