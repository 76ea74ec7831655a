import { describe, expect, it } from 'vitest';
import { leastLoaded } from './primary';
import { openSessionsBusy } from './worker';

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

  it('does not count the busy time of a session that has closed', () => {
    // A's bulk download just ended (its bytes are all of A's traffic since the last report);
    // B holds a shell. The next download goes to A again, not beside the shell.
    const a = openSessionsBusy(0.97, { open: 0, closed: 512 * 2 ** 20 }, 0);
    const b = openSessionsBusy(0.02, { open: 40, closed: 0 }, 1);
    expect(a).toBe(0);
    expect(leastLoaded([worker('A', a, 0), worker('B', b, 1)])?.name).toBe('A');
    // Before, the last report's busy share counted whole: the download went to B.
    expect(leastLoaded([worker('A', 0.97, 0), worker('B', b, 1)])?.name).toBe('B');
  });

  it('shares the busy time between open and closed sessions by the bytes they carried', () => {
    expect(openSessionsBusy(0.8, { open: 3000, closed: 1000 }, 2)).toBeCloseTo(0.6);
    // Nothing carried: handshakes count while sessions are open; after the last, nothing does.
    expect(openSessionsBusy(0.3, { open: 0, closed: 0 }, 1)).toBe(0.3);
    expect(openSessionsBusy(0.3, { open: 0, closed: 0 }, 0)).toBe(0);
  });
});
