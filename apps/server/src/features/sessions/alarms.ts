/**
 * Security mode on the server (spec 2 §2 cluster safe mode, §3 alarm log rows, §4): the policy
 * a gateway enforces for a session (the cluster's intercept and notice commands), and what
 * happens when it acts: an alarm log row (operation time, account, client IP, resource,
 * workgroup, way, event, command, notified accounts) and a mail to each notice account when the
 * cluster's alarm notices are on. The mail goes through the server's mailer (SMTP, or the
 * outbox folder), in English and Chinese; a mail that cannot be sent is logged, not retried.
 * A database session's alarms (a notice rule matched a statement, or a block rule refused one)
 * notify the database's own notice accounts.
 *
 * The row's `notice_accounts` are the accounts this alarm's mail reached (the mailer took it),
 * not the accounts that would have been notified: the spec calls them the notified accounts,
 * and an auditor reading "notified: nora" must be able to rely on nora having had a mail. The
 * row is written at once with none, and the accounts are added when their mails have gone; an
 * alarm whose mail was held back by the rate limit, or whose send failed, names nobody. A
 * server that closes waits for the mails under way and their rows' updates
 * ({@link alarmMailsSettled}), so that no update runs on a database already closed.
 */
import {
  DATABASE_WAYS,
  fillText,
  SECURITY_MODE_TEXT,
  type AlarmAction,
  type CommandPolicy,
  type ResolvedCode,
} from '@portcullis/contract';
import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/schema';
import { nowSeconds } from '../../lib/time';
import { databaseNoticeAccounts } from './sql-policy';

export const isDatabaseWay = (way: string): boolean =>
  (DATABASE_WAYS as readonly string[]).includes(way);

/** The policy of a session in security mode; undefined for a session that is not. */
export async function sessionPolicy(
  ctx: AppContext,
  resolved: ResolvedCode,
): Promise<CommandPolicy | undefined> {
  if (resolved.safe_mode !== 1) return undefined;
  const rows = await ctx.db
    .selectFrom('intercept_command')
    .select(['kind', 'command'])
    .where('network_id', '=', resolved.resource.network_id)
    .orderBy('id')
    .execute();
  return {
    intercept: rows.filter((r) => r.kind === 'intercept').map((r) => r.command),
    notice: rows.filter((r) => r.kind === 'notice').map((r) => r.command),
  };
}

export interface AlarmReport {
  connectionId: number;
  action: AlarmAction;
  command: string;
  rule: string;
}

/**
 * The session an alarm is about, with the names its log row carries. An alarm can arrive after
 * its member, resource or workgroup was deleted (the session's cut is under way, or the report
 * was late): the row still names them, from the names the deletion kept (migration 019), and
 * is written even when nothing names them, since a blocked command must not go unlogged.
 */
async function sessionOf(ctx: AppContext, connectionId: number) {
  return ctx.db
    .selectFrom('tunnel_connection')
    .leftJoin('account', 'account.id', 'tunnel_connection.account_id')
    .leftJoin('former_identity as fa', (j) =>
      j.on('fa.kind', '=', 'account').onRef('fa.id', '=', 'tunnel_connection.account_id'),
    )
    .leftJoin('resource', 'resource.id', 'tunnel_connection.resource_id')
    .leftJoin('former_identity as fr', (j) =>
      j.on('fr.kind', '=', 'resource').onRef('fr.id', '=', 'tunnel_connection.resource_id'),
    )
    .leftJoin('network', (j) =>
      j.on((eb) => eb('network.id', '=', eb.fn.coalesce('resource.network_id', 'fr.network_id'))),
    )
    .leftJoin('tunnel', 'tunnel.id', 'tunnel_connection.tunnel_id')
    .leftJoin('former_identity as ft', (j) =>
      j.on('ft.kind', '=', 'tunnel').onRef('ft.id', '=', 'tunnel_connection.tunnel_id'),
    )
    .leftJoin('project_resource', 'project_resource.id', 'tunnel.project_resource_id')
    .leftJoin('project', (j) =>
      j.on((eb) =>
        eb('project.id', '=', eb.fn.coalesce('project_resource.project_id', 'ft.project_id')),
      ),
    )
    .leftJoin('former_identity as fp', (j) =>
      j
        .on('fp.kind', '=', 'project')
        .on((eb) =>
          eb('fp.id', '=', eb.fn.coalesce('project_resource.project_id', 'ft.project_id')),
        ),
    )
    .select((eb) => [
      'tunnel_connection.company_id',
      'tunnel_connection.account_id',
      'tunnel_connection.way',
      'tunnel_connection.client_ip',
      eb.fn.coalesce('account.account', 'fa.account', sql<string>`''`).as('account'),
      'account.is_admin',
      eb.fn.coalesce('resource.name', 'fr.name').as('resource_name'),
      'resource.id as resource_id',
      'network.id as network_id',
      'network.name as net_name',
      'network.safe_mode_notice',
      eb.fn.coalesce('project.name', 'fp.name').as('project_name'),
    ])
    .where('tunnel_connection.id', '=', connectionId)
    .executeTakeFirst();
}

