/**
 * Connection codes of the Manage Code panel: list, read, create (one live ordinary code per
 * member and workgroup resource), modify, delete (a status change to disable) and temporary
 * authorizations. A member manages their own codes; a workgroup's administrators and the team's
 * administrators manage every code on its resources. A code outside that answers TunnelNotFound,
 * like one that does not exist.
 */
import {
  maskCode,
  TMP_AUTH_PRESETS_MINUTES,
  type Code,
  type CodeListQuerySchema,
  type CreateCodeBodySchema,
  type TmpShareBodySchema,
  type UpdateCodeBodySchema,
} from '@portcullis/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { TunnelTable } from '../../db/schema';
import { AppError, invalidParameter } from '../../lib/app-error';
import { countRows, pageOf, paged, type Paged } from '../../lib/paging';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { hashPassword } from '../auth/passwords';
import { loginsOf } from '../resources/service';
import { cutRevokedSessions } from '../sessions/revoke-sessions';
import {
  findVisibleProjectResource,
  memberOfProject,
  reachableResource,
  seesAllWorkgroups,
  type VisibleProjectResource,
} from '../workgroups/access';
import { clusterGateways, gatewayPort } from '../workgroups/gateways';
import { joinRows } from '../workgroups/resources';
import { grantedUsernames, isDatabaseOs, resourceUsernames } from '../workgroups/view';
import { newCode } from './code-value';
import { checkedExpiry, checkedSafeMode, defaultExpiry, maxLifetime } from './rules';

type TunnelRow = Selectable<TunnelTable>;
type ListQuery = z.output<typeof CodeListQuerySchema>;
type CreateBody = z.output<typeof CreateCodeBodySchema>;
type UpdateBody = z.output<typeof UpdateCodeBodySchema>;
type TmpShareBody = z.output<typeof TmpShareBodySchema>;

/** Codes the caller may manage, as a query joining tunnel, project_resource, project, resource. */
function manageableCodes(ctx: AppContext, auth: AuthContext) {
  const base = ctx.db
    .selectFrom('tunnel')
    .innerJoin('project_resource', 'project_resource.id', 'tunnel.project_resource_id')
    .innerJoin('project', 'project.id', 'project_resource.project_id')
    .innerJoin('resource', 'resource.id', 'project_resource.resource_id')
    .where('tunnel.company_id', '=', auth.company.id)
    .where('project.company_id', '=', auth.company.id)
    .where(reachableResource(auth.company.id));
  if (seesAllWorkgroups(auth)) return base;
  const me = auth.account.id;
  return base
    .where(memberOfProject(me))
    .where((eb) =>
      eb.or([
        eb('tunnel.account_id', '=', me),
        eb.exists(
          eb
            .selectFrom('project_member')
            .select('project_member.project_id')
            .whereRef('project_member.project_id', '=', 'project.id')
            .where('project_member.account_id', '=', me)
            .where('project_member.role', '=', 1),
        ),
      ]),
    );
}

/**
 * The ready-to-copy command of the Connect panel: run as shown, it connects. A database's
 * command names its first listed database (psql would otherwise ask for one named like the
 * code); no password is needed for a code, so the MySQL command does not ask for one. The
 * MySQL command says --protocol=TCP: Oracle's and MariaDB's clients take the host localhost
 * (the local gateway's) as their Unix socket and ignore -P, reaching the local server, not
 * the gateway.
 * A name with characters a shell would read is left out.
 * SQL Server has no proxy yet: no command.
 */
function commandFor(
  resource: { os: string; databases: string },
  host: string,
  port: number,
  code: string,
): string {
  // Only a name a shell takes as it is goes into a command the member pastes.
  const database = resource.databases.split(';').find((d) => /^[\w.-]+$/.test(d));
  if (resource.os === 'linux') return `ssh -p ${port} ${code}@${host}`;
  if (resource.os === 'mysql') {
    return `mysql --protocol=TCP -h ${host} -P ${port} -u ${code}${database ? ` ${database}` : ''}`;
  }
  if (resource.os === 'postgresql') {
    return `psql "host=${host} port=${port} user=${code} dbname=${database ?? 'postgres'}"`;
  }
  return '';
}

