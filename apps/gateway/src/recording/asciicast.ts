/**
 * asciicast v2 lines (https://docs.asciinema.org/manual/asciicast/v2/): one JSON header line,
 * then one JSON array per event, `[seconds, code, data]`, each ending in a newline. JSON
 * escaping keeps terminal output (escape sequences included) inert text on every line.
 */
export interface CastStart {
  width: number;
  height: number;
  /** Epoch seconds when the recording began. */
  timestamp: number;
  term?: string;
}

export type CastCode = 'o' | 'i' | 'r';

export function headerLine(start: CastStart): string {
  // TERM only: the gateway does not know the target's shell, and says nothing it does not know.
  const env: Record<string, string> = {};
  if (start.term) env.TERM = start.term;
  return `${JSON.stringify({
    version: 2,
    width: Math.max(1, start.width || 80),
    height: Math.max(1, start.height || 24),
    timestamp: start.timestamp,
    env,
  })}\n`;
}

/** Seconds with microsecond precision, as asciinema writes them. */
export function eventLine(seconds: number, code: CastCode, data: string): string {
  return `[${seconds.toFixed(6)}, ${JSON.stringify(code)}, ${JSON.stringify(data)}]\n`;
}