async function noticeAccounts(ctx: AppContext, networkId: number) {
  return ctx.db
    .selectFrom('network_account')
    .innerJoin('account', 'account.id', 'network_account.account_id')
    .select(['account.name', 'account.account'])
    .where('network_account.network_id', '=', networkId)
    .where('network_account.role', '=', 'notice')
    .where('account.status', '=', 0)
    .orderBy('account.name')
    .execute();
}

/**
 * The same alarm of a session mails at most once a minute (every alarm is still a row): a
 * script that trips the filter a thousand times must not send a thousand mails to each notice
 * account. "The same" is the same action and rule, so an intercept is never held back behind
 * a notice, nor one rule behind another (the number of rules bounds the mails). Kept in this
 * replica's memory; with several replicas, each mails at most once a minute per alarm.
 */
const MAIL_EVERY_SECONDS = 60;
const lastMailed = new Map<string, number>();

function mayMail(report: AlarmReport, now: number): boolean {
  for (const [key, at] of lastMailed) if (now - at >= MAIL_EVERY_SECONDS) lastMailed.delete(key);
  // JSON keeps a rule that contains the separator from colliding with another key.
  const key = JSON.stringify([report.connectionId, report.action, report.rule]);
  if (lastMailed.has(key)) return false;
  lastMailed.set(key, now);
  return true;
}

/**
 * The mails under way and their rows' updates, per database (a test may run several servers in
 * one process; a context with another mailer shares its server's database).
 */
const mailsUnderWay = new WeakMap<Kysely<Database>, Set<Promise<void>>>();

function track(db: Kysely<Database>, work: Promise<void>): void {
  const pending = mailsUnderWay.get(db) ?? new Set<Promise<void>>();
  mailsUnderWay.set(db, pending);
  pending.add(work);
  const done = () => void pending.delete(work);
  work.then(done, done);
}

/**
 * Resolves once the alarm mails under way on `ctx`'s database have been sent (or have failed)
 * and their rows updated: the server's close awaits it before it closes the database.
 */
export async function alarmMailsSettled(ctx: AppContext): Promise<void> {
  await Promise.allSettled([...(mailsUnderWay.get(ctx.db) ?? [])]);
}

const stamp = (seconds: number): string =>
  `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/**
 * Writes the alarm log row and sends the notices. Resolves once the row is written; the mails
 * go on in the background and the row gains the accounts they reached. `onMailError` hears of
 * a mail that failed, or of a row that could not be updated afterwards.
 */
export async function recordAlarm(
  ctx: AppContext,
  report: AlarmReport,
  onMailError: (err: unknown) => void,
): Promise<boolean> {
  const session = await sessionOf(ctx, report.connectionId);
  if (!session) return false;
  // A database's alarms go to its own notice accounts; a terminal's to its cluster's.
  const toNotify = isDatabaseWay(session.way)
    ? session.resource_id !== null
      ? await databaseNoticeAccounts(ctx, session.resource_id)
      : []
    : session.safe_mode_notice === 1 && session.network_id !== null
      ? await noticeAccounts(ctx, session.network_id)
      : [];
  const now = nowSeconds();
  const row = await ctx.db
    .insertInto('event_log')
    .values({
      company_id: session.company_id,
      log_type: 'alarm',
      event: report.action,
      account_id: session.account_id,
      account: session.account,
      admin: session.is_admin,
      user: '',
      group_name: '',
      net_name: session.net_name ?? '',
      resource_name: session.resource_name ?? '',
      shared_company_name: '',
      project_name: session.project_name ?? '',
      project_account: '',
      con_ip: session.client_ip,
      way: session.way,
      command: report.command,
      // Nobody yet: filled in below with the accounts the mail reached.
      notice_accounts: '[]',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (toNotify.length === 0 || !mayMail(report, now)) return true;
  const values = (lang: 'en' | 'zh') => ({
    action: SECURITY_MODE_TEXT[report.action === 'intercept' ? 'intercepted' : 'noticed'][lang],
    time: stamp(now),
    account: session.account,
    ip: session.client_ip,
    resource: session.resource_name ?? '',
    workgroup: session.project_name ?? '',
    way: session.way,
    command: report.command,
    rule: report.rule,
  });
  const { alarmSubject, alarmBody } = SECURITY_MODE_TEXT;
  const subject = fillText(alarmSubject.en, values('en'));
  const text = `${fillText(alarmBody.en, values('en'))}\n\n${fillText(alarmBody.zh, values('zh'))}\n`;
  const sends = toNotify.map((to) =>
    ctx.mailer.send({ to: to.account, subject, text }).then(
      () => to.name,
      (err: unknown) => {
        onMailError(err);
        return null;
      },
    ),
  );
  const work = Promise.all(sends)
    .then(async (names) => {
      const mailed = names.filter((name): name is string => name !== null);
      if (mailed.length === 0) return;
      await ctx.db
        .updateTable('event_log')
        .set({ notice_accounts: JSON.stringify(mailed) })
        .where('id', '=', row.id)
        .execute();
    })
    .catch(onMailError);
  track(ctx.db, work);
  return true;
}
