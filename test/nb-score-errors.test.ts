/**
 * What a notebook user sees when their own frame's columns are named
 * otherwise: the error says how to pass the aliases to the scoring call
 * itself, and doing what it says scores the frame.
 */
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { describe, it } from "node:test";
import { createJudge, scoreAnswerCorrectness, toDataFrame } from "../src/index";

describe("scoring a frame whose answer column has a name of its own", () => {
  const judge = createJudge({ judge: "offline" });
  const frame = () => toDataFrame([{ Question: "What is 2+2?", model_answer: "4", ground_truth: "2+2 is 4" }]);

  it("says to pass the aliases under load, as the scoring call takes them, and the hint works", async () => {
    const error = await scoreAnswerCorrectness(frame(), { judge: judge, quiet: true, progress: false }).then(
      () => assert.fail("scored without a response column"),
      (e: unknown) => e as Error,
    );
    assert.match(error.message, /missing required column "response"/);
    assert.match(error.message, /"model_answer"/, "names the columns found");
    assert.match(error.message, /pass \{ load: \{ aliases: \{ yourName: "response" \} \} \}/);
    // A notebook prints the error with inspect: the stack's first line carries the same words.
    assert.match(inspect(error), /\{ load: \{ aliases:/);
    // …and not the same problem again in the command line's words.
    assert.doesNotMatch(inspect(error), /cliMessage|rename a column in the file/);
    const scored = await scoreAnswerCorrectness(frame(), { judge: judge, quiet: true, progress: false, load: { aliases: { model_answer: "response" } } });
    assert.equal(scored.shape[0], 1);
    assert.ok(scored.columns.includes("answer_correctness"));
  });
});
