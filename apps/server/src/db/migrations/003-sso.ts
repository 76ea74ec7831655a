/**
 * Single sign-on: the team's SAML configuration and the single-use sign-in credentials.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(_db: AnyDb, _ctx: MigrationContext): Promise<void> {}
