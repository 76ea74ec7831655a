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
 * Limits: see the contract's kept-cuts.ts (the server keeps its early cuts the same way).
 */
import { createKeptCuts, KEPT_CUT_MS, KEPT_CUTS_MAX } from '@portcullis/contract';

/**
 * `reason` is English text for the member's client; `code`, when the server gave one, the
 * catalogue code of the same reason (errors.ts), for clients that translate.
 */
export type CutListener = (reason: string, code?: string) => void;
export type AnyCutListener = (connectionId: number, reason: string, code?: string) => void;

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
  /** Cuts nobody listened for. */
  const kept = createKeptCuts<{ reason: string; code?: string }>(now, keptMs, keptMax);

  return {
    cut(connectionId, reason, code) {
      for (const listener of [...anyListeners]) listener(connectionId, reason, code);
      const own = listeners.get(connectionId);
      if (own && own.size > 0) {
        for (const listener of [...own]) listener(reason, code);
        return;
      }
      kept.keep(connectionId, { reason, ...(code !== undefined && { code }) });
    },
    onCut(connectionId, listener) {
      let own = listeners.get(connectionId);
      if (!own) listeners.set(connectionId, (own = new Set()));
      own.add(listener);
      const stop = (): void => {
        own.delete(listener);
        if (own.size === 0 && listeners.get(connectionId) === own) listeners.delete(connectionId);
      };
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
