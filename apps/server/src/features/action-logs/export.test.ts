import ExcelJS from 'exceljs';
import type { ActionLogEntry } from '@portcullis/contract';
import { describe, expect, it } from 'vitest';
import { longestPauseDuring } from '../../test/event-loop';
import { actionLogWorkbook } from './export';

const entry = (i: number, fields: Partial<ActionLogEntry> = {}): ActionLogEntry => ({
  way: 'terminal',
  code: 'ABCD****78',
  resource_id: 1,
  resource_name: `web-${i}`,
  resource_ip_address: '10.0.0.1',
  account_name: `member-${i}`,
  avatar: '',
  account_id: 1,
  agent_version: '',
  start_date: 1_700_000_000 + i,
  date: 1_700_000_060 + i,
  connection_id: i,
  guacamole: 0,
  rdp_width: 0,
  rdp_height: 0,
  client_ip_address: '127.0.0.1',
  unsafe_mode: 0,
  play: 1,
  ...fields,
});

async function sheetOf(file: Buffer): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  return book.worksheets[0]!;
}

describe('the action log report', () => {
  it('is written without holding the server: other work runs between its rows', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => entry(i + 1));
    const {
      result: file,
      longest,
      total,
    } = await longestPauseDuring(() => actionLogWorkbook(rows, rows.length));
    // Built whole, 20,000 rows held the event loop for seconds (100,000 for 10 s and more):
    // nearly all of the time. In slices, no pause is more than a small part of it (a tenth
    // here), however slow the machine.
    expect(longest).toBeLessThan(total / 3);
    const sheet = await sheetOf(file);
    expect(sheet.rowCount).toBe(20_001);
    expect(sheet.getRow(20_001).values).toContain('member-20000');
  }, 60_000);

  it('says its times are UTC', async () => {
    const sheet = await sheetOf(await actionLogWorkbook([entry(0)], 1));
    const header = sheet.getRow(1).values as unknown[];
    expect(header).toContain('Start (UTC)');
    expect(header).toContain('End (UTC)');
    const start = header.indexOf('Start (UTC)');
    // 1,700,000,000 is 2023-11-14 22:13:20 UTC (23:13:20 in Paris, 06:13:20 in Shanghai).
    expect(sheet.getRow(2).getCell(start).value).toBe('2023-11-14 22:13:20');
    expect(sheet.getRow(2).getCell(start + 1).value).toBe('2023-11-14 22:14:20');
  });

  it('keeps text as it was typed, as text and never a formula', async () => {
    const typed = {
      account_name: '=1+1',
      resource_name: '-staging',
      resource_ip_address: '+10.0.0.1',
      client_ip_address: '\t=HYPERLINK("http://x")',
      op: 'download',
      filename: '@SUM(A1:A2)',
    } as const;
    const sheet = await sheetOf(await actionLogWorkbook([entry(1, typed)], 1));
    const row = sheet.getRow(2);
    for (const text of Object.values(typed)) {
      const cells: ExcelJS.Cell[] = [];
      row.eachCell((c) => {
        if (c.value === text) cells.push(c);
      });
      // The prefix `'` used to be written into the value: `'-staging` for `-staging`.
      expect(cells, text).toHaveLength(1);
      expect(cells[0]!.type, text).toBe(ExcelJS.ValueType.String);
      expect(cells[0]!.formula, text).toBeUndefined();
    }
  });

  it('ends a report cut at the limit with a note on what was left out', async () => {
    const rows = [entry(3), entry(2), entry(1)];
    const sheet = await sheetOf(await actionLogWorkbook(rows, 123_456));
    expect(sheet.getRow(4).values).toContain('member-1');
    // An empty row keeps the note out of a sort or filter of the entries.
    expect(sheet.getRow(5).cellCount).toBe(0);
    const english = String(sheet.getRow(6).getCell(1).value);
    // The system-log CSV's note (lib/report.ts), numbers ungrouped as a CSV needs them.
    expect(english).toBe(
      'This file holds the newest 3 of 123456 matching entries: the 123453 older ones ' +
        '(started at or before 2023-11-14 22:13:21 UTC) are left out. Narrow the search (a ' +
        'shorter time range or another filter) and export again to get them.',
    );
    const chinese = String(sheet.getRow(7).getCell(1).value);
    expect(chinese).toContain('123456 条匹配记录中最新的 3 条，较早的 123453 条（开始于');
    expect(chinese).toContain('缩小搜索范围');
    expect(sheet.rowCount).toBe(7);
    // A report that holds the whole match has no note.
    expect((await sheetOf(await actionLogWorkbook(rows, 3))).rowCount).toBe(4);
  });
});
