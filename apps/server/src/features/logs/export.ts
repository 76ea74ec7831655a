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
import { omittedNote, utcTime, type ReportRows } from '../../lib/report';

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

function cell(value: unknown, column: string): string {
  let text: string;
  if ((column === 'time' || column === 'operation_time') && typeof value === 'number')
    text = utcTime(value);
  else if (Array.isArray(value)) text = value.join(';');
  else if (value === null || value === undefined) text = '';
  else text = String(value);
  // A leading = + - @ (or tab/CR) makes spreadsheets evaluate the cell: prefix a quote.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const LOG_ENTRIES: ReportRows = {
  en: 'log entries',
  zh: '日志',
  timeEn: 'recorded',
  timeZh: '记录于',
};

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
    for (const text of omittedNote(LOG_ENTRIES, rows.length, total, lastTime, '# '))
      lines.push(record([cell(text, ''), ...empty.slice(1)]));
  }
  return '\uFEFF' + lines.join('\r\n') + '\r\n';
}
