/**
 * The action log's Download report: the matching sessions as an xlsx sheet. Codes appear
 * masked, as in the list; times are UTC and the headers say so (the page shows local time, and
 * a report is read anywhere). A match wider than the export's limit ends with the note of
 * lib/report.ts, saying how many older entries were left out and how to reach them. Text goes
 * in as it is, as text cells ({@link XlsxCell}).
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { formatDuration, type ActionLogEntry } from '@portcullis/contract';
import { omittedNote, utcTime, type ReportRows, type XlsxCell } from '../../lib/report';

const HEADER = [
  'Connection',
  'Account',
  'Resource',
  'Resource address',
  'Way',
  'Code',
  'Client address',
  'Start (UTC)',
  'End (UTC)',
  'Total time',
  'Unsafe mode',
  'Recorded',
  'File op',
  'File name',
];

/** A session's time; none for the end of one still open. */
const when = (seconds: number): string => (seconds > 0 ? utcTime(seconds) : '');

const SESSIONS: ReportRows = {
  en: 'entries',
  zh: '记录',
  timeEn: 'started',
  timeZh: '开始于',
};

function entryRow(r: ActionLogEntry): XlsxCell[] {
  return [
    r.connection_id,
    r.account_name,
    r.resource_name,
    r.resource_ip_address,
    r.way,
    r.code,
    r.client_ip_address,
    when(r.start_date),
    when(r.date),
    r.date ? formatDuration(r.start_date, r.date) : '',
    r.unsafe_mode,
    r.play ? 1 : 0,
    r.op ?? '',
    r.filename ?? '',
  ];
}

/** Rows written between two turns of the event loop. */
const ROWS_PER_TURN = 500;

/**
 * The workbook of `rows`, the newest of `total` matching entries, written row by row through
 * ExcelJS's streaming writer with a turn of the event loop every {@link ROWS_PER_TURN} rows.
 * Built whole in memory it held the server for 10 s and more at 100,000 rows (1.3 GB), during
 * which nothing else was answered, not even the gateways' heartbeats: a long enough export cut
 * every gateway off, and with it every session.
 */
export async function actionLogWorkbook(
  rows: readonly ActionLogEntry[],
  total: number,
): Promise<Buffer> {
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
    sheet.addRow(entryRow(r)).commit();
    if ((i + 1) % ROWS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const last = rows.at(-1);
  if (last && total > rows.length) {
    // After an empty row, so that a spreadsheet's sort or filter of the entries (which takes
    // the block of rows around the cursor) leaves the note out.
    sheet.addRow([]).commit();
    for (const text of omittedNote(SESSIONS, rows.length, total, last.start_date)) {
      const note = sheet.addRow([text]);
      note.font = { bold: true };
      note.commit();
    }
  }
  sheet.commit();
  const ended = new Promise((resolve) => out.on('end', resolve));
  await book.commit();
  await ended;
  return Buffer.concat(chunks);
}
