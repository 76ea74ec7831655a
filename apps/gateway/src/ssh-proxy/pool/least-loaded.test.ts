import { describe, expect, it } from 'vitest';
import { leastLoaded } from './primary';

const worker = (name: string, busy: number, sessions: number, handed = 0, connected = true) => ({
  name,
  busy,
  sessions,
  handed,
  child: { connected },
});

describe('choosing the worker for a new SSH connection', () => {
  it('sends it away from a worker whose event loop is busy with a bulk transfer', () => {
    // A's one session is a bulk download; B holds three idle shells.
    expect(leastLoaded([worker('A', 0.9, 1), worker('B', 0.01, 3)])?.name).toBe('B');
  });

  it('spreads idle sessions, counting connections handed over since the last report', () => {
    expect(leastLoaded([worker('A', 0, 2), worker('B', 0, 1)])?.name).toBe('B');
    expect(leastLoaded([worker('A', 0, 1), worker('B', 0, 1, 1)])?.name).toBe('A');
  });

  it('skips a worker that is gone, and has none to give when all are', () => {
    expect(leastLoaded([worker('A', 0, 0, 0, false), worker('B', 0.5, 4)])?.name).toBe('B');
    expect(leastLoaded([worker('A', 0, 0, 0, false)])).toBeUndefined();
  });
});
