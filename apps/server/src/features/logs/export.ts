/**
 * The log export: CSV with a UTF-8 byte-order mark so spreadsheets read Chinese text, times as
 * `YYYY-MM-DD HH:mm:ss` (UTC), and cells that a spreadsheet would run as a formula defused (a
 * spreadsheet re-reads CSV text and evaluates it, unlike a text cell of an xlsx).
 *
 * At most {@link EXPORT_MAX_ROWS} rows, the newest. A wider match ends, after an empty record,
 * with a note in English and Chinese saying how many older rows were left out and how to reach
 * them. Every record keeps the header's number of fields, so the file stays valid for strict
 * CSV readers; the note records start with `#`, the comment mark of the readers that have one
 * (pandas `comment`, R `comment.char`, csv-parse `comment`), and a data record never does, as
 * its first field is a time.
 */
import type { LogType } from '@portcullis/contract';

export const EXPORT_MAX_ROWS = 100_000;

const COLUMNS: Record<LogType, string[]> = {
  login: ['time', 'account', 'admin', 'ip', 'success', 'reason'],
  team: ['time', 'account', 'event', 'user', 'group'],
  cluster: ['time', 'account', 'event', 'net_name', 'resource_name', 'shared_company_name'],
  project: [
    'time',
    'account',
    'event',
    'project_name',
    'resource_name',
    'project_account',
    'group',
  ],
  alarm: [
    'operation_time',
    'account_name',
    'con_ip',
    'resource_name',
    'project_name',
    'way',
    'event',
    'command',
    'notice_accounts',
  ],
};

function formatTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19);
}

function cell(value: unknown, column: string): string {
  let text: string;
  if ((column === 'time' || column === 'operation_time') && typeof value === 'number')
    text = formatTime(value);
  else if (Array.isArray(value)) text = value.join(';');
  else if (value === null || value === undefined) text = '';
  else text = String(value);
  // A leading = + - @ (or tab/CR) makes spreadsheets evaluate the cell: prefix a quote.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The note that ends a cut export, in English and in Chinese (a file is passed around, and a
 * download carries the browser's language rather than the console's). The rows left out are the
 * oldest: the export takes the newest first, so they were all recorded at or before the last
 * row. Numbers are written without grouping and the English has no comma, so that the note is
 * written unquoted and its `#` opens the line: a comma is the CSV delimiter (and a decimal mark
 * in many locales).
 */
export function omittedNote(shown: number, total: number, lastTime: number): [string, string] {
  const left = total - shown;
  const at = formatTime(lastTime);
  return [
    `# This file holds the newest ${shown} of ${total} matching log entries: the ${left} older ` +
      `ones (recorded at or before ${at} UTC) are left out. Narrow the search (a shorter time ` +
      'range or another filter) and export again to get them.',
    `# 本文件仅包含 ${total} 条匹配日志中最新的 ${shown} 条，较早的 ${left} 条（记录于 ${at} UTC ` +
      '或更早）未导出。如需导出，请缩小搜索范围（缩短时间范围或增加筛选条件）后重新导出。',
  ];
}

/**
 * The CSV of `rows`, the newest of `total` matching entries (newest first); `total` above the
 * rows' count adds the note on the rest.
 */
export function toCsv(type: LogType, rows: Record<string, unknown>[], total: number): string {
  const columns = COLUMNS[type];
  const record = (fields: string[]) => fields.join(',');
  const lines = [
    record(columns.map((c) => (c === 'time' || c === 'operation_time' ? `${c} (UTC)` : c))),
  ];
  for (const row of rows) lines.push(record(columns.map((c) => cell(row[c], c))));
  // Every type's first column is its time.
  const lastTime = rows.at(-1)?.[columns[0]!];
  if (typeof lastTime === 'number' && total > rows.length) {
    const empty = columns.map(() => '');
    // An empty record first, so that a spreadsheet's sort or filter of the rows (which takes
    // the block of rows around the cursor) leaves the note out, as in the action-log report.
    lines.push(record(empty));
    for (const text of omittedNote(rows.length, total, lastTime))
      lines.push(record([cell(text, ''), ...empty.slice(1)]));
  }
  return '\uFEFF' + lines.join('\r\n') + '\r\n';
}
