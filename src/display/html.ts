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

/** A number rounded for display only (the data keeps every digit); NaN shows as "NaN". */
export function displayNumber(value: number, digits = 3): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return String(value);
  return Number.isInteger(value) ? String(value) : value.toFixed(digits).replace(/\.?0+$/, "");
}
