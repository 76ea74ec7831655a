/**
 * The log export: CSV with a UTF-8 byte-order mark so spreadsheets read Chinese text, times as
 * `YYYY-MM-DD HH:mm:ss` (UTC), and cells that a spreadsheet would run as a formula defused.
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

export function toCsv(type: LogType, rows: Record<string, unknown>[]): string {
  const columns = COLUMNS[type];
  const lines = [
    columns.map((c) => (c === 'time' || c === 'operation_time' ? `${c} (UTC)` : c)).join(','),
  ];
  for (const row of rows) lines.push(columns.map((c) => cell(row[c], c)).join(','));
  return '\uFEFF' + lines.join('\r\n') + '\r\n';
}
