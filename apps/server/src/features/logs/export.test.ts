/**
 * The system-log CSV: a cut export ends with a note on what was left out that no reader takes
 * for a row, and the file stays valid CSV with the header's number of fields in every record.
 */
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../test/csv';
import { toCsv } from './export';

const T0 = 1_700_000_000;
const team = (i: number) => ({
  time: T0 + i,
  account: `admin-${i}@demo.local`,
  event: 'createGroup',
  user: '',
  group: `ops, night ${i}`,
});

describe('the system-log CSV', () => {
  it('ends an export cut at the limit with a note, and stays valid CSV', () => {
    const csv = toCsv('team', [team(3), team(2), team(1)], 123_456);
    const records = parseCsv(csv.slice(1));
    expect(records[0]).toEqual(['time (UTC)', 'account', 'event', 'user', 'group']);
    expect(records.every((r) => r.length === 5)).toBe(true);
    expect(records[3]).toEqual([
      '2023-11-14 22:13:21',
      'admin-1@demo.local',
      'createGroup',
      '',
      'ops, night 1',
    ]);
    // An empty record keeps the note out of a spreadsheet's sort or filter of the rows.
    expect(records[4]).toEqual(['', '', '', '', '']);
    const [english, chinese] = [records[5]![0]!, records[6]![0]!];
    expect(english).toBe(
      '# This file holds the newest 3 of 123456 matching log entries: the 123453 older ones ' +
        '(recorded at or before 2023-11-14 22:13:21 UTC) are left out. Narrow the search (a ' +
        'shorter time range or another filter) and export again to get them.',
    );
    expect(chinese).toContain('123456 条匹配日志中最新的 3 条，较早的 123453 条');
    expect(chinese).toContain('缩小搜索范围');
    expect(records).toHaveLength(7);
    // Unquoted, so that `#` opens the line for the readers that skip comment lines.
    const lines = csv.split('\r\n');
    expect(lines.slice(-3)).toEqual([`${english},,,,`, `${chinese},,,,`, '']);
  });

  it('has no note when it holds the whole match', () => {
    const records = parseCsv(toCsv('team', [team(2), team(1)], 2).slice(1));
    expect(records).toHaveLength(3);
    expect(parseCsv(toCsv('alarm', [], 0).slice(1))).toHaveLength(1);
  });
});
