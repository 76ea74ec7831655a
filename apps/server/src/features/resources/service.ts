/**
 * Resources of a cluster: add, read, change, delete. Credentials are sealed at rest and leave
 * the server only inside one task for the cluster's own gateway.
 */
import {
  CLUSTER_MAX_RESOURCES,
  DATABASE_OS,
  RESOURCE_TYPES,
  type DbTlsMode,
  type Resource,
  type ResourceOs,
} from '@portcullis/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { CreateResourceBodySchema, UpdateResourceBodySchema } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { prepared } from '../../db/prepared';
import type { ResourceLoginTable, ResourceTable } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { currentPlan } from '../accounts';
import { teamCluster } from '../clusters/service';
import { writeEvent } from '../events/writer';
import { rememberFormer } from '../action-logs/former-identities';
import { cutRevokedSessions } from '../sessions/revoke-sessions';
import { tlsColumns } from './db-tls';

export type ResourceRow = Selectable<ResourceTable>;

const TLS_EVENTS = {
  prefer: 'databaseTlsPrefer',
  require: 'databaseTlsRequire',
  verify: 'databaseTlsVerify',
} as const satisfies Record<DbTlsMode, string>;
export type LoginRow = Selectable<ResourceLoginTable>;
type CreateBody = z.output<typeof CreateResourceBodySchema>;
type UpdateBody = z.output<typeof UpdateResourceBodySchema>;

export function isDatabase(os: string): boolean {
  return (DATABASE_OS as readonly string[]).includes(os);
}

export function resourceReply(row: ResourceRow, logins: LoginRow[]): Resource {
  const os = row.os as ResourceOs;
  const database = isDatabase(os);
  const sorted = [...logins].sort((a, b) => a.position - b.position);
  const data = sorted.map((l) => ({
    username: l.username,
    auth_type: l.auth_type,
    test_result: (l.test_result as 'pending' | 'enable' | 'disable' | null) ?? null,
  }));
  return {
    id: row.id,
    network_id: row.network_id,
    name: row.name,
    resource_type: RESOURCE_TYPES[os],
    os,
    ip_address: row.ip_address,
    port: row.port,
    instance_id: row.instance_id,
    flavor: row.flavor,
    // A database's one login is in `username` below; its last test result rides in `data`.
    extension: { username: database ? [] : sorted.map((l) => l.username), data },
    username: database ? (sorted[0]?.username ?? '') : '',
    databases: row.databases ? row.databases.split(';') : [],
    status: row.status,
    create_time: row.created_at,
    host_key: row.host_key,
    tls_mode: database ? (row.tls_mode as DbTlsMode) : null,
    tls_ca: database ? row.tls_ca : null,
  };
}

export async function loginsOf(ctx: AppContext, ids: number[]): Promise<Map<number, LoginRow[]>> {
  const map = new Map<number, LoginRow[]>();
  if (ids.length === 0) return map;
  const rows = await ctx.db
    .selectFrom('resource_login')
    .selectAll()
    .where('resource_id', 'in', ids)
    .execute();
  for (const r of rows) map.set(r.resource_id, [...(map.get(r.resource_id) ?? []), r]);
  return map;
}

const loginsOfOne = prepared(['resource'], (db, v) =>
  db.selectFrom('resource_login').selectAll().where('resource_id', '=', v.resource),
);

/** One resource's login users (a code check's; built once, db/prepared.ts). */
export async function loginsOfResource(ctx: AppContext, id: number): Promise<LoginRow[]> {
  return (await loginsOfOne.execute(ctx.db, { resource: id })).rows;
}

