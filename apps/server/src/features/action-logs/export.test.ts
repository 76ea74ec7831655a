import ExcelJS from 'exceljs';
import type { ActionLogEntry } from '@portcullis/contract';
import { describe, expect, it } from 'vitest';
import { longestPauseDuring } from '../../test/event-loop';
import { actionLogWorkbook } from './export';

const entry = (i: number): ActionLogEntry =>
  ({
    way: 'ssh',
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
    op: '',
    filename: '',
  }) as unknown as ActionLogEntry;

describe('the action log report', () => {
  it('is written without holding the server: other work runs between its rows', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => entry(i + 1));
    const { result: file, longest } = await longestPauseDuring(() => actionLogWorkbook(rows));
    // Built whole, 20,000 rows held the event loop for seconds (100,000 for 10 s and more).
    expect(longest).toBeLessThan(1000);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(20_001);
    expect(sheet.getRow(20_001).values).toContain('member-20000');
  }, 60_000);
});
