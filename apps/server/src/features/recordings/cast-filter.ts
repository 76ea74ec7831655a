/**
 * Shapes a stored asciicast v2 file for one reader: only whole lines (a live session's last
 * line may still be arriving), and without input ("i") events for readers who may not see
 * what was typed (contract recording.ts, INPUT_VIEWER_ROLES).
 */
export function castForReader(file: Buffer, withInput: boolean): Buffer {
  const whole = wholeLines(file);
  if (withInput) return whole;
  const lines = whole.toString('utf8').split('\n');
  // Event lines are written as `[t, "i", …]`; the header is an object and never matches.
  const kept = lines.filter((line) => !/^\[[0-9.]+, ?"i",/.test(line));
  return Buffer.from(kept.join('\n'), 'utf8');
}

/** The file up to its last newline: a live session's last line may still be arriving. */
export function wholeLines(file: Buffer): Buffer {
  const end = file.lastIndexOf(0x0a);
  return end < 0 ? Buffer.alloc(0) : file.subarray(0, end + 1);
}
