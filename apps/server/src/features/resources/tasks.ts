/**
 * Connectivity tests and scans: the server decides what the cluster's gateway should try,
 * hands it the one credential the test needs, and reads back the answer.
 */
import { TaskResultSchema, type ConnectivityTarget, type ResourceOs } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { teamCluster } from '../clusters/service';
import { isDatabase, teamResource } from './service';
import { resourcePrivateKey } from '../autologin/service';
import { assertGatewaysHonour } from '../sessions/credential-features';
import { databaseTls } from './db-tls';

/** A gateway that has not answered in this long will not: the test counts as failed. */
const TASK_TIMEOUT_SECONDS = 60;

const KIND: Record<ResourceOs, ConnectivityTarget['kind']> = {
  linux: 'ssh',
  win32: 'rdp',
  mysql: 'mysql',
  postgresql: 'postgresql',
  mssql: 'mssql',
};

export async function startConnectionTest(
  ctx: AppContext,
  auth: AuthContext,
  resourceId: number,
  username?: string,
): Promise<string> {
  const resource = await teamResource(ctx, auth, resourceId);
  const logins = await ctx.db
    .selectFrom('resource_login')
    .selectAll()
    .where('resource_id', '=', resource.id)
    .orderBy('position')
    .execute();
  const login = username ? logins.find((l) => l.username === username) : logins[0];
  if (!login) throw new AppError('InvalidParameter', { field: 'username' }, { field: 'username' });
  const os = resource.os as ResourceOs;
  const tls = databaseTls(resource);
  const target: ConnectivityTarget = {
    kind: KIND[os],
    host: resource.ip_address,
    port: resource.port,
    username: login.username,
    ...(login.secret_sealed &&
      login.auth_type === 0 && { password: ctx.sealer.open(login.secret_sealed) }),
    // SSH key login uses the resource's own key pair (see features/autologin).
    ...(login.auth_type === 1 &&
      os === 'linux' && { private_key: (await resourcePrivateKey(ctx, resource.id)) ?? '' }),
    ...(isDatabase(os) &&
      resource.databases &&
      resource.databases !== '*' && { database: resource.databases.split(';')[0] }),
    // A server's pinned host key (its first session's): another gets no credential.
    ...(os === 'linux' && resource.host_key !== null && { host_key: resource.host_key }),
    // A database's TLS mode: tested as its sessions will connect.
    ...(tls && { tls }),
  };
  await assertGatewaysHonour(ctx, resource.network_id, target);
  const id = await ctx.gateways.dispatch(
    auth.company.id,
    resource.network_id,
    { kind: 'connectivity_test', target },
    login.id,
  );
  await ctx.db
    .updateTable('resource_login')
    .set({ test_result: 'pending' })
    .where('id', '=', login.id)
    .execute();
  return id;
}

async function companyTask(ctx: AppContext, auth: AuthContext, taskId: string, kind: string) {
  const task = await ctx.db
    .selectFrom('task')
    .selectAll()
    .where('id', '=', taskId)
    .where('company_id', '=', auth.company.id)
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (!task) throw new AppError('TaskExpired');
  if (task.status === 'pending' && nowSeconds() - task.created_at > TASK_TIMEOUT_SECONDS) {
    await ctx.db
      .updateTable('task')
      .set({
        status: 'failed',
        result: JSON.stringify({ error: 'timeout' }),
        finished_at: nowSeconds(),
      })
      .where('id', '=', task.id)
      .where('status', '=', 'pending')
      .execute();
    return { ...task, status: 'failed', result: JSON.stringify({ error: 'timeout' }) };
  }
  return task;
}

function parsedResult(text: string) {
  try {
    const parsed = TaskResultSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function connectionTestStatus(ctx: AppContext, auth: AuthContext, taskId: string) {
  const task = await companyTask(ctx, auth, taskId, 'connectivity_test');
  if (task.status === 'pending') return { status: 'pending' as const, reason: '' };
  const result = parsedResult(task.result);
  const ok = result?.kind === 'connectivity_test' && result.ok;
  const reason =
    result?.kind === 'connectivity_test'
      ? result.reason
      : ((JSON.parse(task.result || '{}') as { error?: string }).error ?? 'failed');
  const status = ok ? ('enable' as const) : ('disable' as const);
  if (task.subject_id !== null) {
    await ctx.db
      .updateTable('resource_login')
      .set({ test_result: status })
      .where('id', '=', task.subject_id)
      .execute();
  }
  return { status, reason: ok ? '' : reason };
}

export async function startScan(
  ctx: AppContext,
  auth: AuthContext,
  body: { network_id: number; cidr: string; port: number },
): Promise<string> {
  const network = await teamCluster(ctx, auth, body.network_id);
  return ctx.gateways.dispatch(auth.company.id, network.id, {
    kind: 'scan',
    cidr: body.cidr,
    port: body.port,
  });
}

export async function scanStatus(
  ctx: AppContext,
  auth: AuthContext,
  taskId: string,
  hideDuplicate: boolean,
) {
  const task = await companyTask(ctx, auth, taskId, 'scan');
  if (task.status === 'pending') return { status: 'pending' as const, objects: [] };
  const result = parsedResult(task.result);
  if (task.status === 'failed' || result?.kind !== 'scan')
    return { status: 'failed' as const, objects: [] };
  const known = new Set(
    (
      await ctx.db
        .selectFrom('resource')
        .select('ip_address')
        .where('network_id', '=', task.network_id)
        .execute()
    ).map((r) => r.ip_address),
  );
  const objects = result.open
    .map((o) => ({ ...o, exists: known.has(o.ip) }))
    .filter((o) => !(hideDuplicate && o.exists));
  return { status: 'done' as const, objects };
}
