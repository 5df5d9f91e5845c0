/**
 * Grades as a spreadsheet holds them, through `evalframe calibrate
 * --label-score`: what is read as it is (a BOM, CRLF, TRUE/FALSE, blank
 * cells for "not labelled", a header in other case), and what is refused
 * with the row named and the way to write it (a decimal comma, a
 * percentage, "yes" or "✓", a 1–5 or 0–100 scale), never guessed.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { toCSV } from "../src/index";
import { tempDir, writeText } from "./support/files";
import { runCliCaptured } from "./support/cli";

const SCORED = ["q1", "q2", "q3"].flatMap((id, q) =>
  ["alpha", "beta"].map((model, m) => ({
    id,
    model,
    user_input: `Question ${q + 1}?`,
    response: `${model}'s answer ${q + 1}`,
    answer_correctness: [0.9, 0.3][m]! - 0.1 * q,
    answer_correctness_factual: [1, 0][m]!,
  })),
);

describe("calibrate --label-score with grades from a spreadsheet", () => {
  const dir = tempDir();
  const scoredCsv = path.join(dir, "scored.csv");

  async function run(name: string, text: string, column = "human_score") {
    await toCSV(SCORED, scoredCsv);
    return runCliCaptured(["calibrate", scoredCsv, "--labels", writeText(dir, name, text), "--label-score", column, "--json"]);
  }

  it("reads an Excel export as it is: BOM, CRLF, header case, TRUE/FALSE, a blank grade left out", async () => {
    const result = await run("excel.csv", "\ufeffID,Model,Human Score\r\nq1,alpha,TRUE\r\nq1,beta,FALSE\r\nq2,alpha,\r\nq2,beta,FALSE\r\nq3,alpha,TRUE\r\n\r\n", "Human Score");
    assert.equal(result.code, 0, result.err);
    const body = JSON.parse(result.out) as { coverage: Record<string, unknown>[]; rows: Record<string, unknown>[] };
    assert.deepEqual(body.coverage[0], { kind: "score (Human Score)", labels: 4, matched: 4, stale: 0, unlabelled_rows: 2, unused_labels: 0, judge_failed: 0 });
    // Final scores 0.9, 0.3, 0.2, 0.7 against 1, 0, 0, 1: ranks 4, 2, 1, 3 against 3.5, 1.5, 1.5, 3.5:
    // deviations from 2.5 (1.5, −0.5, −1.5, 0.5) and (1, −1, −1, 1): 4 / √(5 · 4) = 0.894…
    const all = body.rows.find((r) => r["target"] === "score" && r["model"] === "(all)")!;
    assert.equal(all["n"], 4);
    assert.ok(Math.abs((all["spearman"] as number) - 4 / Math.sqrt(20)) < 1e-12, String(all["spearman"]));
  });

  for (const [what, cell, advice] of [
    ["a decimal comma", '"0,8"', /"0,8", not a number: write decimals with a point, 0\.8/],
    ["a percentage", "80%", /"80%", not a number: write a percentage as a share of 1, 0\.8/],
    ["a tick", "✓", /"✓", not a number: write a yes \(pass, ✓\) as 1 and a no \(fail, ✗\) as 0/],
    ["TRUE among numbers", "TRUE", /"TRUE", not a number: the column mixes true\/false with other grades; write them all as 1 and 0/],
  ] as const) {
    it(`names the row of ${what} and says how to write it`, async () => {
      const result = await run("text.csv", `id,model,human_score\nq1,alpha,1\nq1,beta,${cell}\nq2,alpha,0\n`);
      assert.equal(result.code, 1);
      assert.match(result.err, /label row 1 \(line 3\) is /);
      assert.match(result.err, advice);
    });
  }

  it("reads a semicolon-separated export (Excel's CSV in many locales) as the same grades written with commas", async () => {
    // Its grades written with decimal commas, as such an export writes them.
    const semicolons = await run("semicolons.csv", "id;model;human_score\r\nq1;alpha;1\r\nq1;beta;0,25\r\n");
    const commas = await run("commas.csv", "id,model,human_score\r\nq1,alpha,1\r\nq1,beta,0.25\r\n");
    assert.equal(commas.code, 0, commas.err);
    assert.equal(semicolons.code, 0, semicolons.err);
    assert.equal(semicolons.out.replaceAll("semicolons.csv", "commas.csv"), commas.out);
  });

  it("refuses a 1–5 or 0–100 scale, naming the row, and says how to bring it to 0–1", async () => {
    const likert = await run("likert.csv", "id,model,human_score\nq1,alpha,1\nq1,beta,5\nq2,alpha,3\n");
    assert.equal(likert.code, 1);
    assert.match(likert.err, /label row 1 \(line 3\), column "human_score": 5 is not a score from 0 to 1; .*\(for 1–5 grades: \(grade − 1\) \/ 4, in a new column\)/);
    const percent = await run("percent.csv", "id,model,human_score\nq1,alpha,80\nq1,beta,0\n");
    assert.match(percent.err, /label row 0 \(line 2\), column "human_score": 80 is not a score from 0 to 1; .*\(for percentages: grade \/ 100, in a new column\)/);
  });
});
