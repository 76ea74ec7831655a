/**
 * The longest the event loop went without turning while `work` ran (ms): a 10 ms timer's
 * longest gap, the last one (ending with the work) included, and how long the work took in
 * all. For tests that prove a long job leaves the server free to answer others: they compare
 * the two (the job comes in slices), not the pause with a fixed time, which a busy machine
 * would stretch.
 */
export async function longestPauseDuring<T>(
  work: () => Promise<T>,
): Promise<{ result: T; longest: number; total: number }> {
  let longest = 0;
  const start = performance.now();
  let last = start;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  try {
    const result = await work();
    const end = performance.now();
    return { result, longest: Math.max(longest, end - last), total: end - start };
  } finally {
    clearInterval(timer);
  }
}
