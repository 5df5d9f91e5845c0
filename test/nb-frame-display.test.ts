/**
 * A frame the user builds with danfojs alone prints as a table too, not as
 * danfojs' internals: loading danfojs-node yourself before evalframe is
 * enough (in a notebook any order is: notebooks.test.ts). Each case runs in
 * a fresh Node process, as a notebook kernel starts.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, it } from "node:test";
import { RUN_TS } from "./support/run-ts";

const ROOT = path.resolve(__dirname, "..");

function printed(script: string): string {
  const run = spawnSync(process.execPath, [...RUN_TS, "-e", script], { cwd: ROOT, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

const FRAME = `new dfd.DataFrame({ Question: ["What is 2+2?", "Capital of France?"], model_answer: ["4", "Paris"], id: [7, 8] })`;

describe("a DataFrame built with danfojs alone", () => {
  it("prints as a text table and its shape when danfojs-node was imported before evalframe", () => {
    const out = printed(`const dfd = require("danfojs-node"); require("./src/index"); console.log(${FRAME});`);
    assert.doesNotMatch(out, /\$data|\$index|dataIncolumnFormat/);
    assert.match(out, /Question\s+model_answer\s+id/);
    assert.match(out, /Capital of France\?\s+Paris\s+8/);
    assert.match(out, /DataFrame: 2 rows × 3 columns/);
  });

  it("prints as a table when evalframe loaded danfojs first (a frame it built), and importing evalframe alone does not load danfojs", () => {
    const out = printed(
      `const ef = require("./src/index"); const file = require.resolve("danfojs-node");` +
        `console.log("loaded at import: " + (require.cache[file] !== undefined));` +
        `ef.toDataFrame([{ a: 1 }]); const dfd = require("danfojs-node"); console.log(${FRAME});`,
    );
    assert.match(out, /loaded at import: false/, "the command line still starts without danfojs");
    assert.doesNotMatch(out, /\$data|\$index|dataIncolumnFormat/);
    assert.match(out, /DataFrame: 2 rows × 3 columns/);
  });

  it("prints as a table when evalframe was imported first, then danfojs-node, then evalframe built a frame", () => {
    const out = printed(`const ef = require("./src/index"); const dfd = require("danfojs-node"); ef.toDataFrame([{ a: 1 }]); console.log(${FRAME});`);
    assert.doesNotMatch(out, /\$data|\$index|dataIncolumnFormat/);
    assert.match(out, /DataFrame: 2 rows × 3 columns/);
  });
});
