/**
 * A cluster's log filters (spec 2 §3, operator 'contains') as a session carries them: read
 * when the session starts and sent with session_started, so a filter added or removed applies
 * to the next session. The gateway applies them to what it stores (the recording, alarm
 * commands, file-log names); the conditions themselves are never logged.
 */
import { SESSION_LOG_FILTERS_MAX } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { prepared } from '../../db/prepared';

export interface SessionLogFilters {
  /** The conditions, oldest first; at most SESSION_LOG_FILTERS_MAX. */
  conditions: string[];
  /** The cluster has more than a session carries (the newest are left out). */
  truncated: boolean;
}

// Built once (db/prepared.ts): read for every session.
const conditionsOf = prepared(['network'], (db, v) =>
  db
    .selectFrom('log_filter')
    .select('condition')
    .where('network_id', '=', v.network)
    .orderBy('id')
    .limit(SESSION_LOG_FILTERS_MAX + 1),
);

export async function sessionLogFilters(
  ctx: AppContext,
  networkId: number,
): Promise<SessionLogFilters> {
  const { rows } = await conditionsOf.execute(ctx.db, { network: networkId });
  return {
    conditions: rows.slice(0, SESSION_LOG_FILTERS_MAX).map((r) => r.condition),
    truncated: rows.length > SESSION_LOG_FILTERS_MAX,
  };
}
