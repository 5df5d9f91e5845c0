/**
 * `--where COLUMN=VALUE` on the commands that read a scored table and make a
 * page, a chart or a comparison of it: `report` (whose second read, for the
 * statements of the rows it shows, must find those rows again), `chart` and
 * `diff` (both runs).
 * calibrate, summarize and compare are checked in calibrate.test.ts.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { createJudge, scoreAnswerCorrectness, toCSV } from "../src/index";
import { runCliCaptured as run } from "./support/cli";
import { tempDir } from "./support/files";

const QUESTIONS = [
  ["q1", "Which city is the capital of Peru?", "Lima is the capital of Peru."],
  ["q2", "Which metal is liquid at room temperature?", "Mercury is liquid at room temperature."],
  ["q3", "How many legs does a spider have?", "A spider has eight legs."],
] as const;

/** Each model answers in its own words: atlas right and plain, swift with a marker word of its own ("reportedly"). */
function rows(swiftRight: boolean): Record<string, unknown>[] {
  return QUESTIONS.flatMap(([id, question, reference]) => [
    { id, model: "atlas", user_input: question, response: reference, reference },
    { id, model: "swift", user_input: question, response: swiftRight ? `${reference} Reportedly so.` : `Reportedly ${id === "q3" ? "six legs" : "Bogotá"}.`, reference },
  ]);
}

describe("--where on report and diff", () => {
  const dir = tempDir();
  const beforeCsv = path.join(dir, "before.csv");
  const afterCsv = path.join(dir, "after.csv");

  before(async () => {
    const judge = createJudge({ judge: "offline", quiet: true });
    await toCSV(await scoreAnswerCorrectness(rows(false), { judge, progress: false, quiet: true }), beforeCsv);
    await toCSV(await scoreAnswerCorrectness(rows(true), { judge, progress: false, quiet: true }), afterCsv);
  });

  it("report: a page of the rows named, with the statements of the answers it shows", async () => {
    const page = path.join(dir, "swift.html");
    const result = await run(["report", afterCsv, "--out", page, "--where", "model=swift", "--worst", "3"]);
    assert.equal(result.code, 0, result.err);
    const html = readFileSync(page, "utf8");
    assert.match(html, /Reportedly so/);
    assert.doesNotMatch(html, />atlas</);
    // The statements of a shown row are read again from the file's own row: the judge's reasons are there.
    assert.match(html, /Lima is the capital of Peru/);
    assert.match(html, /matches reference/);

    const both = await run(["report", afterCsv, "--out", path.join(dir, "both.html"), "--where", "model=swift", "--previous", beforeCsv]);
    assert.equal(both.code, 0, both.err);
    assert.doesNotMatch(readFileSync(path.join(dir, "both.html"), "utf8"), />atlas</);
  });

  it("chart: only the rows named are drawn", async () => {
    const spec = path.join(dir, "box.json");
    const result = await run(["chart", afterCsv, "--kind", "box", "--out", spec, "--where", "model=swift"]);
    assert.equal(result.code, 0, result.err);
    const text = readFileSync(spec, "utf8");
    assert.match(text, /"swift"/);
    assert.doesNotMatch(text, /"atlas"/);
  });

  it("diff: the same rows of both runs", async () => {
    const result = await run(["diff", beforeCsv, afterCsv, "--where", "model=swift", "--json"]);
    assert.equal(result.code, 0, result.err);
    const body = JSON.parse(result.out) as { summary: { model: string; n_paired: number }[]; changed: number };
    assert.deepEqual(body.summary.map((r) => r.model).filter((m) => m !== "(all)"), ["swift"]);
    assert.equal(body.changed, 3);
    const atlas = await run(["diff", beforeCsv, afterCsv, "--where", "model=atlas", "--json"]);
    assert.equal((JSON.parse(atlas.out) as { changed: number }).changed, 0);
    const missing = await run(["diff", beforeCsv, afterCsv, "--where", "split=test"]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /--where names column "split", which .*before\.csv does not have/);
  });
});
