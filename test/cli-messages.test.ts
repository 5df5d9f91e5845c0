/**
 * Messages of the command line that a user acts on: the analysis commands
 * given a table with no score column name the file's own columns (not the
 * few they read) and say to score it first, or which option names the
 * score column.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCliCaptured as run } from "./support/cli";
import { tempDir, writeText } from "./support/files";
import { writeSampleHead } from "./support/sample";

describe("an analysis command given a table without a score column", () => {
  const dir = tempDir();
  const input = writeSampleHead(dir, 2, "input.csv"); // id, domain, model, user_input, response, reference: not scored
  const columns = "id, domain, model, user_input, response, reference";

  it("compare, summarize and diff exit 1 naming every column of the file and the command to run first", async () => {
    const compare = await run(["compare", input]);
    assert.equal(compare.code, 1);
    assert.equal(
      compare.err,
      `evalframe: ${input}: compare: no score column "answer_correctness"; the file's columns are: ${columns}; it looks like a table that was not scored yet: score it first (evalframe score ${input} --out scored.csv), then compare the scored table\n`,
    );
    const summarize = await run(["summarize", input, "--json"]);
    assert.equal(summarize.code, 1);
    assert.equal(summarize.out, "");
    assert.match(summarize.err, new RegExp(`^evalframe: .*input\\.csv: summarize: no score column \\(answer_correctness, .*\\); the file's columns are: ${columns}; it looks like a table that was not scored yet: score it first`));
    const scored = writeText(dir, "scored.csv", "id,model,answer_correctness\nq1,m1,0.5\n");
    const diff = await run(["diff", input, scored]);
    assert.equal(diff.code, 1);
    assert.match(diff.err, new RegExp(`^evalframe: .*input\\.csv: diff: no score column "answer_correctness"; the file's columns are: ${columns}; it looks like a table that was not scored yet`));
  });

  it("a table of scores under its own name is told which option names the column", async () => {
    const own = writeText(dir, "own.csv", "model,grade\nm1,0.5\nm2,0.75\n");
    const r = await run(["summarize", own]);
    assert.equal(r.code, 1);
    assert.match(r.err, /own\.csv: summarize: no score column \(answer_correctness, .*\); the file's columns are: model, grade; name the column that holds the scores with --metrics COLUMN\n$/);
    const named = await run(["summarize", own, "--metrics", "grade"]);
    assert.equal(named.code, 0, named.err);
    assert.match(named.out, /grade/);
  });
});
