/**
 * Cuts that came before the session they name was listening, by connection id: the server
 * keeps a cut of a session whose start it is still answering, the gateway one that overtook
 * that answer (gateway control/cut-board.ts, server features/sessions/control.ts). Oldest
 * first (a Map keeps its insertion order); an entry is kept for `keptMs` and at most `keptMax`
 * are, pruned as entries are added or read, with no timer. Connection ids are the server
 * database's row ids, never reused, so a kept cut cannot name another session.
 */

/** Long enough for a session's set-up (a target login, a recording opened) after its start. */
export const KEPT_CUT_MS = 60_000;
/** A few thousand sessions cut at once (delete_all) before they listen. */
export const KEPT_CUTS_MAX = 4096;

export interface KeptCuts<T> {
  keep(connectionId: number, cut: T): void;
  get(connectionId: number): T | undefined;
  delete(connectionId: number): void;
}

export function createKeptCuts<T>(
  now: () => number = Date.now,
  keptMs = KEPT_CUT_MS,
  keptMax = KEPT_CUTS_MAX,
): KeptCuts<T> {
  const kept = new Map<number, { cut: T; at: number }>();
  const forgetOld = (): void => {
    const before = now() - keptMs;
    for (const [connectionId, entry] of kept) {
      if (entry.at > before && kept.size <= keptMax) break;
      kept.delete(connectionId);
    }
  };
  return {
    keep(connectionId, cut) {
      kept.delete(connectionId); // a repeat moves it to the end, as the newest
      kept.set(connectionId, { cut, at: now() });
      forgetOld();
    },
    get(connectionId) {
      forgetOld();
      return kept.get(connectionId)?.cut;
    },
    delete: (connectionId) => void kept.delete(connectionId),
  };
}
