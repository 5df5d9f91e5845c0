/** Words for people: a count with its noun. */

/**
 * A count and its noun, singular for one (`plural` for a noun that does not
 * just take an "s").
 *
 * @example
 * counted(1, "row") // "1 row"
 * counted(12000, "row") // "12,000 rows"
 * counted(2, "retry", "retries") // "2 retries"
 */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? noun : plural}`;
}

/**
 * An amount of US dollars: cents, or four decimals under a cent.
 *
 * @example
 * dollars(0.2267) // "$0.23"
 * dollars(0.0021) // "$0.0021"
 */
export function dollars(value: number): string {
  return `$${value > 0 && value < 0.01 ? value.toFixed(4) : value.toFixed(2)}`;
}

/**
 * A length of time for people: tenths of a second under 10 s, then whole
 * seconds, minutes and seconds, hours and minutes. `wholeSeconds` rounds
 * short times to the second too (an estimate, or a line redrawn as it runs).
 *
 * @example
 * duration(3240) // "3.2 s"
 * duration(3240, { wholeSeconds: true }) // "3 s"
 * duration(95_000) // "1 min 35 s"
 * duration(7_530_000) // "2 h 6 min"
 */
export function duration(ms: number, options: { wholeSeconds?: boolean } = {}): string {
  if (!Number.isFinite(ms) || ms < 0) return "? s";
  if (ms < 9_950 && !options.wholeSeconds) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  const minutes = Math.round(s / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * What an error says, for a person: its message, or the thrown value as text
 * (a row's `<metric>_error` cell, a report's note, a CLI line).
 *
 * @example
 * errorText(new Error("HTTP 500")) // "HTTP 500"
 * errorText("timeout")             // "timeout"
 */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `text` cut to at most `max` characters with "…" at the end, between
 * characters, never inside one written with two UTF-16 units (𠮷, an emoji),
 * whose half would show as "\ud842" in a message.
 *
 * @example
 * shortened("abcdef", 4); // "abc…"
 * shortened("ab😀cd", 3); // "ab…"
 */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/**
 * A share as a whole percentage.
 *
 * @example
 * wholePercent(0.554); // "55%"
 */
export function wholePercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
