/**
 * The agent-update tip of a cluster is snoozed until the next midnight, per account and cluster
 * (spec 2 §2 Cluster detail). The snooze lives in this browser's localStorage.
 */
import { useCallback, useState } from 'react';

const PREFIX = 'pc.cluster-update-tip';

function storageKey(accountId: number, clusterId: number): string {
  return `${PREFIX}.${accountId}.${clusterId}`;
}

/** Milliseconds of the next local midnight after `now`. */
export function nextMidnight(now: Date): number {
  const next = new Date(now);
  next.setHours(24, 0, 0, 0);
  return next.getTime();
}

export function isSnoozed(accountId: number, clusterId: number, now = new Date()): boolean {
  try {
    const until = Number(localStorage.getItem(storageKey(accountId, clusterId)));
    return Number.isFinite(until) && until > now.getTime();
  } catch {
    return false;
  }
}

/** Whether the tip is snoozed, and the call that snoozes it until the next midnight. */
export function useUpdateTipSnooze(
  accountId: number | undefined,
  clusterId: number,
): [boolean, () => void] {
  const [, setVersion] = useState(0);
  const snoozed = accountId !== undefined && isSnoozed(accountId, clusterId);
  const snooze = useCallback(() => {
    if (accountId === undefined) return;
    try {
      localStorage.setItem(storageKey(accountId, clusterId), String(nextMidnight(new Date())));
    } catch {
      // Storage refused (private mode): the tip just comes back on the next visit.
    }
    setVersion((v) => v + 1);
  }, [accountId, clusterId]);
  return [snoozed, snooze];
}
