/** A DataFrame printed outside a notebook: an aligned text table and its shape, not danfojs' internals. */
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { describe, it } from "node:test";
import { installDataFrameDisplay } from "../src/display/frame-display";
import { toDataFrame } from "../src/frame/dataframe";

describe("printing a DataFrame", () => {
  installDataFrameDisplay();
  const df = toDataFrame([
    { model: "atlas-pro", answer_correctness: 0.8123, note: "a long\nanswer" },
    { model: "swift-mini", answer_correctness: 0.25, note: "" },
  ]);

  it("prints a text table with numbers right-aligned, then the shape", () => {
    const text = inspect(df);
    assert.doesNotMatch(text, /\$data|\$index|dataIncolumnFormat/);
    assert.equal(
      text,
      [
        "model       answer_correctness  note",
        "----------  ------------------  ---------------",
        "atlas-pro                0.812  a long ⏎ answer",
        "swift-mini                0.25",
        "DataFrame: 2 rows × 3 columns",
      ].join("\n"),
    );
  });

  it("a frame that a frame's own method returns (danfojs' parent class) prints the same way", () => {
    const head = df.head(1);
    assert.notEqual(Object.getPrototypeOf(head), Object.getPrototypeOf(df), "head() returns danfojs' parent class");
    assert.match(inspect(head), /^model\s+answer_correctness\s+note\n[\s\S]*DataFrame: 1 row × 3 columns$/);
  });

  it("a Series (a column, df[\"name\"]) prints its values beside their labels, then its name, length and dtype", () => {
    const column = (df as unknown as Record<string, unknown>)["answer_correctness"];
    const text = inspect(column);
    assert.doesNotMatch(text, /\$data|\$index|dataIncolumnFormat|DataFrame:/);
    assert.equal(
      text,
      ["index  answer_correctness", "-----  ------------------", "    0               0.812", "    1                0.25", 'Series "answer_correctness": 2 values (float32)'].join("\n"),
    );
    assert.equal(inspect({ column }), '{ column: [Series "answer_correctness": 2 values (float32)] }');
  });

  it("inside another value, only the shape", () => {
    assert.equal(inspect({ scored: df }), "{ scored: [DataFrame: 2 rows × 3 columns] }");
  });
});
