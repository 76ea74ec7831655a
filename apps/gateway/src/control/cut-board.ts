/**
 * The server's cuts, by connection id, for the sessions of one gateway (or one SSH worker).
 *
 * A cut and the answer that started its session do not arrive in a fixed order: the server can
 * cut a session whose start it is still answering (an administrator's cut, a revoked code), and
 * the two messages often leave in the same write, so they are read in one go, before the
 * session has heard its answer. A session also listens only once it is set up: the database
 * proxies start theirs with the code's answer and listen after logging in to the target. A cut
 * that finds no session listening for its id is therefore kept, and a session that listens for
 * that id later is cut at once, with the same reason.
 *
 * Limits: a cut is kept for {@link KEPT_CUT_MS} and at most {@link KEPT_CUTS_MAX} are kept (the
 * oldest go first), with no timer. Connection ids are the server database's row ids, which are
 * never reused (AUTOINCREMENT on SQLite, a sequence on PostgreSQL), so a kept cut cannot end
 * another session.
 */

/**
 * `reason` is English text for the member's client; `code`, when the server gave one, the
 * catalogue code of the same reason (errors.ts), for clients that translate.
 */
export type CutListener = (reason: string, code?: string) => void;
export type AnyCutListener = (connectionId: number, reason: string, code?: string) => void;

/** Long enough for a session's set-up (a target login, a recording opened) after its start. */
export const KEPT_CUT_MS = 60_000;
/** A few thousand sessions cut at once (delete_all) before their sessions listen. */
export const KEPT_CUTS_MAX = 4096;

export interface CutBoard {
  /** The server cut this session (or the control channel went): told to its listeners, or kept. */
  cut(connectionId: number, reason: string, code?: string): void;
  /**
   * Listens for the cut of one session; one that came before it listened is told on the next
   * microtask (not during the call, while the caller is still setting up). Returns a function
   * that stops listening.
   */
  onCut(connectionId: number, listener: CutListener): () => void;
  /** Every cut, of any session (the SSH worker pool passes them on to its workers). */
  onAnyCut(listener: AnyCutListener): () => void;
}

export function createCutBoard(
  now: () => number = Date.now,
  keptMs = KEPT_CUT_MS,
  keptMax = KEPT_CUTS_MAX,
): CutBoard {
  const listeners = new Map<number, Set<CutListener>>();
  const anyListeners = new Set<AnyCutListener>();
  /** Cuts nobody listened for, oldest first (a Map keeps its insertion order). */
  const kept = new Map<number, { reason: string; code?: string; at: number }>();

  const forgetOld = (): void => {
    const before = now() - keptMs;
    for (const [connectionId, entry] of kept) {
      if (entry.at > before && kept.size <= keptMax) break;
      kept.delete(connectionId);
    }
  };

  return {
    cut(connectionId, reason, code) {
      for (const listener of [...anyListeners]) listener(connectionId, reason, code);
      const own = listeners.get(connectionId);
      if (own && own.size > 0) {
        for (const listener of [...own]) listener(reason, code);
        return;
      }
      kept.delete(connectionId); // a repeat moves it to the end, as the newest
      kept.set(connectionId, { reason, ...(code !== undefined && { code }), at: now() });
      forgetOld();
    },
    onCut(connectionId, listener) {
      let own = listeners.get(connectionId);
      if (!own) listeners.set(connectionId, (own = new Set()));
      own.add(listener);
      const stop = (): void => {
        own.delete(listener);
        if (own.size === 0 && listeners.get(connectionId) === own) listeners.delete(connectionId);
      };
      forgetOld();
      // Kept on: another listener for the same session is cut too.
      const earlier = kept.get(connectionId);
      if (earlier) {
        queueMicrotask(() => {
          // Unless it stopped listening meanwhile (the session ended on its own).
          if (own.has(listener)) listener(earlier.reason, earlier.code);
        });
      }
      return stop;
    },
    onAnyCut(listener) {
      anyListeners.add(listener);
      return () => anyListeners.delete(listener);
    },
  };
}