async function codeReplies(
  ctx: AppContext,
  auth: AuthContext,
  tunnels: TunnelRow[],
): Promise<Code[]> {
  if (tunnels.length === 0) return [];
  const links = await ctx.db
    .selectFrom('project_resource')
    .selectAll()
    .where(
      'id',
      'in',
      tunnels.map((t) => t.project_resource_id),
    )
    .execute();
  const joined = await joinRows(ctx, links);
  const accounts = await ctx.db
    .selectFrom('account')
    .select(['id', 'name', 'avatar'])
    .where(
      'id',
      'in',
      tunnels.map((t) => t.account_id),
    )
    .execute();
  const gateways = await clusterGateways(
    ctx,
    joined.map((j) => j.network.id),
  );
  const now = nowSeconds();
  return tunnels.flatMap((t) => {
    const found = joined.find((j) => j.projectResource.id === t.project_resource_id);
    const account = accounts.find((a) => a.id === t.account_id);
    if (!found || !account) return [];
    const { resource, network, projectResource } = found;
    const value = ctx.sealer.open(t.code_sealed);
    const owner = t.account_id === auth.account.id;
    const agent = gateways.get(network.id) ?? null;
    const port = agent ? gatewayPort(agent, resource.os) : 0;
    return [
      {
        id: t.id,
        // Only its owner sees a code: anyone else holding it could connect in their name.
        code: owner ? value : maskCode(value),
        masked: !owner,
        type: t.type === 'tmp_share' ? 'tmp_share' : 'normal',
        account: { id: account.id, name: account.name, avatar: account.avatar },
        allow_ip: t.allow_ip,
        status: t.status === 'enable' ? 'enable' : 'disable',
        create_time: t.created_at,
        expire_time: t.expire_time,
        expired: t.expire_time <= now,
        safe_mode: t.safe_mode === 1 ? 1 : 0,
        project_id: projectResource.project_id,
        project_resource_id: projectResource.id,
        resource: {
          id: resource.id,
          name: resource.name,
          ip: resource.ip_address,
          os: resource.os,
        },
        tmp_username: t.tmp_username,
        used: t.used_at !== null,
        agent,
        connect:
          owner && agent?.host
            ? { host: agent.host, port, command: commandFor(resource, agent.host, port, value) }
            : null,
      } satisfies Code,
    ];
  });
}

