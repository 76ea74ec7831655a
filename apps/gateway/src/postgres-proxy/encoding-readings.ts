/**
 * How a statement's bytes read in the client encodings where a character's second byte may be
 * a quote or a backslash (SJIS, BIG5, GBK, UHC, GB18030, JOHAB). The conversation follows the
 * session's encoding from the target's ParameterStatus, but a client may send a statement
 * before the answer to an earlier one that switches it (`SET client_encoding TO 'SJIS'`
 * pipelined ahead of `SELECT E'<0x83 0x5C>'; DELETE …`): PostgreSQL then reads the bytes in
 * the new encoding, where 0x83 0x5C is one character and the string ends early. While earlier
 * requests are unanswered the statement is therefore also judged as each such encoding would
 * read it.
 *
 * A reading steps through the bytes as PostgreSQL does (pg_wchar.c's mblen for each encoding:
 * the length of a character is known from its first byte, or for GB18030 its second); each
 * multibyte character becomes one `x` (like it, a character of a name), ASCII stays as it is.
 * Only readings in which a quote or backslash was swallowed differ from the UTF-8 one.
 */

type CharLength = (bytes: Buffer, at: number) => number;

const LENGTHS: Record<string, CharLength> = {
  // SJIS, SHIFT_JIS_2004: 0xA1-0xDF are one-byte kana.
  SJIS: (b, at) => (b[at]! >= 0xa1 && b[at]! <= 0xdf ? 1 : 2),
  // BIG5, GBK, UHC: every high byte starts a two-byte character.
  BIG5: () => 2,
  // GB18030: four bytes when the second is a digit.
  GB18030: (b, at) => (b[at + 1] !== undefined && b[at + 1]! >= 0x30 && b[at + 1]! <= 0x39 ? 4 : 2),
  // JOHAB (as EUC): SS3 starts three bytes.
  JOHAB: (b, at) => (b[at] === 0x8f ? 3 : 2),
};

const QUOTE = 0x27;
const BACKSLASH = 0x5c;

/** The text as `length` reads `bytes`, or undefined when it reads as the UTF-8 text does. */
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
      const t = bytes[i + k];
      if (t === QUOTE || t === BACKSLASH) differs = true;
    }
    out[size++] = 0x78; // x
    i += n;
  }
  return differs ? out.toString('latin1', 0, size) : undefined;
}

/** The readings of `bytes` that differ from its UTF-8 one (none for ASCII text). */
export function otherEncodingReadings(bytes: Buffer): string[] {
  if (!bytes.some((b) => b >= 0x80)) return [];
  const readings = new Set<string>();
  for (const length of Object.values(LENGTHS)) {
    const reading = readingOf(bytes, length);
    if (reading !== undefined) readings.add(reading);
  }
  return [...readings];
}
