/** Reconnect delays: capped exponential backoff with jitter, so gateways don't stampede. */
export interface BackoffOptions {
  /** The first delay, in milliseconds (default 1 s). */
  initialMs?: number;
  /** The cap, in milliseconds (default 60 s). */
  maxMs?: number;
}

/**
 * The delay before reconnect attempt `attempt` (0 for the first retry): a random value
 * between half and all of min(max, initial * 2^attempt).
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const initial = options.initialMs ?? 1000;
  const max = options.maxMs ?? 60_000;
  const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
