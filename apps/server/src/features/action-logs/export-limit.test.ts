/**
 * The export of a match wider than its limit, through the real route and database. The limit
 * is lowered to 3 for this file alone: at the real 100,000 the test would write and read back
 * a 100,000-row workbook on each backend for what 5 rows show as well.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as contract from '@portcullis/contract';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';

vi.mock('@portcullis/contract', async (importOriginal) => ({
  ...(await importOriginal<typeof contract>()),
  ACTION_LOG_EXPORT_MAX: 3,
}));

const T0 = 1_700_000_000;

describe('GET /search_tunnel?export=true past the limit', () => {
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    // Five sessions a minute apart: the newest is T0 + 240.
    const rows = Array.from({ length: 5 }, (_, i) => ({
      company_id: 1,
      account_id: 1,
      created_at: T0 + i * 60,
      ended_at: T0 + i * 60 + 30,
      way: 'terminal',
      client_ip: `192.168.1.${i + 1}`,
    }));
    await t.ctx.db.insertInto('tunnel_connection').values(rows).execute();
  });
  afterAll(() => t.close());

  it('exports the newest up to the limit, says how many were left out, and counts them all', async () => {
    expect(contract.ACTION_LOG_EXPORT_MAX).toBe(3);
    const res = await admin.get('/api/search_tunnel?export=true');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('5');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(2).values).toContain('192.168.1.5');
    expect(sheet.getRow(4).values).toContain('192.168.1.3');
    expect(sheet.getRow(5).cellCount).toBe(0);
    // The third newest started at T0 + 120: 2023-11-14 22:15:20 UTC.
    expect(String(sheet.getRow(6).getCell(1).value)).toContain(
      'newest 3 of 5 matching entries: the 2 older ones (started at or before 2023-11-14 22:15:20 UTC)',
    );
    expect(String(sheet.getRow(7).getCell(1).value)).toContain('5 条匹配记录中最新的 3 条');
    expect(sheet.rowCount).toBe(7);
    // Narrowed to fit, the same search has no note.
    const narrowed = await admin.get(`/api/search_tunnel?export=true&time_from=${T0 + 120}`);
    expect(narrowed.headers['x-total-count']).toBe('3');
    const whole = new ExcelJS.Workbook();
    await whole.xlsx.load(narrowed.rawPayload as unknown as ArrayBuffer);
    expect(whole.worksheets[0]!.rowCount).toBe(4);
  });
});
