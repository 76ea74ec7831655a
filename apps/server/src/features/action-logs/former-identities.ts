/**
 * Deleted identities keep their names for the audit views (migration 019). A deletion of a
 * member, a resource, a workgroup, or of a resource from a workgroup calls
 * {@link rememberFormer} in its own transaction, before its delete: the rows are read while
 * they exist, and written only if the delete commits. The codes that go by cascade (a member's,
 * a resource's or a workgroup's) are remembered masked, as the action log shows them, with
 * their workgroup. Nothing secret is kept: the sealed code is opened here only to be masked.
 *
 * The readers (the action log, its export, the alarm log, the action log's resource list)
 * show the live name when there is one and this one otherwise, and resolve name filters over
 * both (see service.ts).
 */
import { maskCode } from '@portcullis/contract';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { AppContext } from '../../context';
import type { Database, FormerIdentityTable, FormerKind } from '../../db/schema';
import { nowSeconds } from '../../lib/time';

/** What a deletion is about to remove; every list may be empty. */
export interface Deleting {
  accounts?: number[];
  resources?: number[];
  projects?: number[];
  /** Resources taken out of a workgroup (project_resource ids): their codes go. */
  projectResources?: number[];
}

/** Ids per look-up of deleted names, well under either backend's parameter limit. */
const IDS_PER_QUERY = 10_000;

/** Codes written per insert: nine values each, well under either backend's parameter limit. */
const CODES_PER_INSERT = 500;

/** Remembers the identities `deleting` names and the codes that go with them. */
export async function rememberFormer(
  ctx: AppContext,
  trx: Kysely<Database>,
  deleting: Deleting,
): Promise<void> {
  const now = nowSeconds();
  const { accounts = [], resources = [], projects = [] } = deleting;
  await copyIdentities(trx, 'account', accounts, now, { account: 'account' });
  await copyIdentities(trx, 'resource', resources, now, {
    ip_address: 'ip_address',
    network_id: 'network_id',
  });
  await copyIdentities(trx, 'project', projects, now, {});
  await rememberCodes(ctx, trx, deleting, now);
}

/**
 * Copies the rows of `kind`'s own table (account, resource or project) with these ids; a
 * column `from` does not name is empty. An identity deleted twice (a retried call) keeps the
 * row of its first deletion.
 */
async function copyIdentities(
  trx: Kysely<Database>,
  kind: FormerKind & ('account' | 'resource' | 'project'),
  ids: number[],
  now: number,
  from: { account?: 'account'; ip_address?: 'ip_address'; network_id?: 'network_id' },
): Promise<void> {
  if (ids.length === 0) return;
  // The kind and the column names are literals of ours, never the caller's text.
  const column = (name: string | undefined, empty: RawBuilder<unknown>) =>
    name ? sql.ref(name) : empty;
  await sql`insert into former_identity
      (kind, id, company_id, name, account, ip_address, network_id, project_id, deleted_at)
    select ${sql.lit(kind)}, id, company_id, name, ${column(from.account, sql`''`)},
      ${column(from.ip_address, sql`''`)}, ${column(from.network_id, sql`null`)}, null, ${now}
    from ${sql.table(kind)} where id in (${sql.join(ids)})
    on conflict (kind, id) do nothing`.execute(trx);
}

/** The codes that the cascade of `deleting` removes, masked, with their workgroups. */
async function rememberCodes(
  ctx: AppContext,
  trx: Kysely<Database>,
  deleting: Deleting,
  now: number,
): Promise<void> {
  const { accounts = [], resources = [], projects = [], projectResources = [] } = deleting;
  if (accounts.length + resources.length + projects.length + projectResources.length === 0) return;
  const codes = await trx
    .selectFrom('tunnel')
    .innerJoin('project_resource', 'project_resource.id', 'tunnel.project_resource_id')
    .select(['tunnel.id', 'tunnel.company_id', 'tunnel.code_sealed', 'project_resource.project_id'])
    .where((eb) =>
      eb.or([
        ...(accounts.length > 0 ? [eb('tunnel.account_id', 'in', accounts)] : []),
        ...(resources.length > 0 ? [eb('project_resource.resource_id', 'in', resources)] : []),
        ...(projects.length > 0 ? [eb('project_resource.project_id', 'in', projects)] : []),
        ...(projectResources.length > 0 ? [eb('project_resource.id', 'in', projectResources)] : []),
      ]),
    )
    .execute();
  for (let i = 0; i < codes.length; i += CODES_PER_INSERT) {
    await trx
      .insertInto('former_identity')
      .values(
        codes.slice(i, i + CODES_PER_INSERT).map((c) => ({
          kind: 'tunnel' as const,
          id: c.id,
          company_id: c.company_id,
          name: maskCode(ctx.sealer.open(c.code_sealed)),
          network_id: null,
          project_id: c.project_id,
          deleted_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['kind', 'id']).doNothing())
      .execute();
  }
}

export type FormerRow = Selectable<FormerIdentityTable>;

/** The deleted identities of these ids, by kind and id; one query, none when all are empty. */
export async function formerIdentities(
  ctx: AppContext,
  ids: Record<'account' | 'resource' | 'tunnel', number[]>,
): Promise<Record<'account' | 'resource' | 'tunnel', Map<number, FormerRow>>> {
  const found = {
    account: new Map<number, FormerRow>(),
    resource: new Map<number, FormerRow>(),
    tunnel: new Map<number, FormerRow>(),
  };
  for (const kind of ['account', 'resource', 'tunnel'] as const) {
    const wanted = [...new Set(ids[kind])];
    // In slices: an export's page may name more ids than PostgreSQL takes parameters (65,535).
    for (let i = 0; i < wanted.length; i += IDS_PER_QUERY) {
      const rows = await ctx.db
        .selectFrom('former_identity')
        .selectAll()
        .where('kind', '=', kind)
        .where('id', 'in', wanted.slice(i, i + IDS_PER_QUERY))
        .execute();
      for (const r of rows) found[kind].set(r.id, r);
    }
  }
  return found;
}
