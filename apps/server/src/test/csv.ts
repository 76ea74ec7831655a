/**
 * A strict RFC 4180 reader for tests of CSV exports: records end with CRLF, a field is quoted
 * whole or not at all, `""` is a quote inside a quoted field. Anything else (a stray quote, a
 * bare CR or LF outside quotes, a last record without its CRLF) throws, so a test that reads a
 * file through it proves the file is CSV, not only that it splits on commas.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`CSV: ${what} at ${i}`);
  };
  while (i < text.length) {
    if (text[i] === '"' && field === '') {
      // A quoted field: up to the quote not doubled, then a delimiter must follow.
      for (i++; ; i++) {
        if (i >= text.length) fail('unterminated quoted field');
        if (text[i] !== '"') field += text[i];
        else if (text[i + 1] === '"') field += text[++i];
        else break;
      }
      i++;
      if (text[i] !== ',' && text[i] !== '\r') fail('text after a closing quote');
      continue;
    }
    const c = text[i]!;
    if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else if (c === '"' || c === '\r' || c === '\n') {
      fail(`stray ${JSON.stringify(c)}`);
    } else {
      field += c;
    }
    i++;
  }
  if (field !== '' || record.length > 0) fail('last record without CRLF');
  return records;
}