export async function teamResource(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<ResourceRow> {
  const row = await ctx.db
    .selectFrom('resource')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', auth.company.id)
    .executeTakeFirst();
  if (!row) throw new AppError('ResourceNotFound');
  return row;
}

export async function resourceById(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<Resource> {
  const row = await teamResource(ctx, auth, id);
  return resourceReply(row, (await loginsOf(ctx, [row.id])).get(row.id) ?? []);
}

export async function countResources(
  ctx: AppContext,
  where: { companyId?: number; networkId?: number },
): Promise<number> {
  let q = ctx.db.selectFrom('resource').select((eb) => eb.fn.countAll<number>().as('n'));
  if (where.companyId !== undefined) q = q.where('company_id', '=', where.companyId);
  if (where.networkId !== undefined) q = q.where('network_id', '=', where.networkId);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/** Resources of the clusters other teams shared with this one (the dashboard's counter). */
export async function countSharedResources(ctx: AppContext, companyId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('resource')
    .innerJoin('network_share', 'network_share.network_id', 'resource.network_id')
    .where('network_share.company_id', '=', companyId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function assertRoom(
  ctx: AppContext,
  auth: AuthContext,
  networkId: number,
  adding: number,
): Promise<void> {
  const plan = await currentPlan(ctx, auth.company.id);
  const teamCount = await countResources(ctx, { companyId: auth.company.id });
  const clusterCount = await countResources(ctx, { networkId });
  const overPlan = plan && plan.resource_limit > 0 && teamCount + adding > plan.resource_limit;
  if (overPlan || clusterCount + adding > CLUSTER_MAX_RESOURCES)
    throw new AppError('ResourceExceeded');
}

function sealed(ctx: AppContext, secret: string | undefined): string | null {
  return secret ? ctx.sealer.seal(secret) : null;
}

export async function createResource(
  ctx: AppContext,
  auth: AuthContext,
  body: CreateBody,
): Promise<Resource> {
  const network = await teamCluster(ctx, auth, body.network_id);
  await assertRoom(ctx, auth, network.id, 1);
  const database = 'databases' in body;
  // Checked before anything is written: a bad CA text leaves nothing behind.
  const tls = database ? tlsColumns(body.os, body.tls_mode, body.tls_ca) : {};
  const logins = database
    ? [{ username: body.username, auth_type: 0, password: body.password }]
    : body.login_users.map((u) => ({
        username: u.username,
        auth_type: u.auth_type,
        password: u.password,
      }));
  if (new Set(logins.map((l) => l.username)).size !== logins.length) {
    throw new AppError('InvalidParameter', { field: 'login_users' }, { field: 'login_users' });
  }
  const row = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const resource = await trx
        .insertInto('resource')
        .values({
          company_id: auth.company.id,
          network_id: network.id,
          name: body.name,
          name_key: body.name.toLowerCase(),
          os: body.os,
          ip_address: body.ip_address,
          port: body.port,
          instance_id: database ? '' : body.instance_id,
          flavor: database ? '' : body.flavor,
          databases: database ? body.databases : '',
          ...tls,
          status: 1,
          created_at: nowSeconds(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('resource_login')
        .values(
          logins.map((l, position) => ({
            resource_id: resource.id,
            username: l.username,
            auth_type: l.auth_type,
            secret_sealed: sealed(ctx, l.password),
            test_result: null,
            position,
          })),
        )
        .execute();
      return resource;
    })
    .catch((error: unknown) => {
      if (/unique|duplicate/i.test(String((error as Error).message)))
        throw new AppError('ResourceNameExist');
      throw error;
    });
  await writeEvent(ctx, auth, 'cluster', `add${RESOURCE_TYPES[body.os]}`, {
    net_name: network.name,
    resource_name: row.name,
  });
  return resourceById(ctx, auth, row.id);
}

/**
 * The pinned host key goes when asked, or when the address or port it was seen at changes:
 * then whatever is pinned by the time the row is written (a session to the old address may
 * pin one after this read), so it is cleared whether or not one was pinned when read.
 */
export function forgetsHostKey(row: ResourceRow, body: UpdateBody): boolean {
  return (
    (body.host_key === null && row.host_key !== null) ||
    (body.ip_address !== undefined && body.ip_address !== row.ip_address) ||
    (body.port !== undefined && body.port !== row.port)
  );
}

export async function updateResource(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  body: UpdateBody,
): Promise<Resource> {
  const row = await teamResource(ctx, auth, id);
  const database = isDatabase(row.os);
  const tls = database ? tlsColumns(row.os, body.tls_mode, body.tls_ca) : {};
  // The last connectivity test said nothing of another way of connecting.
  const tlsChanged =
    (tls.tls_mode !== undefined && tls.tls_mode !== row.tls_mode) ||
    (tls.tls_ca !== undefined && tls.tls_ca !== row.tls_ca);
  await ctx.db
    .transaction()
    .execute(async (trx) => {
      const columns = {
        ...(body.name !== undefined && { name: body.name, name_key: body.name.toLowerCase() }),
        ...(body.ip_address !== undefined && { ip_address: body.ip_address }),
        ...(body.port !== undefined && { port: body.port }),
        ...(database && body.databases !== undefined && { databases: body.databases }),
        ...tls,
        // A key pinned at the old address says nothing of the new one.
        ...(forgetsHostKey(row, body) && { host_key: null }),
      };
      // A change of credentials alone leaves the resource row as it is.
      if (Object.keys(columns).length > 0) {
        await trx.updateTable('resource').set(columns).where('id', '=', row.id).execute();
      }
      if (database && (body.username !== undefined || body.password !== undefined || tlsChanged)) {
        await trx
          .updateTable('resource_login')
          .set({
            ...(body.username !== undefined && { username: body.username }),
            ...(body.password !== undefined && { secret_sealed: sealed(ctx, body.password) }),
            test_result: null,
          })
          .where('resource_id', '=', row.id)
          .execute();
      }
      if (!database && body.login_users) {
        const existing = await trx
          .selectFrom('resource_login')
          .selectAll()
          .where('resource_id', '=', row.id)
          .execute();
        await trx.deleteFrom('resource_login').where('resource_id', '=', row.id).execute();
        await trx
          .insertInto('resource_login')
          .values(
            body.login_users.map((u, position) => {
              const before = existing.find((e) => e.username === u.username);
              // A login user kept without a new password keeps its sealed secret.
              const secret = u.password ? sealed(ctx, u.password) : (before?.secret_sealed ?? null);
              return {
                resource_id: row.id,
                username: u.username,
                auth_type: u.auth_type,
                secret_sealed: secret,
                test_result: u.password ? null : (before?.test_result ?? null),
                position,
              };
            }),
          )
          .execute();
      }
    })
    .catch((error: unknown) => {
      if (/unique|duplicate/i.test(String((error as Error).message)))
        throw new AppError('ResourceNameExist');
      throw error;
    });
  if (tlsChanged) {
    // Who lowered or raised the trust in a database's connection, or changed its CAs.
    const mode = tls.tls_mode ?? (row.tls_mode as DbTlsMode);
    await writeEvent(ctx, auth, 'cluster', TLS_EVENTS[mode], {
      net_name: (await teamCluster(ctx, auth, row.network_id)).name,
      resource_name: body.name ?? row.name,
    });
  }
  if (body.host_key === null && row.host_key !== null) {
    await writeEvent(ctx, auth, 'cluster', 'forgetHostKey', {
      net_name: (await teamCluster(ctx, auth, row.network_id)).name,
      resource_name: row.name,
    });
  }
  return resourceById(ctx, auth, row.id);
}

export async function deleteResources(
  ctx: AppContext,
  auth: AuthContext,
  ids: number[],
): Promise<void> {
  const rows = await ctx.db
    .selectFrom('resource')
    .innerJoin('network', 'network.id', 'resource.network_id')
    .select(['resource.id', 'resource.name', 'resource.os', 'network.name as net_name'])
    .where('resource.company_id', '=', auth.company.id)
    .where('resource.id', 'in', ids)
    .execute();
  if (rows.length !== new Set(ids).size) throw new AppError('ResourceNotFound');
  await ctx.db.transaction().execute(async (trx) => {
    // The action log and the alarm log keep naming them, and the codes that go with them.
    await rememberFormer(ctx, trx, { resources: ids });
    await trx.deleteFrom('resource_login').where('resource_id', 'in', ids).execute();
    await trx.deleteFrom('resource').where('id', 'in', ids).execute();
  });
  // Its codes went with it (cascade through the workgroups): its open sessions end.
  await cutRevokedSessions(ctx);
  for (const r of rows) {
    await writeEvent(ctx, auth, 'cluster', `delete${RESOURCE_TYPES[r.os as ResourceOs]}`, {
      net_name: r.net_name,
      resource_name: r.name,
    });
  }
}