async function codeById(ctx: AppContext, auth: AuthContext, id: number): Promise<TunnelRow> {
  const row = await manageableCodes(ctx, auth)
    .selectAll('tunnel')
    .where('tunnel.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('TunnelNotFound');
  return row;
}

async function replyFor(ctx: AppContext, auth: AuthContext, id: number): Promise<Code> {
  const [reply] = await codeReplies(ctx, auth, [await codeById(ctx, auth, id)]);
  if (!reply) throw new AppError('TunnelNotFound');
  return reply;
}

export async function listCodes(
  ctx: AppContext,
  auth: AuthContext,
  query: ListQuery,
): Promise<Paged<Code>> {
  let base = manageableCodes(ctx, auth).where('tunnel.status', '=', query.status);
  if (query.project_resource_id !== undefined)
    base = base.where('tunnel.project_resource_id', '=', query.project_resource_id);
  if (query.account_id !== undefined) base = base.where('tunnel.account_id', '=', query.account_id);
  if (query.type !== undefined) base = base.where('tunnel.type', '=', query.type);
  if (query.expire_time_gt !== undefined)
    base = base.where('tunnel.expire_time', '>', query.expire_time_gt);
  const total = await countRows(base);
  const rows = await base
    .selectAll('tunnel')
    .orderBy('tunnel.created_at', 'desc')
    .orderBy('tunnel.id', 'desc')
    .$call((qb) => pageOf(qb, query))
    .execute();
  return paged(await codeReplies(ctx, auth, rows), total, query);
}

export function getCode(ctx: AppContext, auth: AuthContext, id: number): Promise<Code> {
  return replyFor(ctx, auth, id);
}

/** Codes are made only while the cluster has a gateway to use them (spec 1 §2.7). */
async function requireLiveGateway(ctx: AppContext, networkId: number): Promise<void> {
  const agent = (await clusterGateways(ctx, [networkId])).get(networkId);
  if (agent?.status !== 1) throw new AppError('AgentError');
}

function isUniqueViolation(error: unknown): boolean {
  return /unique|duplicate/i.test(String((error as Error).message));
}

export async function createCode(
  ctx: AppContext,
  auth: AuthContext,
  body: CreateBody,
): Promise<Code> {
  const found = await findVisibleProjectResource(ctx, auth, body.project_resource_id);
  await requireLiveGateway(ctx, found.network.id);
  const now = nowSeconds();
  const expireTime = checkedExpiry(body, now, now, found.network, defaultExpiry(now)) ?? now;
  const safeMode = checkedSafeMode(found.resource, found.network, body.safe_mode);
  const existing = await ctx.db
    .selectFrom('tunnel')
    .select('id')
    .where('project_resource_id', '=', found.projectResource.id)
    .where('account_id', '=', auth.account.id)
    .where('type', '=', 'normal')
    .where('status', '=', 'enable')
    .executeTakeFirst();
  if (existing) throw new AppError('TunnelExist');
  const row = await ctx.db
    .insertInto('tunnel')
    .values({
      company_id: auth.company.id,
      account_id: auth.account.id,
      project_resource_id: found.projectResource.id,
      ...newCode(ctx),
      type: 'normal',
      allow_ip: body.allow_ip,
      status: 'enable',
      safe_mode: safeMode,
      tmp_username: '',
      tmp_passwd_hash: null,
      used_at: null,
      created_at: now,
      expire_time: expireTime,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .catch((error: unknown) => {
      // A concurrent create won the one-code-per-member index.
      if (isUniqueViolation(error)) throw new AppError('TunnelExist');
      throw error;
    });
  return replyFor(ctx, auth, row.id);
}

export async function updateCode(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  body: UpdateBody,
): Promise<Code> {
  const row = await codeById(ctx, auth, id);
  // A deleted code stays deleted.
  if (row.status !== 'enable') throw new AppError('TunnelNotFound');
  if (body.status === 'disable') {
    await ctx.db
      .updateTable('tunnel')
      .set({ status: 'disable' })
      .where('id', '=', row.id)
      .execute();
    // A deleted code's open sessions end now, not only its next login.
    await cutRevokedSessions(ctx);
    return replyFor(ctx, auth, row.id);
  }
  if (row.type === 'tmp_share') throw new AppError('TunnelCannotChange');
  const found = await findVisibleProjectResource(ctx, auth, row.project_resource_id);
  const now = nowSeconds();
  const expireTime = checkedExpiry(body, now, row.created_at, found.network, undefined);
  const safeMode =
    body.safe_mode === undefined
      ? undefined
      : checkedSafeMode(found.resource, found.network, body.safe_mode);
  await ctx.db
    .updateTable('tunnel')
    .set({
      ...(expireTime !== undefined && { expire_time: expireTime }),
      ...(safeMode !== undefined && { safe_mode: safeMode }),
      ...(body.allow_ip !== undefined && { allow_ip: body.allow_ip }),
    })
    .where('id', '=', row.id)
    .execute();
  return replyFor(ctx, auth, row.id);
}

async function grantedUsers(ctx: AppContext, found: VisibleProjectResource): Promise<string[]> {
  const logins = (await loginsOf(ctx, [found.resource.id])).get(found.resource.id) ?? [];
  return grantedUsernames(found.projectResource, resourceUsernames(found.resource, logins));
}

export async function createTmpShare(
  ctx: AppContext,
  auth: AuthContext,
  body: TmpShareBody,
): Promise<Code & { psw: string }> {
  const found = await findVisibleProjectResource(ctx, auth, body.project_resource_id);
  // Temporary Authorize is offered for servers only (spec 1 §2.7).
  if (isDatabaseOs(found.resource.os)) throw new AppError('InvalidResource');
  await requireLiveGateway(ctx, found.network.id);
  if (!(await grantedUsers(ctx, found)).includes(body.username)) throw invalidParameter('username');
  const minutes = body.expire_time ?? body.expire_time_customize ?? TMP_AUTH_PRESETS_MINUTES[0];
  // Presets too: 120 minutes on a cluster whose maximum is shorter is refused (spec 1 §5).
  if (minutes * 60 > maxLifetime(found.network)) throw new AppError('ExpireTimeTooBig');
  const now = nowSeconds();
  const row = await ctx.db
    .insertInto('tunnel')
    .values({
      company_id: auth.company.id,
      account_id: auth.account.id,
      project_resource_id: found.projectResource.id,
      ...newCode(ctx),
      type: 'tmp_share',
      allow_ip: body.allow_ip,
      status: 'enable',
      safe_mode: checkedSafeMode(found.resource, found.network, undefined),
      tmp_username: body.username,
      tmp_passwd_hash: await hashPassword(body.psw),
      used_at: null,
      created_at: now,
      expire_time: now + minutes * 60,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...(await replyFor(ctx, auth, row.id)), psw: body.psw };
}
