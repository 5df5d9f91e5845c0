/**
 * A bounded memo for the offline judge's pure steps (tokens, claims, values,
 * analyses of a text): two generations of at most `limit` entries each. A hit
 * in the old generation moves to the new one; when the new one is full, the
 * old one is dropped. Memory stays bounded and recently used texts stay.
 */
export class Memo<V> {
  private current = new Map<string, V>();
  private previous = new Map<string, V>();

  constructor(private readonly limit: number) {
    everyMemo.push(this);
  }

  /** Forgets everything. */
  clear(): void {
    this.current = new Map();
    this.previous = new Map();
  }

  /** The value for `key`, computing and keeping it on a miss. */
  get(key: string, compute: (key: string) => V): V {
    const hit = this.current.get(key);
    if (hit !== undefined) return hit;
    const old = this.previous.get(key);
    const value = old !== undefined ? old : compute(key);
    this.set(key, value);
    return value;
  }

  /** Keeps a value computed elsewhere. */
  set(key: string, value: V): void {
    if (this.current.size >= this.limit) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }
}

const everyMemo: Array<Memo<unknown>> = [];

/** Forgets everything every memo of this thread holds (for tests that check answers do not depend on it). */
export function clearMemos(): void {
  for (const memo of everyMemo) memo.clear();
}
