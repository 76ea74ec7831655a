/**
 * The rules a code's expiry and safe mode must keep (spec 1 §4, §5), shared by create, modify
 * and temporary authorization.
 */
import { TUNNEL_DEFAULT_SECONDS, TUNNEL_MAX_SECONDS } from '@portcullis/contract';
import { AppError } from '../../lib/app-error';
import type { NetworkRow, ResourceRow } from '../workgroups/access';

/** The cluster's maximum code lifetime; 0 there means no limit, which is still at most a year. */
export function maxLifetime(network: NetworkRow): number {
  return network.max_tunnel_expire_time > 0 ? network.max_tunnel_expire_time : TUNNEL_MAX_SECONDS;
}

export interface ExpiryInput {
  /** Hours from now (a quick expiry). */
  expire?: number | undefined;
  /** An absolute time (a custom date-time), epoch seconds. */
  expire_time?: number | undefined;
}

/**
 * The expiry asked for, checked: in the future (TimeNotValid) and no later than `capFrom` plus
 * the cluster's maximum (ExpireTimeTooBig). `capFrom` is now for a new code and the creation
 * time for a changed one. Without either field: `fallback` (undefined means "no change").
 */
export function checkedExpiry(
  input: ExpiryInput,
  now: number,
  capFrom: number,
  network: NetworkRow,
  fallback: number | undefined,
): number | undefined {
  let at: number | undefined = fallback;
  if (input.expire_time !== undefined) at = input.expire_time;
  else if (input.expire !== undefined) at = now + Math.round(input.expire * 3600);
  if (at === undefined) return undefined;
  if (at <= now) throw new AppError('TimeNotValid');
  if (at > capFrom + maxLifetime(network)) throw new AppError('ExpireTimeTooBig');
  return at;
}

export function defaultExpiry(now: number): number {
  return now + TUNNEL_DEFAULT_SECONDS;
}

/**
 * A code's safe mode. Without a request it follows the cluster (on for a Linux server of a
 * safe-mode cluster). Asking for it needs a Linux server (MustBeLinuxServer) of a cluster in
 * safe mode (NetworkSafeModeNotOpen). Leaving it on such a cluster is the non-security mode,
 * which needs an approved application while the cluster requires approval; applications come
 * with their own feature, so until then that request is refused (NeedApplicationSafeMode).
 */
export function checkedSafeMode(
  resource: ResourceRow,
  network: NetworkRow,
  requested: 0 | 1 | undefined,
): 0 | 1 {
  const linux = resource.os === 'linux';
  const clusterSafe = network.safe_mode === 1;
  if (requested === undefined) return linux && clusterSafe ? 1 : 0;
  if (requested === 1) {
    if (!linux) throw new AppError('MustBeLinuxServer');
    if (!clusterSafe) throw new AppError('NetworkSafeModeNotOpen');
    return 1;
  }
  if (linux && clusterSafe && network.safe_mode_approver === 1)
    throw new AppError('NeedApplicationSafeMode');
  return 0;
}
