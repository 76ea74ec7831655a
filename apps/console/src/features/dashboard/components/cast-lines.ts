/**
 * asciicast v2 lines as the monitor draws them: the header's size, output, and resizes. Typed
 * input is left out: the terminal's own echo already shows what the member typed (and a
 * password typed at a prompt, which the terminal does not echo, stays unseen here).
 */
export type CastStep =
  { kind: 'size'; cols: number; rows: number } | { kind: 'output'; data: string };

function size(cols: unknown, rows: unknown): CastStep | null {
  const c = Number(cols);
  const r = Number(rows);
  return Number.isInteger(c) && Number.isInteger(r) && c > 0 && r > 0
    ? { kind: 'size', cols: c, rows: r }
    : null;
}

function step(line: string): CastStep | null {
  try {
    const parsed: unknown = JSON.parse(line);
    if (Array.isArray(parsed)) {
      const [, code, data] = parsed as [unknown, unknown, unknown];
      if (typeof data !== 'string') return null;
      if (code === 'o') return { kind: 'output', data };
      if (code === 'r') {
        const [cols, rows] = data.split('x');
        return size(cols, rows);
      }
      return null;
    }
    if (parsed && typeof parsed === 'object') {
      const header = parsed as { width?: unknown; height?: unknown };
      return size(header.width, header.height);
    }
  } catch {
    // A line that is not JSON is skipped: the rest of the session still shows.
  }
  return null;
}

/** The steps of whole cast lines, in order. */
export function castSteps(cast: string): CastStep[] {
  return cast.split('\n').flatMap((line) => {
    const s = line ? step(line) : null;
    return s ? [s] : [];
  });
}
