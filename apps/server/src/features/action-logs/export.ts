/**
 * The action log's Download report: the matching sessions as an xlsx sheet. Codes appear
 * masked, as in the list; cells that look like formulas are defused.
 */
import { PassThrough } from 'node:stream';
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

/** Rows written between two turns of the event loop. */
const ROWS_PER_TURN = 500;

/**
 * The workbook, written row by row through ExcelJS's streaming writer with a turn of the event
 * loop every {@link ROWS_PER_TURN} rows. Built whole in memory it held the server for 10 s and
 * more at 100,000 rows (1.3 GB), during which nothing else was answered, not even the gateways'
 * heartbeats: a long enough export cut every gateway off, and with it every session.
 */
export async function actionLogWorkbook(rows: readonly ActionLogEntry[]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = book.addWorksheet('action log');
  sheet.columns = HEADER.map(() => ({ width: 20 }));
  const header = sheet.addRow(HEADER);
  header.font = { bold: true };
  header.commit();
  for (const [i, r] of rows.entries()) {
    sheet
      .addRow([
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
      ])
      .commit();
    if ((i + 1) % ROWS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
  const ended = new Promise((resolve) => out.on('end', resolve));
  await book.commit();
  await ended;
  return Buffer.concat(chunks);
}
