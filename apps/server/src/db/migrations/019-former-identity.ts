/**
 * The names of deleted members, resources, workgroups and codes, for the audit views. Sessions
 * (tunnel_connection) keep only ids, and the action log, its export and the alarm log read the
 * names through those ids: once a member, a resource or a workgroup was deleted (and with them,
 * by cascade, their codes), their past sessions read blank and no name filter found them. The
 * deletions now write the row here in the same transaction (features/action-logs
 * former-identities.ts); the readers show the live name, else this one.
 *
 * One row per deleted identity, keyed by kind and id: ids are never reused (AUTOINCREMENT on
 * SQLite, a sequence on PostgreSQL), so a row names exactly the identity the sessions point at.
 * The table holds deleted identities only, so the name filters' contains-match over it is as
 * small as the one over the live tables; the action log reaches it by primary key for a page.
 *
 * - kind: account, resource, project, or tunnel (a code: its masked text in `name`).
 * - account: a member's login (the alarm log names members by it).
 * - ip_address, network_id: a resource's address and cluster.
 * - project_id: a code's workgroup (the alarm log's workgroup of a session).
 *
 * Identities deleted before this migration cannot be named: their rows are gone, and nothing
 * else held their names. Their sessions keep reading blank; later deletions do not.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('former_identity')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('account', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip_address', 'varchar(253)', (c) => c.notNull().defaultTo(''))
    .addColumn('network_id', 'integer')
    .addColumn('project_id', 'integer')
    .addColumn('deleted_at', ctx.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('former_identity_pk', ['kind', 'id'])
    .execute();
}
