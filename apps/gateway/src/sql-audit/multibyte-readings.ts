/**
 * How a statement's bytes read in the character sets where a character's second byte may be an
 * ASCII quote, backtick or backslash (SJIS/CP932, BIG5, GBK, UHC, GB18030, JOHAB). The judge
 * decodes texts as UTF-8; a server reading the bytes in such a set sees one character where the
 * judge sees a high byte and a quote, and a string or name ends elsewhere: `SELECT E'<0x83 0x5C>';
 * DELETE …` in SJIS (PostgreSQL), ``SELECT 1 AS `x<0xBF 0x60>, 2 AS `; DELETE …`` in GBK (MySQL).
 * When the session's character set may be such a one, the statement must also pass as each of
 * them reads it (judgeSql's `otherReadings`).
 *
 * A reading steps through the bytes as the servers do (the length of a character is known from
 * its first byte, or for GB18030 its second); each multibyte character becomes one `x` (like
 * it, a character of a name), ASCII stays as it is. Only readings in which an ASCII byte was
 * swallowed into a character differ from the UTF-8 one in a way that matters.
 */

import { isAscii } from 'node:buffer';

type CharLength = (bytes: Buffer, at: number) => number;

const LENGTHS: Record<string, CharLength> = {
  // SJIS, SHIFT_JIS_2004, CP932: 0xA1-0xDF are one-byte kana.
  SJIS: (b, at) => (b[at]! >= 0xa1 && b[at]! <= 0xdf ? 1 : 2),
  // BIG5, GBK, UHC: every high byte starts a two-byte character.
  BIG5: () => 2,
  // GB18030: four bytes when the second is a digit.
  GB18030: (b, at) => (b[at + 1] !== undefined && b[at + 1]! >= 0x30 && b[at + 1]! <= 0x39 ? 4 : 2),
  // JOHAB (as EUC): SS3 starts three bytes.
  JOHAB: (b, at) => (b[at] === 0x8f ? 3 : 2),
};

/** Bytes whose loss into a character changes how a text splits: ' " ` \ */
const MEANINGFUL = new Set([0x27, 0x22, 0x60, 0x5c]);

/** The text as `length` reads `bytes`, or undefined when no meaningful byte was swallowed. */
function readingOf(bytes: Buffer, length: CharLength): string | undefined {
  const out = Buffer.allocUnsafe(bytes.length);
  let size = 0;
  let differs = false;
  for (let i = 0; i < bytes.length;) {
    const c = bytes[i]!;
    if (c < 0x80) {
      out[size++] = c;
      i += 1;
      continue;
    }
    const n = length(bytes, i);
    for (let k = 1; k < n && i + k < bytes.length; k++) {
      if (MEANINGFUL.has(bytes[i + k]!)) differs = true;
    }
    out[size++] = 0x78; // x
    i += n;
  }
  return differs ? out.toString('latin1', 0, size) : undefined;
}

/** The readings of `bytes` that differ from its UTF-8 one (none for ASCII text). */
export function multibyteReadings(bytes: Buffer): string[] {
  if (isAscii(bytes)) return [];
  const readings = new Set<string>();
  for (const length of Object.values(LENGTHS)) {
    const reading = readingOf(bytes, length);
    if (reading !== undefined) readings.add(reading);
  }
  return [...readings];
}
