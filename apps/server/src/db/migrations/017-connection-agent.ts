/**
 * Which gateway connection carries a session: the `agent` row of the control channel it was
 * started on. A server that starts ends the rows whose gateway connection is gone (ended, or
 * silent past the heartbeat grace), and no others: with several replicas, the sessions other
 * replicas' gateways carry stay online (features/sessions/connections.ts); a sweep ends those
 * whose connection went silent later.
 */
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('tunnel_connection').addColumn('agent_id', 'integer').execute();
  // The sweep asks every few seconds for live rows by their gateway connection: an index of
  // the live rows only (a few, beside a million ended ones), on both databases.
  await sql`create index tunnel_connection_live_agent on tunnel_connection (agent_id)
    where ended_at is null`.execute(db);
}
