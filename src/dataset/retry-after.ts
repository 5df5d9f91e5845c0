/**
 * The wait an HTTP `Retry-After` value asks for, read one way for the judge's
 * requests and for image downloads: a number of seconds, or an HTTP date.
 */

/**
 * Milliseconds a `Retry-After` value asks to wait from `now`: "120" (seconds,
 * fractions allowed) or an HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT"; a time
 * already past is 0). Undefined for anything else ("-5", "soon", ""): a date
 * must name its day or month, so that a stray number is not read as a year.
 *
 * @example
 * retryAfterValueMs("2.5") // 2500
 * retryAfterValueMs("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT")) // 10000
 * retryAfterValueMs("-5") // undefined
 */
export function retryAfterValueMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
