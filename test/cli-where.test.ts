/**
 * `--where COLUMN=VALUE` on the commands that read a scored table and make a
 * page, a chart or a comparison of it: `report` (whose second read, for the
 * statements of the rows it shows, must find those rows again), `chart` and
 * `diff` (both runs); and `score`, which scores and writes only the rows
 * named, a chunk at a time, in batch mode and in its dry run alike.
 * calibrate, summarize and compare are checked in calibrate.test.ts.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { createJudge, scoreAnswerCorrectness, toCSV } from "../src/index";
import { runCliCaptured as run } from "./support/cli";
import { tempDir } from "./support/files";
import { useFakeOpenAI } from "./support/fake-openai";
import { formatCsv } from "../src/dataset/export";

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

  it("a value of V1|V2 that no row holds is a usage error naming the values there are", async () => {
    const r = await run(["summarize", afterCsv, "--where", "model=atlas|swfit"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /no row of .*after\.csv has model=swfit \(of --where model=atlas\|swfit\); its values there are: atlas, swift; fix the value or leave it out/);
    assert.equal((await run(["summarize", afterCsv, "--where", "model=atlas|swift"])).code, 0);
  });

  it("a value written as a number matches a column of numbers as the number reads (turn=1.0 is turn 1); a text id matches only its text", async () => {
    // A column of numbers (turn) and a column of zero-padded ids, kept as text.
    const numbered = path.join(dir, "numbered.csv");
    const scored = readFileSync(afterCsv, "utf8").trim().split("\n");
    writeFileSync(numbered, [`turn,ticket,${scored[0]}`, ...scored.slice(1).map((line, i) => `${(i % 2) + 1},00${i},${line}`)].join("\n") + "\n");
    const models = async (...where: string[]) => {
      const r = await run(["summarize", numbered, "--json", ...where.flatMap((w) => ["--where", w])]);
      assert.equal(r.code, 0, r.err);
      return (JSON.parse(r.out) as { n: number }[]).reduce((a, row) => a + row.n, 0);
    };
    assert.equal(await models("turn=1"), 3);
    assert.equal(await models("turn=1.0"), 3, "1.0 is the turn 1");
    assert.equal(await models("turn=1.00|2e0"), 6);
    assert.equal(await models("ticket=003"), 1);
    const unpadded = await run(["summarize", numbered, "--where", "ticket=3"]);
    assert.equal(unpadded.code, 2, "an id kept as text is not matched by its number");
    assert.match(unpadded.err, /no row of .*numbered\.csv has ticket=3/);
    // A column of text that holds numbers' spellings: each is its own text, whichever way round.
    const texts = path.join(dir, "texts.csv");
    const versions = ["1.1", "1.10", "v2", "7", "007", "07"];
    writeFileSync(texts, [`version,${scored[0]}`, ...scored.slice(1).map((line, i) => `${versions[i % versions.length]},${line}`)].join("\n") + "\n");
    const textRows = async (where: string) => {
      const r = await run(["summarize", texts, "--json", "--where", where]);
      assert.equal(r.code, 0, r.err);
      return (JSON.parse(r.out) as { n: number }[]).reduce((a, row) => a + row.n, 0);
    };
    assert.equal(await textRows("version=1.10"), 1, "1.10 is not 1.1 in a column of text");
    assert.equal(await textRows("version=007"), 1, "007 is not 7 or 07");
    assert.equal(await textRows("version=7"), 1);
    // Hexadecimal and binary spellings are not numbers here.
    assert.equal((await run(["summarize", numbered, "--where", "turn=0x1"])).code, 2);
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

describe("score --where", () => {
  const fake = useFakeOpenAI();
  const dir = tempDir();
  const input = path.join(dir, "in.csv");
  // Seven rows, one with bad input (no question) among the rows chosen; the file read in chunks of two rows.
  const table = [
    ...rows(false),
    { id: "q4", model: "swift", user_input: "", response: "Santiago.", reference: "Santiago is the capital of Chile." },
  ];
  before(() => writeFileSync(input, formatCsv(table, { columns: ["id", "model", "user_input", "response", "reference"] })));

  it("scores and writes only the rows named, in the file's order, the bad row kept with its error, a chunk at a time", async () => {
    const out = path.join(dir, "swift.csv");
    const statements = path.join(dir, "swift-statements.csv");
    const result = await run(["score", input, "--out", out, "--statements-out", statements, "--judge", "offline", "--where", "model=swift", "--chunk-rows", "2", "--no-progress"]);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /wrote \S+swift\.csv \(4 rows: those with model=swift, of 7\)/);
    assert.match(result.err, /1 of 4 rows have bad input .* row 6 \(line 8\): column "user_input" is empty/);
    const scored = readFileSync(out, "utf8").trim().split("\n");
    const header = scored[0]!.split(",");
    assert.equal(scored.length, 5);
    const cell = (line: string, name: string) => line.split(",")[header.indexOf(name)];
    assert.deepEqual(scored.slice(1).map((l) => [cell(l, "id"), cell(l, "model")]), [["q1", "swift"], ["q2", "swift"], ["q3", "swift"], ["q4", "swift"]]);
    assert.ok(header.includes("input_error"));
    // The same scores as scoring those rows alone: nothing of the other rows' scoring leaks in.
    const alone = path.join(dir, "alone.csv");
    writeFileSync(path.join(dir, "only.csv"), formatCsv(table.filter((r) => r.model === "swift"), { columns: ["id", "model", "user_input", "response", "reference"] }));
    const direct = await run(["score", path.join(dir, "only.csv"), "--out", alone, "--judge", "offline", "--no-progress"]);
    assert.equal(direct.code, 0, direct.err);
    assert.equal(readFileSync(out, "utf8"), readFileSync(alone, "utf8"));
    // The statements table numbers the rows of the table written.
    assert.ok(readFileSync(statements, "utf8").split("\n").slice(1).every((l) => l === "" || /^[0-3],/.test(l)));
  });

  it("a column named as the file writes it, which loading renamed (question, answer), is the column it became, on every command", async () => {
    const aliased = path.join(dir, "aliased.csv");
    writeFileSync(aliased, formatCsv(table.map((r) => ({ id: r.id, model: r.model, question: r.user_input, answer: r.response, reference: r.reference })), { columns: ["id", "model", "question", "answer", "reference"] }));
    const asked = `question=${QUESTIONS[0][1]}`;
    const out = path.join(dir, "aliased-scored.csv");
    const streamed = await run(["score", aliased, "--out", out, "--judge", "offline", "--where", asked, "--where", "Answer=Reportedly Bogotá.", "--no-progress"]);
    assert.equal(streamed.code, 0, streamed.err);
    assert.match(streamed.out, /wrote \S+aliased-scored\.csv \(1 row: those with/);
    const dry = await run(["score", aliased, "--dry-run", "--judge", "openai", "--base-url", fake.url(), "--where", asked, "--no-cache"]);
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /Estimate for 2 rows/);
    const scored = path.join(dir, "aliased-all.csv");
    assert.equal((await run(["score", aliased, "--out", scored, "--judge", "offline", "--no-progress"])).code, 0);
    for (const args of [["summarize", scored], ["compare", scored], ["report", scored, "--out", path.join(dir, "aliased.html")], ["chart", scored, "--kind", "box", "--out", path.join(dir, "aliased.json")], ["diff", scored, scored]]) {
      const r = await run([...args, "--where", asked]);
      assert.equal(r.code, 0, `${args[0]}: ${r.err}`);
    }
    const r = await run(["summarize", scored, "--where", "question=nothing like it"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /no row of .*aliased-all\.csv has user_input=nothing like it/);
  });

  it("a dry run and batch mode read only the rows named; a column the file lacks or a value no row has exits 2 naming what it has", async () => {
    const dry = await run(["score", input, "--dry-run", "--judge", "openai", "--base-url", fake.url(), "--where", "model=atlas", "--no-cache"]);
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /Estimate for 3 rows/);
    assert.equal(fake.server.requests.length, 0);

    const none = await run(["score", input, "--out", path.join(dir, "x.csv"), "--judge", "offline", "--where", "model=gpt"]);
    assert.equal(none.code, 2);
    assert.match(none.err, /no row of .*in\.csv has model=gpt; its values are: model: atlas, swift/);
    const missing = await run(["score", input, "--out", path.join(dir, "x.csv"), "--judge", "offline", "--where", "split=test"]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /--where names column "split", which .*in\.csv does not have; its columns are: id, model, user_input, response, reference/);
    const batch = await run(["score", input, "--out", path.join(dir, "x.csv"), "--judge", "offline", "--batch", "--where", "model=gpt"]);
    assert.equal(batch.code, 2);
    assert.match(batch.err, /no row of .*in\.csv has model=gpt/);
    // One of several values that no row holds is named too (a misspelt model would drop its rows without a word).
    const misspelt = await run(["score", input, "--out", path.join(dir, "x.csv"), "--judge", "offline", "--where", "model=atlas|swfit", "--chunk-rows", "2"]);
    assert.equal(misspelt.code, 2);
    assert.match(misspelt.err, /no row of .*in\.csv has model=swfit \(of --where model=atlas\|swfit\); its values there are: .*atlas.*swift.*; fix the value or leave it out/);
  });
});
