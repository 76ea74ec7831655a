/**
 * The action log's Download report: the matching sessions as an xlsx sheet. Codes appear
 * masked, as in the list; times are UTC and the headers say so (the page shows local time, and
 * a report is read anywhere). A match wider than the export's limit ends with a note, in
 * English and Chinese, saying how many older entries were left out and how to reach them.
 *
 * Text goes in as it is: ExcelJS writes a string as a text cell (`t="str"`, a value and no
 * `<f>`), never as a formula, so `=1+1` or `-staging` opens as that text. Only a `{ formula }`
 * value makes a formula cell, and {@link ReportCell} admits none. (ExcelJS 4.4 has no
 * `quotePrefix` style, which would also keep such text a text when a user edits the cell.)
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
  'Start (UTC)',
  'End (UTC)',
  'Total time',
  'Unsafe mode',
  'Recorded',
  'File op',
  'File name',
];

/** What a cell of the report may hold: text and numbers, so never a formula. */
type ReportCell = string | number;

/** Epoch seconds as `YYYY-MM-DD HH:mm:ss` (UTC: a report read anywhere says the same). */
function when(seconds: number): string {
  return seconds > 0 ? new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ') : '';
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * The note that ends a cut report, in English and in Chinese (the file is passed around, and a
 * download link carries the browser's language rather than the console's). The entries left
 * out are the oldest: the export takes the newest first, so they all started at or before the
 * last row's start.
 */
export function omittedNote(shown: number, total: number, lastStart: number): [string, string] {
  const left = total - shown;
  const at = when(lastStart);
  return [
    `This file holds the newest ${count(shown)} of ${count(total)} matching entries: the ` +
      `${count(left)} older ones (started at or before ${at} UTC) are left out. To get them, ` +
      'narrow the search (a shorter time range, an account, a resource or a way) and download ' +
      'the report again.',
    `本文件仅包含 ${count(total)} 条匹配记录中最新的 ${count(shown)} 条，较早的 ${count(left)} ` +
      `条（开始于 ${at} UTC 或更早）未导出。如需导出，请缩小搜索范围（缩短时间范围，或指定账号、` +
      '资源、方式）后重新下载报表。',
  ];
}

function entryRow(r: ActionLogEntry): ReportCell[] {
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
    for (const text of omittedNote(rows.length, total, last.start_date)) {
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
