/**
 * The longest the event loop went without turning while `work` ran (ms): a 10 ms timer's
 * longest gap, the last one (ending with the work) included. For tests that prove a long job
 * leaves the server free to answer others.
 */
export async function longestPauseDuring<T>(
  work: () => Promise<T>,
): Promise<{ result: T; longest: number }> {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  try {
    const result = await work();
    return { result, longest: Math.max(longest, performance.now() - last) };
  } finally {
    clearInterval(timer);
  }
}
