/**
 * The action log's Download report: the matching sessions as an xlsx sheet. Codes appear
 * masked, as in the list; cells that look like formulas are defused.
 */
import ExcelJS from 'exceljs';
import { formatDuration, type ActionLogEntry } from '@portcullis/contract';

const HEADER = [
  'Connection',
  'Account',
  'Resource',
  'Resource address',
  'Way',
  'Code',
  'Client address',
  'Start',
  'End',
  'Total time',
  'Unsafe mode',
  'Recorded',
  'File op',
  'File name',
];

/** Epoch seconds as `YYYY-MM-DD HH:mm:ss` (UTC: a report read anywhere says the same). */
function when(seconds: number): string {
  return seconds > 0 ? new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ') : '';
}

const safe = (text: string) => (/^[=+\-@]/.test(text) ? `'${text}` : text);

export async function actionLogWorkbook(rows: readonly ActionLogEntry[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('action log');
  sheet.addRow(HEADER).font = { bold: true };
  for (const r of rows) {
    sheet.addRow([
      r.connection_id,
      safe(r.account_name),
      safe(r.resource_name),
      safe(r.resource_ip_address),
      r.way,
      r.code,
      safe(r.client_ip_address),
      when(r.start_date),
      when(r.date),
      r.date ? formatDuration(r.start_date, r.date) : '',
      r.unsafe_mode,
      r.play ? 1 : 0,
      r.op ?? '',
      safe(r.filename ?? ''),
    ]);
  }
  sheet.columns.forEach((c) => (c.width = 20));
  return Buffer.from(await book.xlsx.writeBuffer());
}
