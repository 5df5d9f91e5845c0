/**
 * Word tables the offline judge looks words up in, safe for any word: a
 * table with no prototype, so that "constructor" or "toString" in an answer
 * finds nothing instead of Object.prototype's members.
 */

/**
 * `entries` as a table with no prototype: a lookup of a key it lacks is
 * `undefined`, whatever the key.
 *
 * @example
 * const months = ownKeys<number>({ jan: 1, feb: 2 });
 * months["constructor"] // undefined (a plain object gives Object)
 */
export function ownKeys<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
