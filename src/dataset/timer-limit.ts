/**
 * The longest delay Node's timers take: 2^31 − 1 ms (24.8 days). A longer
 * one fires at once, so every wait, timeout and poll interval is held to it.
 */

/** The longest delay `setTimeout` and `setInterval` take, in ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * `ms` as a timer can wait it: at most {@link MAX_TIMER_MS} (a longer wait
 * is, in practice, no limit at all).
 *
 * @example
 * timerDelay(86_400_000) // 86400000
 * timerDelay(1e12) // 2147483647
 */
export function timerDelay(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}
