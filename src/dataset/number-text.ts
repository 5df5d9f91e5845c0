/**
 * Numbers written as text by a person (a flag's value, an environment
 * variable): one strict rule for all of them, so that a count given either
 * way is read the same, or refused the same.
 */

/**
 * A whole number written in digits only ("8"; not " 8", "+8", "8.0", "8e0"
 * or "0x10"), from `min` to `max`; undefined for anything else.
 *
 * @example
 * wholeNumberText("16", 1); // 16
 * wholeNumberText("+8", 1); // undefined
 */
export function wholeNumberText(text: string, min: number, max: number = Number.MAX_SAFE_INTEGER): number | undefined {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
}

/**
 * A finite plain decimal ("0.8", ".5", "-0.1", "12"; not " 0.8", "+1",
 * "1e3" or "0x1"); undefined for anything else. Bounds are the caller's.
 *
 * @example
 * decimalText("0.8"); // 0.8
 * decimalText("1e3"); // undefined
 */
export function decimalText(text: string): number | undefined {
  const value = /^-?(?:\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  return Number.isFinite(value) ? value : undefined;
}
