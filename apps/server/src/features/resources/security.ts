/**
 * A database's security settings (spec 2 §3, §5 database security): whether SQL changes need
 * an approved application (status 2) or not (1), the statements it blocks, the statements it
 * alarms on, and who approves and who is notified. Stored and shown here; the database
 * sessions enforce them.
 */
import type { z } from 'zod';
import type {
  DatabaseSecuritySchema,
  UpdateDatabaseSecurityBodySchema,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import type { AuthContext } from '../../plugins/app/auth';
import { openSessionIds } from '../sessions/connections';
import { cutSessions } from '../sessions/connections-service';
import { isDatabase, teamResource } from './service';

type Security = z.output<typeof DatabaseSecuritySchema>;
type Rule = Security['block_pattern'][number];

function rules(json: string): Rule[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as Rule[]) : [];
  } catch {
    return [];
  }
}

async function people(ctx: AppContext, resourceId: number, role: 'approver' | 'notice') {
  return ctx.db
    .selectFrom('resource_account')
    .innerJoin('account', 'account.id', 'resource_account.account_id')
    .select(['account.id', 'account.name', 'account.account'])
    .where('resource_account.resource_id', '=', resourceId)
    .where('resource_account.role', '=', role)
    .orderBy('account.name')
    .execute();
}

async function teamDatabase(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await teamResource(ctx, auth, id);
  if (!isDatabase(row.os)) throw new AppError('InvalidResource');
  return row;
}

export async function databaseSecurity(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<Security> {
  const row = await teamDatabase(ctx, auth, id);
  return {
    status: row.status,
    block_pattern: rules(row.block_pattern),
    notice_pattern: rules(row.notice_pattern),
    notice_status: row.notice_status,
    approve_accounts: await people(ctx, row.id, 'approver'),
    notice_accounts: await people(ctx, row.id, 'notice'),
    online: (await openSessionIds(ctx, { resourceId: row.id })).length,
  };
}

export async function updateDatabaseSecurity(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  body: z.output<typeof UpdateDatabaseSecurityBodySchema>,
): Promise<Security> {
  const row = await teamDatabase(ctx, auth, id);
  const ids = [...new Set([...body.approve_accounts, ...body.notice_accounts])];
  if (ids.length > 0) {
    const found = await ctx.db
      .selectFrom('account')
      .select('id')
      .where('company_id', '=', auth.company.id)
      .where('id', 'in', ids)
      .execute();
    if (found.length !== ids.length) throw new AppError('AccountNotFound');
  }
  const clean = (list: Rule[]) =>
    list.map((r) => (r.table ? { op: r.op, table: r.table } : { op: r.op }));
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('resource')
      .set({
        status: body.status,
        block_pattern: JSON.stringify(clean(body.block_pattern)),
        notice_pattern: JSON.stringify(clean(body.notice_pattern)),
        notice_status: body.notice_status,
      })
      .where('id', '=', row.id)
      .execute();
    await trx.deleteFrom('resource_account').where('resource_id', '=', row.id).execute();
    const members = [
      ...body.approve_accounts.map((a) => ({
        resource_id: row.id,
        account_id: a,
        role: 'approver',
      })),
      ...body.notice_accounts.map((a) => ({ resource_id: row.id, account_id: a, role: 'notice' })),
    ];
    if (members.length > 0) await trx.insertInto('resource_account').values(members).execute();
  });
  // Sessions read the rules when they start: the open ones go now if the administrator asked,
  // each told why, so that nobody works on under the rules just replaced.
  if (body.cut_sessions)
    await cutSessions(ctx, await openSessionIds(ctx, { resourceId: row.id }), 'RulesChanged');
  return databaseSecurity(ctx, auth, row.id);
}
