/**
 * Exit codes of names given on the command line, on real files: a column,
 * metric or model that the file lacks is bad usage (exit 2, one line naming
 * what it has), whichever option names it; a run that fails exits 1.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCliCaptured as run } from "./support/cli";
import { tempDir, writeText } from "./support/files";

/** The one line a command printed on stderr, after checking its exit code. */
function oneLine(result: { code: number; err: string }, code: number): string {
  assert.equal(result.code, code, result.err);
  const lines = result.err.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, result.err);
  return lines[0]!;
}

describe("exit codes of names given on the command line", () => {
  const dir = tempDir();
  const scored = writeText(dir, "scored.csv", "id,model,answer_correctness\nq1,a,0.5\nq2,a,0.4\nq1,b,0.2\nq2,b,0.3\n");
  const png = `${dir}/chart.png`;

  it("an unknown --baseline or --models exits 2 like an unknown --by, listing the models", async () => {
    assert.match(oneLine(await run(["compare", scored, "--baseline", "c"]), 2), /compare: --baseline names "c", which is not a value of column "model" in .*scored\.csv; its values are: a, b \(see evalframe compare --help\)$/);
    assert.match(oneLine(await run(["compare", scored, "--by", "modle"]), 2), /--by names column "modle"/);
    assert.match(oneLine(await run(["chart", scored, "--kind", "wtl", "--baseline", "c", "--out", png]), 2), /chart: --baseline names "c"/);
    assert.match(oneLine(await run(["chart", scored, "--kind", "paired", "--models", "a,c", "--out", png]), 2), /chart: --models names "c"/);
  });

  it("chart's --metric, --by and --pair-by the file lacks exit 2, as compare's do", async () => {
    for (const [option, value] of [["--metric", "answer_correctnes"], ["--by", "system"], ["--pair-by", "qid"]] as const) {
      assert.match(oneLine(await run(["chart", scored, "--kind", "box", option, value, "--out", png]), 2), new RegExp(`chart: ${option} names column "${value}", which .*scored\\.csv does not have; its columns are: id, model, answer_correctness`));
    }
  });

  it("calibrate's --label-score column the grades lack exits 2; a grade it cannot use exits 1", async () => {
    const grades = writeText(dir, "grades.csv", "id,model,human_score\nq1,a,0.5\nq1,b,2\n");
    assert.match(oneLine(await run(["calibrate", scored, "--labels", grades, "--label-score", "grade"]), 2), /calibrate: --label-score names column "grade", which .*grades\.csv does not have; its columns are: id, model, human_score/);
    assert.match(oneLine(await run(["calibrate", scored, "--labels", grades, "--label-score", "human_score"]), 1), /label row 1 \(line 3\), column "human_score": 2 is not a score/);
  });
});
