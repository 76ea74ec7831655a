/**
 * The password preparation PostgreSQL applies before SCRAM (src/common/saslprep.c, RFC 4013):
 * an ASCII password is used as it is; otherwise non-ASCII spaces become a space, characters
 * "commonly mapped to nothing" (soft hyphen, zero-width joiners, variation selectors, …) are
 * dropped and the result is NFKC-normalised. A password that comes out with a prohibited
 * character (controls, private use, non-characters, surrogates, …) is used as it was, as
 * PostgreSQL then does. Left out: RFC 3454's bidirectional check and its table of code points
 * unassigned in Unicode 3.2 (PostgreSQL also falls back to the raw password on those; a
 * password with right-to-left text mixed with left-to-right may differ).
 */

type Ranges = readonly (readonly [number, number])[];

/** RFC 3454 C.1.2: non-ASCII spaces. */
const NON_ASCII_SPACE: Ranges = [
  [0x00a0, 0x00a0],
  [0x1680, 0x1680],
  [0x2000, 0x200b],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];

/** RFC 3454 B.1: commonly mapped to nothing. */
const MAPPED_TO_NOTHING: Ranges = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x1806, 0x1806],
  [0x180b, 0x180d],
  [0x200b, 0x200d],
  [0x2060, 0x2060],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
];

/** RFC 3454 C.2-C.9: controls, private use, non-characters, surrogates, tags, … */
const PROHIBITED: Ranges = [
  [0x0000, 0x001f],
  [0x007f, 0x009f],
  [0x0340, 0x0341],
  [0x06dd, 0x06dd],
  [0x070f, 0x070f],
  [0x180e, 0x180e],
  [0x200c, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2063],
  [0x206a, 0x206f],
  [0x2ff0, 0x2ffb],
  [0xd800, 0xdfff],
  [0xe000, 0xf8ff],
  [0xfdd0, 0xfdef],
  [0xfeff, 0xfeff],
  [0xfff9, 0xffff],
  [0x1d173, 0x1d17a],
  [0xe0001, 0xe0001],
  [0xe0020, 0xe007f],
  [0xf0000, 0xffffd],
  [0x100000, 0x10fffd],
];

const within = (code: number, ranges: Ranges): boolean =>
  ranges.some(([from, to]) => code >= from && code <= to);

/** U+nFFFE and U+nFFFF of every plane are non-characters. */
const nonCharacter = (code: number): boolean => (code & 0xfffe) === 0xfffe;

export function saslprep(password: string): string {
  // eslint-disable-next-line no-control-regex -- the ASCII range
  if (/^[\u0000-\u007f]*$/.test(password)) return password;
  let mapped = '';
  for (const char of password) {
    const code = char.codePointAt(0)!;
    if (within(code, NON_ASCII_SPACE)) mapped += ' ';
    else if (!within(code, MAPPED_TO_NOTHING)) mapped += char;
  }
  const prepared = mapped.normalize('NFKC');
  for (const char of prepared) {
    const code = char.codePointAt(0)!;
    if (within(code, PROHIBITED) || nonCharacter(code)) return password;
  }
  return prepared === '' ? password : prepared;
}
