/**
 * Key login set-up for Linux servers (spec 2 §7 Resources: key upload and key test, §4 key
 * test polled every second). Each Linux resource gets its own ed25519 key pair, made here the
 * first time it is needed; the private key is kept sealed under the master key and leaves the
 * server only inside a task for the cluster's gateway.
 *
 * A key upload hands the gateway the login user's password for that one task: it is not
 * stored, not logged, and not part of the task row (which keeps only the kind, the subject
 * and the gateway's answer).
 */
import {
  TaskResultSchema,
  type KeyTaskStatus,
  type SshLogin,
  type TaskResult,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { newEd25519Key } from '../../lib/ed25519';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { everyGatewayHas } from '../clusters/service';
import { assertPinChecked } from '../sessions/host-key';
import { teamResource } from '../resources/service';

/** A gateway that has not answered in this long will not: the task counts as failed. */
const TASK_TIMEOUT_SECONDS = 60;
const SSH_DEFAULT_PORT = 22;

type KeyKind = 'key_upload' | 'key_test';

export interface ResourceKeypair {
  publicKey: string;
  privateKey: string;
}

/** The resource's key pair, made (once, whoever asks first) when it has none. */
export async function resourceKeypair(
  ctx: AppContext,
  resourceId: number,
): Promise<ResourceKeypair> {
  let row = await ctx.db
    .selectFrom('resource_keypair')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .executeTakeFirst();
  if (!row) {
    const pair = newEd25519Key(`portcullis-resource-${resourceId}`);
    await ctx.db
      .insertInto('resource_keypair')
      .values({
        resource_id: resourceId,
        public_key: pair.public.trim(),
        private_key_sealed: ctx.sealer.seal(pair.private),
        created_at: nowSeconds(),
      })
      .onConflict((oc) => oc.column('resource_id').doNothing())
      .execute();
    row = await ctx.db
      .selectFrom('resource_keypair')
      .selectAll()
      .where('resource_id', '=', resourceId)
      .executeTakeFirstOrThrow();
  }
  return { publicKey: row.public_key, privateKey: ctx.sealer.open(row.private_key_sealed) };
}

/**
 * The private key of a resource for a login with auth_type 1 (SSH key), or null when no key
 * was ever made for it. For the connectivity test and the session proxies.
 */
export async function resourcePrivateKey(
  ctx: AppContext,
  resourceId: number,
): Promise<string | null> {
  const row = await ctx.db
    .selectFrom('resource_keypair')
    .select('private_key_sealed')
    .where('resource_id', '=', resourceId)
    .executeTakeFirst();
  return row ? ctx.sealer.open(row.private_key_sealed) : null;
}

/** A login user of one of the team's Linux servers, and where the gateway reaches it. */
async function linuxLogin(
  ctx: AppContext,
  auth: AuthContext,
  resourceId: number,
  username: string,
) {
  const resource = await teamResource(ctx, auth, resourceId);
  if (resource.os !== 'linux') throw new AppError('MustBeLinuxServer');
  const login = await ctx.db
    .selectFrom('resource_login')
    .selectAll()
    .where('resource_id', '=', resource.id)
    .where('username', '=', username)
    .executeTakeFirst();
  if (!login) throw new AppError('InvalidParameter', { field: 'username' }, { field: 'username' });
  const where: SshLogin = {
    host: resource.ip_address,
    port: resource.port || SSH_DEFAULT_PORT,
    username: login.username,
    // The key pinned at the first session: a target showing another gets no password.
    ...(resource.host_key !== null && { host_key: resource.host_key }),
  };
  return { resource, login, where };
}

/**
 * A gateway of the cluster is connected and every connected one can run the task (an older
 * gateway could not read it, and the task would only time out).
 */
async function assertGatewayCan(ctx: AppContext, networkId: number, kind: KeyKind) {
  if (!(await everyGatewayHas(ctx, networkId, kind))) throw new AppError('AgentError');
}

export async function startKeyUpload(
  ctx: AppContext,
  auth: AuthContext,
  resourceId: number,
  body: { username: string; password: string },
): Promise<string> {
  const { resource, login, where } = await linuxLogin(ctx, auth, resourceId, body.username);
  await assertGatewayCan(ctx, resource.network_id, 'key_upload');
  await assertPinChecked(ctx, resource);
  const pair = await resourceKeypair(ctx, resource.id);
  return ctx.gateways.dispatch(
    auth.company.id,
    resource.network_id,
    {
      kind: 'key_upload',
      target: { ...where, password: body.password, private_key: pair.privateKey },
      public_key: pair.publicKey,
    },
    login.id,
  );
}

export async function startKeyTest(
  ctx: AppContext,
  auth: AuthContext,
  resourceId: number,
  username: string,
): Promise<string> {
  const { resource, login, where } = await linuxLogin(ctx, auth, resourceId, username);
  await assertGatewayCan(ctx, resource.network_id, 'key_test');
  await assertPinChecked(ctx, resource);
  const pair = await resourceKeypair(ctx, resource.id);
  return ctx.gateways.dispatch(
    auth.company.id,
    resource.network_id,
    { kind: 'key_test', target: { ...where, private_key: pair.privateKey } },
    login.id,
  );
}

function parsed(text: string): { result: TaskResult | null; error: string | null } {
  try {
    const json: unknown = JSON.parse(text);
    const result = TaskResultSchema.safeParse(json);
    if (result.success) return { result: result.data, error: null };
    const error = (json as { error?: unknown } | null)?.error;
    return { result: null, error: typeof error === 'string' ? error : 'failed' };
  } catch {
    return { result: null, error: 'failed' };
  }
}

/**
 * Where a key task stands. A success marks the login user usable (test_result 'enable'); a
 * failed key test of an SSH-key login user marks it 'disable'. Failures carry the gateway's
 * reason word and the catalogue code the console shows (SetAutologinFailed).
 */
export async function keyTaskStatus(
  ctx: AppContext,
  auth: AuthContext,
  taskId: string,
  kind: KeyKind,
): Promise<KeyTaskStatus> {
  const task = await ctx.db
    .selectFrom('task')
    .selectAll()
    .where('id', '=', taskId)
    .where('company_id', '=', auth.company.id)
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (!task) throw new AppError('TaskExpired');
  if (task.status === 'pending') {
    if (nowSeconds() - task.created_at <= TASK_TIMEOUT_SECONDS) {
      return { status: 'pending', reason: '' };
    }
    task.status = 'failed';
    task.result = JSON.stringify({ error: 'timeout' });
    await ctx.db
      .updateTable('task')
      .set({ status: task.status, result: task.result, finished_at: nowSeconds() })
      .where('id', '=', task.id)
      .where('status', '=', 'pending')
      .execute();
  }
  const { result, error } = parsed(task.result);
  const ok = result !== null && result.kind === kind && 'ok' in result && result.ok;
  const reason = result && 'reason' in result ? result.reason || 'failed' : (error ?? 'failed');
  if (task.subject_id !== null) {
    let change = ctx.db
      .updateTable('resource_login')
      .set({ test_result: ok ? 'enable' : 'disable' })
      .where('id', '=', task.subject_id);
    // Only a key test speaks for an SSH-key login; a failed upload changes nothing.
    if (!ok) change = change.where('auth_type', '=', 1);
    if (ok || kind === 'key_test') await change.execute();
  }
  return ok
    ? { status: 'success', reason: '' }
    : { status: 'failed', reason, code: 'SetAutologinFailed' };
}
