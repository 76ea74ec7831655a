/**
 * A database session's rules (spec 2 §3 database resource, §5), read as the session's code is
 * checked (from the same row) and sent with session_started: block rules always, notice rules only while the alarm switch
 * (notice_status) is on, and approval mode when the resource's status is 2. A change applies
 * to the next session, as for the cluster's command rules.
 */
import { SQL_OPS, SqlRuleSchema, type SqlPolicy, type SqlRule } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { ResourceRow } from '../resources/service';

const APPROVAL_STATUS = 2;

/** A stored list that no longer reads is a bug; refusing every statement is the safe side. */
const EVERYTHING: SqlRule[] = SQL_OPS.map((op) => ({ op }));

function rules(json: string): SqlRule[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  const parsed = SqlRuleSchema.array().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

type PolicyFields = Pick<
  ResourceRow,
  'status' | 'block_pattern' | 'notice_pattern' | 'notice_status'
>;

/**
 * `known`: the resource's row when the caller has it, as read moments before (the code check
 * of the same session); otherwise it is read here.
 */
export async function sessionSqlPolicy(
  ctx: AppContext,
  resourceId: number,
  known?: PolicyFields,
): Promise<SqlPolicy | undefined> {
  const row =
    known ??
    (await ctx.db
      .selectFrom('resource')
      .select(['status', 'block_pattern', 'notice_pattern', 'notice_status'])
      .where('id', '=', resourceId)
      .executeTakeFirst());
  if (!row) return undefined;
  const block = rules(row.block_pattern);
  const notice = row.notice_status === 1 ? rules(row.notice_pattern) : [];
  if (!block || !notice) return { block: EVERYTHING, notice: [], approval: true };
  const policy: SqlPolicy = { block, notice, approval: row.status === APPROVAL_STATUS };
  const empty = policy.block.length === 0 && policy.notice.length === 0 && !policy.approval;
  return empty ? undefined : policy;
}

/** The accounts a database's alarms notify (its notice accounts, while its switch is on). */
export async function databaseNoticeAccounts(ctx: AppContext, resourceId: number) {
  return ctx.db
    .selectFrom('resource_account')
    .innerJoin('account', 'account.id', 'resource_account.account_id')
    .innerJoin('resource', 'resource.id', 'resource_account.resource_id')
    .select(['account.name', 'account.account'])
    .where('resource_account.resource_id', '=', resourceId)
    .where('resource_account.role', '=', 'notice')
    .where('resource.notice_status', '=', 1)
    .where('account.status', '=', 0)
    .orderBy('account.name')
    .execute();
}
