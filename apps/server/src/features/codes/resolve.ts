/**
 * The gateway's question "may this client use this code here?", answered by the server (the
 * control channel of issue 6 calls this; nothing else should). It fails closed: a code that is
 * unknown, deleted, of another cluster, or whose owner no longer reaches the resource answers
 * TunnelNotFound, whichever it is, so a gateway learns nothing by trying codes.
 *
 * Checks, in order: the code's form; it exists, is enabled and belongs to a resource of the
 * asking gateway's cluster (TunnelNotFound); not expired (TunnelExpire); its owner is enabled
 * (AccountDisabled) and still reaches the workgroup and its resource (TunnelNotFound); the
 * client's address is allowed (IPNotInWhiteList). A temporary authorization also needs its
 * password (PasswordError) and works once: the first successful check uses it (TunnelExpire
 * afterwards). No credential of the target is returned; the gateway fetches that per session.
 */
import { CODE_PATTERN, allowIpMatches, type ResolvedCode } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { prepared } from '../../db/prepared';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import { verifyPassword } from '../auth/passwords';
import { loginsOfResource, type LoginRow, type ResourceRow } from '../resources/service';
import { reachableResource } from '../workgroups/access';
import { accountReachesProject } from '../workgroups/revoke';
import { grantedUsernames, resourceUsernames } from '../workgroups/view';
import { codeHash } from './code-value';

export interface ResolveCodeRequest {
  /** The cluster of the gateway that asks (from its authenticated control channel). */
  networkId: number;
  code: string;
  /** The address the client connected to the gateway from. */
  clientIp: string;
  /** Required for a temporary authorization; ignored otherwise. */
  password?: string | undefined;
}

/** The answer, and the rows it was made of (for the session that follows, on this server). */
export interface ResolvedWithRows {
  resolved: ResolvedCode;
  resource: ResourceRow;
  logins: LoginRow[];
}

// Built once (db/prepared.ts): a code is checked for every session.
const tunnelByHash = prepared(['hash'], (db, v) =>
  db.selectFrom('tunnel').selectAll().where('code_hash', '=', v.hash),
);

// The workgroup's link to the resource, the resource and its cluster's safe mode, in one
// query: each query is a round of work.
const linkedResource = prepared(['link', 'company'], (db, v) =>
  db
    .selectFrom('project_resource')
    .innerJoin('project', 'project.id', 'project_resource.project_id')
    .innerJoin('resource', 'resource.id', 'project_resource.resource_id')
    .innerJoin('network', 'network.id', 'resource.network_id')
    .selectAll('resource')
    .select([
      'project_resource.id as link_id',
      'project_resource.project_id as link_project_id',
      'project_resource.login_usernames as link_login_usernames',
      'project_resource.created_at as link_created_at',
      'network.safe_mode as network_safe_mode',
    ])
    .where('project_resource.id', '=', v.link)
    .where('project.company_id', '=', v.company)
    // A resource of a cluster whose share ended is out of reach.
    .where(reachableResource(v.company)),
);

const accountById = prepared(['id'], (db, v) =>
  db.selectFrom('account').selectAll().where('id', '=', v.id),
);

const chosenUsername = prepared(['link', 'account'], (db, v) =>
  db
    .selectFrom('project_resource_default')
    .select('default_username')
    .where('project_resource_id', '=', v.link)
    .where('account_id', '=', v.account),
);

export async function resolveCode(
  ctx: AppContext,
  request: ResolveCodeRequest,
): Promise<ResolvedCode> {
  return (await resolveCodeWithRows(ctx, request)).resolved;
}

export async function resolveCodeWithRows(
  ctx: AppContext,
  request: ResolveCodeRequest,
): Promise<ResolvedWithRows> {
  if (!CODE_PATTERN.test(request.code)) throw new AppError('TunnelNotFound');
  const tunnel = await tunnelByHash.first(ctx.db, { hash: codeHash(request.code) });
  if (!tunnel || tunnel.status !== 'enable') throw new AppError('TunnelNotFound');
  const row = await linkedResource.first(ctx.db, {
    link: tunnel.project_resource_id,
    company: tunnel.company_id,
  });
  if (!row || row.network_id !== request.networkId) throw new AppError('TunnelNotFound');
  const {
    link_id,
    link_project_id,
    link_login_usernames,
    link_created_at,
    network_safe_mode,
    ...resource
  } = row;
  const link = {
    id: link_id,
    project_id: link_project_id,
    login_usernames: link_login_usernames,
    created_at: link_created_at,
    resource_id: resource.id,
  };
  if (tunnel.expire_time <= nowSeconds()) throw new AppError('TunnelExpire');
  const account = await accountById.first(ctx.db, { id: tunnel.account_id });
  if (!account) throw new AppError('TunnelNotFound');
  if (account.status !== 0) throw new AppError('AccountDisabled');
  if (!(await accountReachesProject(ctx, account, link.project_id)))
    throw new AppError('TunnelNotFound');
  if (!allowIpMatches(tunnel.allow_ip, request.clientIp)) throw new AppError('IPNotInWhiteList');

  const logins = await loginsOfResource(ctx, resource.id);
  const granted = grantedUsernames(link, resourceUsernames(resource, logins));
  let loginUsers: string[];
  if (tunnel.type === 'tmp_share') {
    // No password at all (the SSH proxy asking whether one is needed): no hash to spend on it.
    if (request.password === undefined) throw new AppError('PasswordError');
    if (!(await verifyPassword(tunnel.tmp_passwd_hash, request.password)))
      throw new AppError('PasswordError');
    if (!granted.includes(tunnel.tmp_username)) throw new AppError('TunnelNotFound');
    // Used once: only the first check that sets used_at succeeds, even under races.
    const used = await ctx.db
      .updateTable('tunnel')
      .set({ used_at: nowSeconds() })
      .where('id', '=', tunnel.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new AppError('TunnelExpire');
    loginUsers = [tunnel.tmp_username];
  } else {
    const chosen = await chosenUsername.first(ctx.db, { link: link.id, account: account.id });
    const preferred = chosen?.default_username;
    loginUsers =
      preferred && granted.includes(preferred)
        ? [preferred, ...granted.filter((u) => u !== preferred)]
        : granted;
  }

  const resolved: ResolvedCode = {
    tunnel_id: tunnel.id,
    type: tunnel.type === 'tmp_share' ? 'tmp_share' : 'normal',
    company_id: tunnel.company_id,
    account: { id: account.id, name: account.name, account: account.account },
    project_id: link.project_id,
    project_resource_id: link.id,
    resource: {
      id: resource.id,
      name: resource.name,
      os: resource.os,
      ip_address: resource.ip_address,
      port: resource.port,
      network_id: resource.network_id,
      databases: resource.databases ? resource.databases.split(';') : [],
    },
    login_users: loginUsers,
    // Safe mode applies to Linux sessions while the cluster runs it and the code keeps it.
    safe_mode: resource.os === 'linux' && network_safe_mode === 1 && tunnel.safe_mode === 1 ? 1 : 0,
    expire_time: tunnel.expire_time,
  };
  return { resolved, resource, logins };
}
