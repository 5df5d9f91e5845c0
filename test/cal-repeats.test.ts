/**
 * calibrate on the output of `evalframe score` for an input that answered
 * one (id, model) twice: scoring scores the first and leaves the repeat
 * unscored (input_error), and calibrate compares the first with its label,
 * as compare and chart do, instead of refusing the whole file.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { calibrate, frameRecords, loadTable } from "../src/index";
import { tempDir, writeText } from "./support/files";
import { runCliCaptured } from "./support/cli";

const Q = "When did World War II end?";
const REF = "World War II ended in 1945.";

function label(model: string, response: string, tp: boolean): string {
  return JSON.stringify({
    id: "008", model, user_input: Q, response, reference: REF,
    response_statements: [{ statement: response, verdict: tp ? "TP" : "FP" }],
    reference_statements: [{ statement: REF, verdict: tp ? "covered" : "FN" }],
  });
}

describe("calibrate after score left a repeated answer unscored", () => {
  const dir = tempDir();

  it("compares the first answer with its label, leaves the repeat out with a warning, and exits 0", async () => {
    const input = writeText(
      dir,
      "qa.csv",
      `id,model,question,answer,reference\n008,alpha,${Q},${REF},${REF}\n008,beta,${Q},It ended in 1944.,${REF}\n008,beta,${Q},It ended in 1946.,${REF}\n`,
    );
    const scored = path.join(dir, "scored.csv");
    const scoring = await runCliCaptured(["score", input, "--judge", "offline", "--out", scored]);
    assert.equal(scoring.code, 0, scoring.err);
    const labels = writeText(dir, "qa.labels.jsonl", `${label("alpha", REF, true)}\n${label("beta", "It ended in 1944.", false)}\n`);

    const result = await runCliCaptured(["calibrate", scored, "--labels", labels, "--json"]);
    assert.equal(result.code, 0, result.err);
    assert.match(result.err, /1 row repeats an \(id, model\) that an earlier row answered and was not scored \(see input_error\), so it is left out of the calibration: row 2 \(line 4\) \(id "008", model "beta", first at row 1 \(line 3\)\)/);
    const body = JSON.parse(result.out) as { coverage: Record<string, unknown>[] };
    assert.deepEqual(body.coverage[0], { kind: "answer_correctness", labels: 2, matched: 2, stale: 0, unlabelled_rows: 0, unused_labels: 0, judge_failed: 0 });

    // The library call on the same file: the repeat is not matched (it is an unlabelled row), the first is.
    const report = calibrate(await loadTable(scored, { required: [], warn: false }), labels);
    assert.deepEqual(frameRecords(report.coverage)[0], { kind: "answer_correctness", labels: 2, matched: 2, stale: 0, unlabelled_rows: 1, unused_labels: 0, judge_failed: 0 });
    assert.equal(report.unmatched[0]!.unlabelledRows.first[0]!.where, "row 2 (line 4)");
  });
});
