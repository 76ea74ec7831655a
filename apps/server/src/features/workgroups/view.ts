/**
 * A workgroup's resources as the caller sees them (spec 1 §3 project resource): login users the
 * workgroup grants, the caller's default login user and masked code, the cluster's gateway and
 * safe-mode state, and session counts. Built for a page of rows at a time.
 */
import {
  DATABASE_OS,
  maskCode,
  RESOURCE_TYPES,
  type ProjectResource,
  type ResourceOs,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { loginsOf, type LoginRow } from '../resources/service';
import type { NetworkRow, ProjectResourceRow, ResourceRow } from './access';
import { seesAllWorkgroups } from './access';
import { clusterGateways } from './gateways';
import { onlineByWorkgroupResource, workgroupResourceKey } from '../sessions/connections-service';

export interface ProjectResourceJoin {
  projectResource: ProjectResourceRow;
  resource: ResourceRow;
  network: NetworkRow;
}

export function isDatabaseOs(os: string): boolean {
  return (DATABASE_OS as readonly string[]).includes(os);
}

function parseNames(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** The resource's login users in their order; for a database, none (its account is not chosen). */
export function resourceUsernames(resource: ResourceRow, logins: LoginRow[]): string[] {
  if (isDatabaseOs(resource.os)) return [];
  return [...logins].sort((a, b) => a.position - b.position).map((l) => l.username);
}

/**
 * Login users the workgroup grants: its chosen list (null chooses all), kept to the users the
 * resource still has, in the resource's order.
 */
export function grantedUsernames(link: ProjectResourceRow, all: string[]): string[] {
  const chosen = parseNames(link.login_usernames);
  return chosen === null ? all : all.filter((u) => chosen.includes(u));
}

/** Sessions on each resource (the Connect Logs count): members their own, administrators all. */
async function countSessions(
  ctx: AppContext,
  auth: AuthContext,
  resourceIds: number[],
): Promise<Map<number, number>> {
  if (resourceIds.length === 0) return new Map();
  let q = ctx.db
    .selectFrom('tunnel_connection')
    .select(['resource_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('company_id', '=', auth.company.id)
    .where('resource_id', 'in', resourceIds);
  if (!seesAllWorkgroups(auth)) q = q.where('account_id', '=', auth.account.id);
  const rows = await q.groupBy('resource_id').execute();
  return new Map(rows.map((r) => [r.resource_id ?? 0, Number(r.n)]));
}

/** The caller's live ordinary codes, masked, by project resource. */
async function ownCodes(
  ctx: AppContext,
  auth: AuthContext,
  linkIds: number[],
): Promise<Map<number, string>> {
  if (linkIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('tunnel')
    .select(['project_resource_id', 'code_sealed'])
    .where('project_resource_id', 'in', linkIds)
    .where('account_id', '=', auth.account.id)
    .where('type', '=', 'normal')
    .where('status', '=', 'enable')
    .where('expire_time', '>', nowSeconds())
    .execute();
  return new Map(
    rows.map((r) => [r.project_resource_id, maskCode(ctx.sealer.open(r.code_sealed))]),
  );
}

async function defaultUsernames(
  ctx: AppContext,
  auth: AuthContext,
  linkIds: number[],
): Promise<Map<number, string>> {
  if (linkIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('project_resource_default')
    .select(['project_resource_id', 'default_username'])
    .where('project_resource_id', 'in', linkIds)
    .where('account_id', '=', auth.account.id)
    .execute();
  return new Map(rows.map((r) => [r.project_resource_id, r.default_username]));
}

export async function projectResourceReplies(
  ctx: AppContext,
  auth: AuthContext,
  rows: ProjectResourceJoin[],
): Promise<ProjectResource[]> {
  const linkIds = rows.map((r) => r.projectResource.id);
  const resourceIds = [...new Set(rows.map((r) => r.resource.id))];
  const [logins, gateways, codes, defaults, online, logged] = await Promise.all([
    loginsOf(ctx, resourceIds),
    clusterGateways(
      ctx,
      rows.map((r) => r.network.id),
    ),
    ownCodes(ctx, auth, linkIds),
    defaultUsernames(ctx, auth, linkIds),
    onlineByWorkgroupResource(ctx, auth, resourceIds),
    countSessions(ctx, auth, resourceIds),
  ]);
  const admin = seesAllWorkgroups(auth);
  return rows.map(({ projectResource: link, resource, network }) => {
    const os = resource.os as ResourceOs;
    const all = resourceUsernames(resource, logins.get(resource.id) ?? []);
    const granted = grantedUsernames(link, all);
    const chosenDefault = defaults.get(link.id) ?? '';
    const agent = gateways.get(network.id) ?? null;
    return {
      id: link.id,
      project_resource_id: link.id,
      project_id: link.project_id,
      resource_id: resource.id,
      name: resource.name,
      ip: resource.ip_address,
      port: resource.port,
      os,
      type: isDatabaseOs(os) ? 'rds' : 'ecs',
      flavor: resource.flavor,
      network_id: network.id,
      network_name: network.name,
      resource: {
        status: resource.status,
        resource_type: RESOURCE_TYPES[os],
        network_id: network.id,
        extension: { username: admin ? all : granted, login_username: granted },
      },
      login_user: granted,
      db_name: resource.databases ? resource.databases.split(';') : [],
      // A default the workgroup no longer grants is no default.
      default_username: granted.includes(chosenDefault) ? chosenDefault : '',
      max_tunnel_expire_time: network.max_tunnel_expire_time,
      safe: {
        network_safe_mode: network.safe_mode,
        safe_mode_approver: network.safe_mode_approver,
      },
      agent,
      agent_status: agent?.status ?? 0,
      agent_version: agent?.version ?? '',
      code: codes.get(link.id) ?? '',
      online_connections: online.get(workgroupResourceKey(link.project_id, resource.id)) ?? 0,
      logs: logged.get(resource.id) ?? 0,
      create_time: link.created_at,
    };
  });
}
