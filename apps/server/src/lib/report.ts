/**
 * What the downloadable reports share: their times (UTC text), the note that ends an export cut
 * at its limit, and what an xlsx cell may hold. The action log's xlsx report and the system
 * log's CSV say the same things the same way from here.
 */

/**
 * What a cell of an xlsx export may hold: text and numbers, so never a formula. Text goes in as
 * it is: ExcelJS writes a string as a text cell (`t="str"`, a value and no `<f>`), which a
 * spreadsheet shows and never evaluates, so `=1+1` or `-staging` opens as that text. A quote
 * prefix protects nothing there and only corrupts names (`-staging` written as `'-staging`);
 * only a `{ formula }` value makes a formula cell, and this type admits none. (ExcelJS 4.4 has
 * no `quotePrefix` style, which would also keep such text a text when a user edits the cell.)
 * A CSV is another matter: a spreadsheet re-reads its text and evaluates it.
 */
export type XlsxCell = string | number;

/** Epoch seconds as `YYYY-MM-DD HH:mm:ss` (UTC: a report read anywhere says the same). */
export function utcTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** What a report's rows are, in English and in Chinese, for {@link omittedNote}. */
export interface ReportRows {
  /** After "matching": `entries`, `log entries`. */
  en: string;
  /** After 条匹配: 记录, 日志. */
  zh: string;
  /** What a row's time is, before "at or before": `started`, `recorded`. */
  timeEn: string;
  /** The same before the time: 开始于, 记录于. */
  timeZh: string;
}

/**
 * The note that ends a cut export, in English and in Chinese (a file is passed around, and a
 * download carries the browser's language rather than the console's). The rows left out are
 * the oldest: an export takes the newest first, so their times are all at or before the last
 * row's, `lastTime`. `prefix` opens each line: `# ` in a CSV, the comment mark of the readers
 * that have one (pandas `comment`, R `comment.char`, csv-parse `comment`).
 *
 * Numbers are written without grouping and the English has no comma, so that a CSV writes the
 * note unquoted and its `#` opens the line: a comma is the CSV delimiter (and a decimal mark in
 * many locales). The Chinese comma `，` is no delimiter.
 */
export function omittedNote(
  rows: ReportRows,
  shown: number,
  total: number,
  lastTime: number,
  prefix = '',
): [string, string] {
  const left = total - shown;
  const at = utcTime(lastTime);
  return [
    `${prefix}This file holds the newest ${shown} of ${total} matching ${rows.en}: the ${left} ` +
      `older ones (${rows.timeEn} at or before ${at} UTC) are left out. Narrow the search (a ` +
      'shorter time range or another filter) and export again to get them.',
    `${prefix}本文件仅包含 ${total} 条匹配${rows.zh}中最新的 ${shown} 条，较早的 ${left} 条` +
      `（${rows.timeZh} ${at} UTC 或更早）未导出。如需导出，请缩小搜索范围（缩短时间范围或增加筛选` +
      '条件）后重新导出。',
  ];
}
