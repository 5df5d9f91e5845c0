/** Words for people: a count with its noun. */

/**
 * A count and its noun, singular for one.
 *
 * @example
 * counted(1, "row") // "1 row"
 * counted(12000, "row") // "12,000 rows"
 */
export function counted(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}
