/**
 * The system-log export of a match wider than its limit, through the real route and database.
 * The limit is lowered to 3 for this file alone: at the real 100,000 the test would write and
 * read back 100,000 rows on each backend for what 5 rows show as well.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { parseCsv } from '../../test/csv';
import * as exported from './export';
import { demoCompanyId, insertEvent } from './test-fixtures';

vi.mock('./export', async (importOriginal) => ({
  ...(await importOriginal<typeof exported>()),
  EXPORT_MAX_ROWS: 3,
}));

const T0 = 1_700_000_000;
const WINDOW = `start_time=${T0}&end_time=${T0 + 3600}`;

describe('GET /event/sys_log_export past the limit', () => {
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    const companyId = await demoCompanyId(t);
    // Five cluster events a minute apart (the newest at T0 + 240), with text a spreadsheet
    // would run and a comma.
    for (let i = 0; i < 5; i++)
      await insertEvent(t, {
        company_id: companyId,
        log_type: 'cluster',
        event: 'createNet',
        account: 'admin@demo.local',
        net_name: `-lab, ${i + 1}`,
        created_at: T0 + i * 60,
      });
  });
  afterAll(() => t.close());

  it('exports the newest up to the limit, ends with a note on the rest, and counts them all', async () => {
    expect(exported.EXPORT_MAX_ROWS).toBe(3);
    const res = await admin.get(`/api/event/sys_log_export?log_type=cluster&${WINDOW}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('5');
    const records = parseCsv(res.body.slice(1));
    expect(records.every((r) => r.length === 6)).toBe(true);
    expect(records.slice(1, 4).map((r) => r[3])).toEqual(["'-lab, 5", "'-lab, 4", "'-lab, 3"]);
    expect(records[4]).toEqual(['', '', '', '', '', '']);
    // The third newest was recorded at T0 + 120: 2023-11-14 22:15:20 UTC.
    expect(records[5]![0]).toMatch(
      /^# This file holds the newest 3 of 5 matching log entries: the 2 older ones \(recorded at or before 2023-11-14 22:15:20 UTC\)/,
    );
    expect(records[6]![0]).toMatch(/^# 本文件仅包含 5 条匹配日志中最新的 3 条/);
    expect(records).toHaveLength(7);

    // Narrowed to fit, the same search has no note.
    const narrowed = await admin.get(
      `/api/event/sys_log_export?log_type=cluster&start_time=${T0 + 120}&end_time=${T0 + 3600}`,
    );
    expect(narrowed.headers['x-total-count']).toBe('3');
    expect(parseCsv(narrowed.body.slice(1))).toHaveLength(4);
  });
});
