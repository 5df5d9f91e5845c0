/** Small, safe HTML building blocks for notebook output. */

/**
 * Escapes text for HTML element content and attribute values.
 *
 * @example
 * escapeHtml('<b>"x" & y</b>') // "&lt;b&gt;&quot;x&quot; &amp; y&lt;/b&gt;"
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * A number rounded for display only (the data keeps every digit); NaN shows
 * as "NaN", and a number that is not 0 but would round to it says so
 * ("<0.001"), as a p-value of 3.5e-5 must not read as 0.
 *
 * @example
 * displayNumber(0.12345)  // "0.123"
 * displayNumber(0.000035) // "<0.001"
 * displayNumber(-0.0002)  // ">-0.001"
 */
export function displayNumber(value: number, digits = 3): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  const shown = value.toFixed(digits).replace(/\.?0+$/, "");
  if (!/^-?0$/.test(shown)) return shown;
  const step = (10 ** -digits).toFixed(digits);
  return value > 0 ? `<${step}` : `>-${step}`;
}
