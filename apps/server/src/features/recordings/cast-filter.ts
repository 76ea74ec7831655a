/**
 * Shapes a stored asciicast v2 file for one reader: only whole lines (a live session's last
 * line may still be arriving), and without input ("i") events for readers who may not see
 * what was typed (contract recording.ts, INPUT_VIEWER_ROLES).
 */

/** Bytes looked through between two turns of the event loop. */
const BYTES_PER_TURN = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Event lines are written as `[t, "i", …]` (t digits and a point); the header is an object and
 * never matches.
 */
function isInput(file: Buffer, start: number, end: number): boolean {
  if (file[start] !== 0x5b) return false; // [
  let at = start + 1;
  while (at < end && ((file[at]! >= 0x30 && file[at]! <= 0x39) || file[at] === 0x2e)) at++;
  if (at === start + 1 || file[at] !== 0x2c) return false; // ,
  at++;
  if (file[at] === 0x20) at++;
  return file[at] === 0x22 && file[at + 1] === 0x69 && file[at + 2] === 0x22; // "i"
}

/**
 * The recording for its reader. Lines are looked through as bytes, a few MB per turn of the
 * event loop: as one string split and joined, a recording of 256 MB held the server for 10 s
 * (1.6 GB), answering nothing else meanwhile.
 */
export async function castForReader(file: Buffer, withInput: boolean): Promise<Buffer> {
  const whole = wholeLines(file);
  if (withInput) return whole;
  const kept: Buffer[] = [];
  let keptFrom = 0;
  let nextTurn = BYTES_PER_TURN;
  for (let start = 0; start < whole.length;) {
    const end = whole.indexOf(NEWLINE, start);
    if (isInput(whole, start, end)) {
      if (start > keptFrom) kept.push(whole.subarray(keptFrom, start));
      keptFrom = end + 1;
    }
    start = end + 1;
    if (start >= nextTurn) {
      nextTurn = start + BYTES_PER_TURN;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (keptFrom < whole.length) kept.push(whole.subarray(keptFrom));
  return kept.length === 1 ? kept[0]! : Buffer.concat(kept);
}

/** The file up to its last newline: a live session's last line may still be arriving. */
export function wholeLines(file: Buffer): Buffer {
  const end = file.lastIndexOf(NEWLINE);
  return end < 0 ? Buffer.alloc(0) : file.subarray(0, end + 1);
}
