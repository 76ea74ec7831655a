/**
 * A terminal session through the SSH proxy is way `terminal`, the spec's name (spec 1 §3: way
 * terminal, wetty, rdp, rds, mysql, mssql, postgresql); it was stored as `ssh`. The rows keep
 * their meaning, and so do the alarm log's rows (which copy the session's way); a gateway of an
 * older version that still says `ssh` is read as `terminal` (contract control.ts), and so is an
 * action-log search for way `ssh`.
 */
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`update tunnel_connection set way = 'terminal' where way = 'ssh'`.execute(db);
  await sql`update event_log set way = 'terminal' where way = 'ssh'`.execute(db);
}
