/**
 * Every cluster has a default workgroup that holds exactly the cluster's resources (spec 2 §2,
 * §3). Clusters are made in several places (the cluster page, the local gateway of `npm start`,
 * databases from before workgroups existed), so instead of hooking each, the workgroup calls
 * bring a team's default workgroups up to date first: one for each cluster that lacks one, and
 * a project resource for each resource of the cluster not yet in it. A default workgroup goes
 * with its cluster (foreign-key cascade) and its resources with theirs.
 *
 * Both steps are idempotent and tolerate a concurrent request doing the same (conflicts are
 * ignored), so replicas need no coordination.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { nowSeconds } from '../../lib/time';

/** A name for the default workgroup of cluster `name` that no workgroup of the team has. */
async function freeName(ctx: AppContext, companyId: number, name: string): Promise<string> {
  const taken = new Set(
    (
      await ctx.db
        .selectFrom('project')
        .select('name_key')
        .where('company_id', '=', companyId)
        .execute()
    ).map((r) => r.name_key),
  );
  // Cluster names are at least 1 character; workgroup names at least 2.
  const base = name.length >= 2 ? name : `${name} cluster`;
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? base : `${base} (${n})`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

export async function syncDefaultWorkgroups(ctx: AppContext, companyId: number): Promise<void> {
  const missing = await ctx.db
    .selectFrom('network')
    .select(['network.id', 'network.name'])
    .where('network.company_id', '=', companyId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('project')
            .select('project.id')
            .whereRef('project.network_id', '=', 'network.id'),
        ),
      ),
    )
    .execute();
  for (const network of missing) {
    const name = await freeName(ctx, companyId, network.name);
    await ctx.db
      .insertInto('project')
      .values({
        company_id: companyId,
        name,
        name_key: name.toLowerCase(),
        description: '',
        network_id: network.id,
        created_at: nowSeconds(),
      })
      // Another request made it first (or took the name): the next call tries again.
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  await ctx.db
    .insertInto('project_resource')
    .columns(['project_id', 'resource_id', 'login_usernames', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('project')
        .innerJoin('resource', 'resource.network_id', 'project.network_id')
        .select([
          'project.id as project_id',
          'resource.id as resource_id',
          sql<null>`null`.as('login_usernames'),
          // A literal, not a parameter: PostgreSQL would type a parameter here as text.
          sql.lit(nowSeconds()).as('created_at'),
        ])
        .where('project.company_id', '=', companyId)
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('project_resource as existing')
                .select('existing.id')
                .whereRef('existing.project_id', '=', 'project.id')
                .whereRef('existing.resource_id', '=', 'resource.id'),
            ),
          ),
        ),
    )
    .onConflict((oc) => oc.columns(['project_id', 'resource_id']).doNothing())
    .execute();
}
