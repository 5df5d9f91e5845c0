/**
 * Loaded before the tests (scripts/test.mjs): a failing `assert.ok(value)`
 * without a message fails at once instead of minutes later. Node writes that
 * message by reading the test's source at the failing call's line and column
 * and parsing its way to the expression, but tsx runs each test file as one
 * long line (whitespace minified, positions through its source map), so Node
 * parses from every token of the file in turn: a failing assertion in a
 * 30 KB test file kept the process busy for minutes, and looked like a hang.
 * Here such a call fails with a message of its own; the stack (source-mapped)
 * still names the test's line. `assert.ok(value, message)` is unchanged.
 */
"use strict";
const assert = require("node:assert");
const { inspect } = require("node:util");

for (const target of [assert, assert.strict]) {
  const ok = target.ok;
  target.ok = function okWithMessage(...args) {
    if (args.length === 1 && !args[0]) {
      throw new assert.AssertionError({
        message: `assert.ok: the value is falsy (${inspect(args[0])}); see the stack for the line`,
        actual: args[0],
        expected: true,
        operator: "==",
        stackStartFn: okWithMessage,
      });
    }
    return ok.apply(this, args);
  };
}
