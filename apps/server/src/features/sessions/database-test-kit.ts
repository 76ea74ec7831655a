/**
 * What the database proxies' end-to-end tests (postgres-proxy.test.ts, mysql-proxy.test.ts)
 * share: setting a database's rules as an administrator does, the member's sessions of one way,
 * and a session's statement log as the member downloads it.
 */
import { expect } from 'vitest';
import type { TestApp, TestClient } from '../../test/harness';

export interface StatementLine {
  statement: string;
  database: string;
  duration_ms: number;
  rows?: number;
  error?: string;
  action?: string;
  rule?: string;
}

export const until = async (
  check: () => boolean | Promise<boolean>,
  ms = 10_000,
): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Saves a database's security settings; what `body` leaves out is off or empty. */
export async function setRules(
  admin: TestClient,
  resourceId: number,
  body: Record<string, unknown>,
): Promise<void> {
  const res = await admin.patch(`/api/v1/resource/${resourceId}/security`, {
    status: 1,
    block_pattern: [],
    notice_pattern: [],
    notice_status: 0,
    approve_accounts: [],
    notice_accounts: [],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The account's sessions of one way, newest first. */
export function sessionsOf(t: TestApp, accountId: number, way: string) {
  return t.ctx.db
    .selectFrom('tunnel_connection')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('way', '=', way)
    .orderBy('id', 'desc')
    .execute();
}

/** A session's statement log, once the gateway has uploaded some of it. */
export async function statementLog(
  client: TestClient,
  connectionId: number,
): Promise<StatementLine[]> {
  let lines: StatementLine[] = [];
  await until(async () => {
    const res = await client.get(`/api/download_tunnel_log?connection_id=${connectionId}`);
    if (res.statusCode !== 200) return false;
    lines = res.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as StatementLine);
    return lines.length > 0;
  });
  return lines;
}
