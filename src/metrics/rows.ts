/**
 * Scoring many rows with a bounded number in flight: the judge's scheduler
 * still has far more requests waiting than its concurrency, while the work
 * of one row (its extraction, then its classification) stays close together
 * in time, so per-text memos and memory stay bounded by the window, not by
 * the table.
 */

/** Rows a metric scores at once. */
export const ROWS_IN_FLIGHT = 256;

/**
 * Maps `items` through `fn` with at most `limit` calls pending at once; the
 * results keep the items' order.
 *
 * @example
 * await mapWithLimit([1, 2, 3], 2, async (x) => x * 2); // → [2, 4, 6]
 */
export async function mapWithLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
