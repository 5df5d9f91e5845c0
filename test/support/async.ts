/** Small async helpers for tests. */
import assert from "node:assert/strict";

/** Polls `check` until it is true or `ms` pass. */
export async function waitFor(check: () => boolean, ms = 1000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Awaits `promise`, expecting a rejection, and returns the error. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new assert.AssertionError({ message: "expected the promise to reject" });
}
