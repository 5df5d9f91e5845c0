/**
 * The CI gate (`--fail-under` on score and summarize) and `evalframe diff`,
 * run in-process through runCli on real files: exit codes 0 / 1 / 2, the
 * one-line reason, and diff's tables, CSV, chart and gates.
 */
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import { compareRuns, loadDataset, toCSV } from "../src/index";
import { runCliCaptured as run } from "./support/cli";
import { tempDir } from "./support/files";
import { AFTER, BEFORE, fewBigLossesRuns, shiftedRuns, skewedRuns } from "./support/runs";
import { writeSampleHead } from "./support/sample";


/** The lines of a stream's text, without blank ones. */
function lines(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "");
}

describe("--fail-under on summarize", () => {
  const dir = tempDir();
  let after = "";
  before(async () => {
    after = path.join(dir, "after.csv");
    await toCSV(AFTER, after); // model A: mean 4/6 over 6 rows; model B: mean 0.4375 over 2 of 3 rows (1 failed)
  });

  it("exits 0 when every model reaches X (a mean equal to X passes) and says so on stderr", async () => {
    const r = await run(["summarize", after, "--fail-under", "0.4375"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /model\s+metric/);
    assert.deepEqual(lines(r.err), ["fail-under: passed: answer_correctness mean >= 0.44 for every model (lowest 0.44, model B, 2 of 3 rows scored, 1 failed)"]);
  });

  it("exits 1 with one line naming the metric, the mean, X, the model and its rows; failed rows are left out, not 0", async () => {
    const r = await run(["summarize", after, "--fail-under", "0.5"]);
    assert.equal(r.code, 1);
    assert.deepEqual(lines(r.err), ["evalframe: fail-under: answer_correctness mean 0.44 < 0.50 (model B; 2 of 3 rows scored, 1 failed)"]);
    assert.match(r.out, /answer_correctness/, "the summary is still printed");
  });

  it("names every model under X, the lowest first", async () => {
    const r = await run(["summarize", after, "--fail-under", "0.7"]);
    assert.equal(r.code, 1);
    assert.deepEqual(lines(r.err), ["evalframe: fail-under: answer_correctness mean 0.44 < 0.70 (model B; 2 of 3 rows scored, 1 failed); also below: model A 0.67"]);
  });

  it("shows enough digits to tell the mean from X", async () => {
    const r = await run(["summarize", after, "--fail-under", "0.4376"]);
    assert.equal(r.code, 1);
    assert.match(r.err, /mean 0\.4375 < 0\.4376/);
    // A mean a hair under X (0.4375 against 0.43750001) still reads as under it.
    const hair = await run(["summarize", after, "--fail-under", "0.43750001"]);
    assert.equal(hair.code, 1);
    assert.match(hair.err, /mean 0\.43750000 < 0\.43750001 /);
  });

  it("--fail-under-model gates only the named models; --fail-under-overall gates all rows together", async () => {
    assert.equal((await run(["summarize", after, "--fail-under", "0.5", "--fail-under-model", "A"])).code, 0);
    const overall = await run(["summarize", after, "--fail-under", "0.6", "--fail-under-overall"]); // (4 + 0.875)/8 = 0.609
    assert.equal(overall.code, 0, overall.err);
    assert.match(overall.err, /passed: answer_correctness mean >= 0\.60 over all rows \(lowest 0\.61, 8 of 9 rows scored, 1 failed\)/);
    const under = await run(["summarize", after, "--fail-under", "0.62", "--fail-under-overall"]);
    assert.equal(under.code, 1);
    assert.deepEqual(lines(under.err), ["evalframe: fail-under: answer_correctness mean 0.61 < 0.62 (all rows; 8 of 9 rows scored, 1 failed)"]);
    const unknown = await run(["summarize", after, "--fail-under", "0.5", "--fail-under-model", "Z"]);
    assert.equal(unknown.code, 2, "a misspelt model is bad usage, not a gate that failed");
    assert.deepEqual(lines(unknown.err), [`evalframe: ${after}: --fail-under-model "Z" is not a model of this table; its models are "A", "B" (see evalframe summarize --help)`]);
    assert.equal(unknown.out, "", "nothing is printed before the usage error: a CI log shows no summary of a gate that never ran");
  });

  it("--fail-under-model that the summary cannot gate exits 2 before the summary is printed", async () => {
    // Rows picked by --where: the models named are those of the rows picked.
    const narrowed = await run(["summarize", after, "--where", "model=A", "--fail-under", "0.5", "--fail-under-model", "B"]);
    assert.equal(narrowed.code, 2, narrowed.err);
    assert.equal(narrowed.out, "");
    assert.deepEqual(lines(narrowed.err), [`evalframe: ${after}: --fail-under-model "B" is not a model of the rows --where picks; their models are "A" (see evalframe summarize --help)`]);
    // A summary by another column has no model to gate.
    const byId = await run(["summarize", after, "--by", "id", "--fail-under", "0.5", "--fail-under-model", "A"]);
    assert.equal(byId.code, 2, byId.err);
    assert.equal(byId.out, "");
    assert.deepEqual(lines(byId.err), ["evalframe: summarize: --fail-under-model gates models, and --by id leaves the model out of the summary; add it (--by id,model) or drop --fail-under-model (see evalframe summarize --help)"]);
    const byBoth = await run(["summarize", after, "--by", "id,model", "--fail-under", "0", "--fail-under-model", "A"]);
    assert.equal(byBoth.code, 0, byBoth.err);
    assert.match(byBoth.err, /^fail-under: passed/);
  });

  it("--fail-under-metric naming a column the table lacks exits 2 before the summary is printed, naming the score columns it has", async () => {
    const absent = await run(["summarize", after, "--fail-under", "0.3", "--fail-under-metric", "nope"]);
    assert.equal(absent.code, 2, absent.err);
    assert.equal(absent.out, "", "nothing is printed before the usage error");
    assert.deepEqual(lines(absent.err), [
      `evalframe: ${after}: --fail-under-metric "nope" is not a column of this table; its score columns are "answer_correctness"; gate one of those (see evalframe summarize --help)`,
    ]);
    assert.doesNotMatch(absent.err, /--metrics/, "--metrics cannot summarize a column the table lacks");
    // A column the table has but the summary leaves out: add it to --metrics.
    const withExtra = path.join(dir, "with-extra.csv");
    await toCSV(AFTER.map((r) => ({ ...r, answer_correctness_factual: 0.5 })), withExtra);
    const left = await run(["summarize", withExtra, "--fail-under", "0.3", "--fail-under-metric", "answer_correctness_factual"]);
    assert.equal(left.code, 2, left.err);
    assert.equal(left.out, "");
    assert.match(lines(left.err)[0]!, /answer_correctness_factual is a column of this table but not summarized \(the summary has answer_correctness\); add it to --metrics, e\.g\. --metrics answer_correctness,answer_correctness_factual \(see evalframe summarize --help\)$/);
    const added = await run(["summarize", withExtra, "--fail-under", "0.3", "--fail-under-metric", "answer_correctness_factual", "--metrics", "answer_correctness_factual"]);
    assert.equal(added.code, 0, added.err);
    assert.match(added.err, /passed: answer_correctness_factual mean >= 0\.30/);
  });

  it("says 'pass rate' for 0/1 scores, and fails a model whose every row failed", async () => {
    const binary = path.join(dir, "binary.csv");
    await toCSV(
      [
        { id: "1", model: "A", multimodal_relevance: 1, multimodal_relevance_error: "" },
        { id: "2", model: "A", multimodal_relevance: 0, multimodal_relevance_error: "" },
        { id: "1", model: "B", multimodal_relevance: Number.NaN, multimodal_relevance_error: "image refused" },
      ],
      binary,
    );
    const r = await run(["summarize", binary, "--fail-under", "0.4", "--fail-under-model", "A"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /multimodal_relevance pass rate >= 0\.40/);
    const all = await run(["summarize", binary, "--fail-under", "0.4"]);
    assert.equal(all.code, 1);
    assert.deepEqual(lines(all.err), ["evalframe: fail-under: multimodal_relevance has no scored rows (model B; 1 row, all failed), so it cannot reach 0.4"]);
  });

  it("bad values are usage errors (exit 2) in the command line's words, before the file is read", async () => {
    for (const [args, message] of [
      [["--fail-under", "1.5"], /summarize: --fail-under must be a number at least 0 and at most 1, written as a plain decimal \(e\.g\. [^)]*\); got "1\.5"/],
      [["--fail-under=-0.1"], /--fail-under must be a number at least 0/],
      // Written with a space too: the negative number is read as the value, not as an option.
      [["--fail-under", "-0.1"], /--fail-under must be a number at least 0 and at most 1, written as a plain decimal \(e\.g\. [^)]*\); got "-0\.1"/],
      [["--fail-under", "70%"], /--fail-under must be a number/],
      [["--fail-under", "0x1"], /--fail-under must be a number at least 0 and at most 1, written as a plain decimal \(e\.g\. [^)]*\); got "0x1"/],
      [["--fail-under", "Infinity"], /--fail-under must be a number/],
      [["--fail-under-metric", "answer_correctness"], /--fail-under-metric goes with --fail-under X/],
      [["--fail-under", "0.5", "--fail-under-model", "A", "--fail-under-overall"], /use --fail-under-model or --fail-under-overall, not both/],
    ] as const) {
      const r = await run(["summarize", path.join(dir, "missing.csv"), ...args]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.match(r.err, message);
      assert.equal(lines(r.err).length, 1);
    }
  });
});

describe("--fail-under on score (offline judge)", () => {
  const dir = tempDir();
  let input = "";
  before(() => {
    // The first 6 questions of the sample, 3 models each.
    input = writeSampleHead(dir, 6, "small.csv");
  });

  it("exits 0 when the gate is met and 1 when it is not, after writing the scored table and the summary JSON", async () => {
    const ok = await run(["score", input, "--out", path.join(dir, "ok.csv"), "--judge", "offline", "--no-progress", "--fail-under", "0"]);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.err, /fail-under: passed: answer_correctness mean >= 0\.00 for every model/);
    const out = path.join(dir, "gated.csv");
    const json = path.join(dir, "summary.json");
    const r = await run(["score", input, "--out", out, "--summary-json", json, "--judge", "offline", "--no-progress", "--fail-under", "0.99"]);
    assert.equal(r.code, 1);
    const reason = lines(r.err).filter((l) => l.startsWith("evalframe:"));
    assert.equal(reason.length, 1);
    assert.match(reason[0]!, /^evalframe: fail-under: answer_correctness mean 0\.\d\d < 0\.99 \(model [a-z-]+; 6 rows\)/);
    assert.equal((await loadDataset(out)).shape[0], 18, "the scored table is written whatever the gate says");
    assert.ok(existsSync(json));
  });

  it("--summary-json records the gate: what was asked, whether it passed and its line, as the exit code and stderr say", async () => {
    const json = path.join(dir, "gate.json");
    const failed = await run(["score", input, "--out", path.join(dir, "g1.csv"), "--summary-json", json, "--judge", "offline", "--no-progress", "--fail-under", "0.99"]);
    assert.equal(failed.code, 1);
    const gate = (JSON.parse(readFileSync(json, "utf8")) as { failUnder: Record<string, unknown> }).failUnder;
    assert.deepEqual({ ...gate, line: undefined }, { threshold: 0.99, metrics: null, models: null, overall: false, passed: false, line: undefined });
    assert.equal(`evalframe: ${String(gate["line"])}`, lines(failed.err).find((l) => l.startsWith("evalframe: fail-under")));
    const passed = await run(["score", input, "--out", path.join(dir, "g2.csv"), "--summary-json", json, "--judge", "offline", "--no-progress", "--fail-under", "0", "--fail-under-model", "atlas-pro"]);
    assert.equal(passed.code, 0, passed.err);
    const ok = (JSON.parse(readFileSync(json, "utf8")) as { failUnder: Record<string, unknown> }).failUnder;
    assert.equal(ok["passed"], true);
    assert.deepEqual(ok["models"], ["atlas-pro"]);
    assert.ok(lines(passed.err).includes(String(ok["line"])));
    const none = await run(["score", input, "--out", path.join(dir, "g3.csv"), "--summary-json", json, "--judge", "offline", "--no-progress"]);
    assert.equal(none.code, 0, none.err);
    assert.equal((JSON.parse(readFileSync(json, "utf8")) as { failUnder: unknown }).failUnder, null, "no gate asked: null");
  });

  it("a bad --fail-under or a metric the run does not score stops before anything is scored", async () => {
    const out = path.join(dir, "never.csv");
    const bad = await run(["score", input, "--out", out, "--judge", "offline", "--fail-under", "2"]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /score: --fail-under must be a number at least 0 and at most 1, written as a plain decimal \(e\.g\. [^)]*\); got "2"/);
    const metric = await run(["score", input, "--out", out, "--judge", "offline", "--fail-under", "0.5", "--fail-under-metric", "faithfulness"]);
    assert.equal(metric.code, 2);
    assert.match(metric.err, /--fail-under-metric must be one of answer_correctness, multimodal_relevance, got "faithfulness"/);
    const notScored = await run(["score", input, "--out", out, "--judge", "offline", "--fail-under", "0.5", "--fail-under-metric", "multimodal_relevance"]);
    assert.equal(notScored.code, 2);
    assert.match(notScored.err, /--fail-under-metric multimodal_relevance is not scored in this run \(it scores answer_correctness\)/);
    const model = await run(["score", input, "--out", out, "--judge", "offline", "--fail-under", "0.5", "--fail-under-model", "atlas-pr0"]);
    assert.equal(model.code, 2, model.err);
    assert.match(model.err, /--fail-under-model "atlas-pr0" is not a model of this table; its models are "[a-z-]+", "[a-z-]+", "[a-z-]+"/);
    assert.ok(!existsSync(out));
  });
});

describe("evalframe diff", () => {
  const dir = tempDir();
  const file = (name: string) => path.join(dir, name);
  before(async () => {
    await toCSV(BEFORE, file("before.csv"));
    await toCSV(AFTER, file("after.csv"));
    const shifted = shiftedRuns(12, 0, 0.25); // B loses 0.25 on all 12 questions
    await toCSV(shifted.before, file("steady.csv"));
    await toCSV(shifted.after, file("worse.csv"));
    const skewed = skewedRuns(); // 85% of answers +0.05, 15% −0.45: the mean drops 0.025
    await toCSV(skewed.before, file("skew-before.csv"));
    await toCSV(skewed.after, file("skew-after.csv"));
    const fewBig = fewBigLossesRuns();
    await toCSV(fewBig.before, file("few-big-before.csv"));
    await toCSV(fewBig.after, file("few-big-after.csv"));
    const smaller = fewBigLossesRuns(0.2);
    await toCSV(smaller.before, file("smaller-before.csv"));
    await toCSV(smaller.after, file("smaller-after.csv"));
    const amongTen = fewBigLossesRuns(0.2, 9);
    await toCSV(amongTen.before, file("ten-before.csv"));
    await toCSV(amongTen.after, file("ten-after.csv"));
    const three = ["q1", "q2", "q3"];
    await toCSV(three.map((id) => ({ id, model: "M", answer_correctness: 0.5 })), file("three-before.csv"));
    await toCSV(three.map((id) => ({ id, model: "M", answer_correctness: 0.49 })), file("three-after.csv"));
    await toCSV(AFTER.map((r) => (r.model === "B" ? { ...r, answer_correctness: Number.NaN, answer_correctness_error: "rate limited" } : r)), file("b-failed.csv"));
    await toCSV(AFTER.filter((r) => r.model !== "B"), file("b-gone.csv"));
    const withRef = (rows: typeof BEFORE, edited: boolean) => rows.map((r) => ({ ...r, reference: edited && r.id === "q3" ? "an edited reference" : `reference of ${r.id}` }));
    await toCSV(withRef(BEFORE, false), file("ref-before.csv"));
    await toCSV(withRef(AFTER, true), file("ref-after.csv"));
  });

  it("--fail-on-worse fails when the mean dropped beyond chance though the typical answer improved (verdict inconclusive)", async () => {
    const r = await run(["diff", file("skew-before.csv"), file("skew-after.csv"), "--fail-on-worse", "--top", "0"]);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /^M\s+400\s+0\.5\s+0\.475\s+-0\.025\s+-0\.0\d\d\s+-0\.0\d\d\s+<0\.001\s+inconclusive: the typical answer and/m);
    assert.match(lines(r.err)[0]!, /^evalframe: fail-on-worse: answer_correctness got worse for model M: -0\.025 \(95% CI -0\.0\d\d to -0\.0\d\d, wholly below 0; the typical answer improved, but the mean dropped\)$/);
  });

  it("--fail-on-worse fails when the mean dropped beyond chance though the rank test saw no difference (verdict no detectable difference)", async () => {
    const r = await run(["diff", file("few-big-before.csv"), file("few-big-after.csv"), "--fail-on-worse", "--top", "0"]);
    assert.equal(r.code, 1, `${r.out}\n${r.err}`);
    assert.match(r.out, /^M\s+30\s+0\.5\s+0\.417\s+-0\.083\s+-0\.1\d+\s+-0\.0\d+\s+0\.0\d+\s+no detectable difference/m);
    assert.match(lines(r.err)[0]!, /^evalframe: fail-on-worse: answer_correctness got worse for model M: -0\.083 \(95% CI -0\.1\d\d to -0\.0\d\d, wholly below 0; the rank test saw no difference, but the mean dropped\)$/);
  });

  it("--fail-on-worse reads the mean's interval corrected for the models compared: the same drop fails alone and passes among ten models", async () => {
    const alone = await run(["diff", file("smaller-before.csv"), file("smaller-after.csv"), "--fail-on-worse", "--top", "0"]);
    assert.equal(alone.code, 1, `${alone.out}\n${alone.err}`);
    assert.match(lines(alone.err)[0]!, /fail-on-worse: answer_correctness got worse for model M: -0\.050 \(95% CI -0\.0\d\d to -0\.0\d\d, wholly below 0; the rank test saw no difference/);
    // Among ten models, each at 99.5%: M's interval holds 0, as the noise of ten models would often give one interval below 0 at 95%.
    const among = await run(["diff", file("ten-before.csv"), file("ten-after.csv"), "--fail-on-worse", "--top", "0"]);
    assert.match(among.out, /^M\s+30\s+0\.5\s+0\.45\s+-0\.05\s+-0\.0\d+\s+-0\.0\d+\s/m, "M's 95% interval alone is below 0");
    assert.equal(among.code, 0, `${among.out}\n${among.err}`);
  });

  it("--fail-on-worse does not fail on an interval that is a point (every answer moved alike) where the rank test sees no difference", async () => {
    const r = await run(["diff", file("three-before.csv"), file("three-after.csv"), "--fail-on-worse", "--top", "0"]);
    assert.match(r.out, /no detectable difference/);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
  });

  it("the gates fail when a model scored before has no scored answer after: every answer failed, or the model is gone", async () => {
    for (const [after, why] of [["b-failed.csv", "all 3 of its answers there failed"], ["b-gone.csv", "it is not in the after run"]] as const) {
      for (const gate of [["--fail-on-worse"], ["--fail-under-change", "-0.05"]]) {
        const r = await run(["diff", file("before.csv"), file(after), ...gate]);
        assert.equal(r.code, 1, `${after} ${gate.join(" ")}: ${r.err}`);
        const message = `model "B" had 4 scored answers in the before run and none scored in the after run (${why})`;
        assert.deepEqual(lines(r.err), [`evalframe: warning: ${message}`, `evalframe: ${gate[0]!.slice(2)}: ${message}`]);
      }
      assert.equal((await run(["diff", file("before.csv"), file(after)])).code, 0, "without a gate, a warning only");
    }
  });

  it("warns when a paired answer's reference changed, and its row says so", async () => {
    const r = await run(["diff", file("ref-before.csv"), file("ref-after.csv")]);
    assert.equal(r.code, 0, r.err);
    assert.match(lines(r.err)[0]!, /^evalframe: warning: 1 paired answer has a different reference answer \(reference\) in the two runs \(first: id "q3", model "A"\)/);
    assert.match(r.out, /^q3\s+A\s+question q3\s+0\.75\s+0\.5\s+-0\.25\s+worse\s+no\s+yes$/m);
  });

  it("prints the change per model and the answers that changed most; exit 0", async () => {
    const r = await run(["diff", file("before.csv"), file("after.csv")]);
    assert.equal(r.code, 0, r.err);
    const out = lines(r.out);
    assert.match(out[0]!, /^answer_correctness: before = .*before\.csv, after = .*after\.csv; answers paired by \(id, model\)$/);
    assert.match(out[1]!, /^model\s+n_paired\s+mean_before\s+mean_after\s+change\s+ci_low\s+ci_high\s+p_holm\s+verdict/);
    assert.match(out.find((l) => l.startsWith("A "))!, /^A\s+4\s+0\.688\s+0\.719\s+0\.031\s/);
    assert.match(out.find((l) => l.startsWith("B "))!, /^B\s+2\s+0\.375\s+0\.438\s+0\.063\s/);
    assert.ok(out.some((l) => l.startsWith("(all) ")));
    const heading = out.findIndex((l) => l.startsWith("changed answers"));
    assert.match(out[heading]!, /the 7 largest of 7 \(--out FILE writes them all/);
    assert.match(out[heading + 3]!, /^q1\s+A\s+question q1\s+0\.5\s+0\.875\s+0\.375\s+better\s+yes$/);
    assert.match(out[heading + 4]!, /^q3\s+A\s+.*-0\.25\s+worse\s+no$/);
  });

  it("--json gives every number; --top limits the answers", async () => {
    const r = await run(["diff", file("before.csv"), file("after.csv"), "--json", "--top", "2"]);
    assert.equal(r.code, 0, r.err);
    const body = JSON.parse(r.out) as { pairedBy: string; summary: Record<string, unknown>[]; changes: Record<string, unknown>[]; changed: number };
    assert.equal(body.pairedBy, "id");
    const b = body.summary.find((s) => s["model"] === "B")!;
    assert.deepEqual([b["n_paired"], b["change"], b["dropped"], b["failed_after_only"]], [2, 0.0625, 1, 1]);
    assert.equal(body.changed, 7);
    assert.deepEqual(body.changes.map((c) => c["id"]), ["q1", "q3"]);
  });

  it("--out writes every changed answer as CSV and --chart the change chart", async () => {
    const r = await run(["diff", file("before.csv"), file("after.csv"), "--out", file("changes.csv"), "--chart", file("change.json"), "--top", "0"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /wrote .*changes\.csv \(7 changed answers\), .*change\.json/);
    assert.ok(!r.out.includes("changed answers:"), "--top 0 prints no answer");
    const changes = await loadDataset(file("changes.csv"), { required: [] });
    const status = changes.column("status").values as string[];
    assert.deepEqual(status, ["better", "worse", "better", "newly failed", "no longer failing", "dropped", "added"]);
    assert.ok(changes.columns.includes("response_after"));
    const spec = JSON.parse(readFileSync(file("change.json"), "utf8")) as { $schema: string; data: { values: { model: string }[] } };
    assert.match(spec.$schema, /vega-lite/);
    assert.deepEqual(spec.data.values.map((v) => v.model), ["A", "B", "(all)"]);
  });

  it("--out writes the header alone when no answer changed (exit 0: an unchanged run is no failure)", async () => {
    for (const extra of [[], ["--low-memory"]]) {
      const r = await run(["diff", file("before.csv"), file("before.csv"), "--out", file("none.csv"), ...extra]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /wrote .*none\.csv \(0 changed answers\)/);
      assert.equal(readFileSync(file("none.csv"), "utf8"), "id,model,user_input,before,after,change,status,answer_changed,response_before,response_after,error\n");
    }
  });

  it("--low-memory: --out and --json give each changed answer's own texts, as the library's comparison of the same files does", async () => {
    // Answers under an alias of the column ("answer"), one that a spreadsheet would take for a formula, a
    // comma and a line break: the answers are read as digests and their texts read again for the rows written.
    const answer = (r: (typeof BEFORE)[number], text: string) => ({ ...r, response: undefined, answer: text });
    const before = BEFORE.map((r, i) => answer(r, i === 0 ? "=1+1, said A\non two lines" : r.response));
    const after = AFTER.map((r) => answer(r, r.id === "q1" && r.model === "A" ? "=2+2, said A" : r.response));
    await toCSV(before.map(({ response, ...r }) => r), file("alias-before.csv"));
    await toCSV(after.map(({ response, ...r }) => r), file("alias-after.csv"));
    const r = await run(["diff", file("alias-before.csv"), file("alias-after.csv"), "--out", file("alias-changes.csv"), "--top", "0", "--low-memory"]);
    assert.equal(r.code, 0, r.err);
    const held = await run(["diff", file("alias-before.csv"), file("alias-after.csv"), "--out", file("alias-changes-texts.csv"), "--top", "0"]);
    assert.equal(held.code, 0, held.err);
    assert.equal(readFileSync(file("alias-changes.csv"), "utf8"), readFileSync(file("alias-changes-texts.csv"), "utf8"), "the same file, texts held or read again");
    const library = compareRuns(await loadDataset(file("alias-before.csv"), { required: [] }), await loadDataset(file("alias-after.csv"), { required: [] }));
    await toCSV(library.changes, file("library-changes.csv"));
    assert.equal(readFileSync(file("alias-changes.csv"), "utf8"), readFileSync(file("library-changes.csv"), "utf8"));
    const changes = await loadDataset(file("alias-changes.csv"), { required: [] });
    const at = (v: unknown[], name: string) => v[changes.columns.indexOf(name)];
    const texts = (changes.values as unknown[][]).map((v) => [at(v, "status"), at(v, "id"), at(v, "model"), at(v, "response_before"), at(v, "response_after")]);
    assert.deepEqual(texts[0], ["better", "q1", "A", "=1+1, said A\non two lines", "=2+2, said A"]);
    const dropped = texts.find(([status]) => status === "dropped")!;
    assert.deepEqual(dropped.slice(3), [`answer of ${String(dropped[2])} to ${String(dropped[1])}`, ""]);
    assert.deepEqual(texts.find(([status]) => status === "added")!.slice(3), ["", "answer of A to q6"]);

    const json = await run(["diff", file("alias-before.csv"), file("alias-after.csv"), "--json", "--top", "1", "--low-memory"]);
    const body = JSON.parse(json.out) as { changes: Record<string, unknown>[] };
    assert.deepEqual([body.changes[0]!["response_before"], body.changes[0]!["response_after"]], ["=1+1, said A\non two lines", "=2+2, said A"]);
  });

  it("gates: --fail-under-change and --fail-on-worse exit 1 with one line; met gates exit 0", async () => {
    assert.equal((await run(["diff", file("before.csv"), file("after.csv"), "--fail-under-change", "-0.05", "--fail-on-worse"])).code, 0);
    const under = await run(["diff", file("before.csv"), file("after.csv"), "--fail-under-change", "0.05"]);
    assert.equal(under.code, 1);
    assert.deepEqual(lines(under.err), ["evalframe: fail-under-change: answer_correctness changed by +0.031 < +0.050 (model A; 4 answers paired)"]);
    const worse = await run(["diff", file("steady.csv"), file("worse.csv"), "--fail-on-worse"]);
    assert.equal(worse.code, 1);
    assert.match(lines(worse.err)[0]!, /^evalframe: fail-on-worse: answer_correctness got worse for model B: -0\.250 \(95% CI -0\.250 to -0\.250, Holm-adjusted p (0\.00\d|\d\.\de-\d)\)$/);
    assert.equal(lines(worse.err).length, 1);
    assert.match(worse.out, /before better than after/, "the tables are printed before the gate fails");
  });

  it("usage errors exit 2; runs that cannot be paired exit 1 with the reason", async () => {
    for (const args of [
      ["diff", file("before.csv")],
      ["diff", file("before.csv"), file("after.csv"), file("after.csv")],
      ["diff", file("before.csv"), file("after.csv"), "--chart", file("change.gif")],
      ["diff", file("before.csv"), file("after.csv"), "--fail-under-change", "-2"],
      ["diff", file("before.csv"), file("after.txt")],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.equal(lines(r.err).length, 1);
    }
    const unrelated = path.join(dir, "unrelated.csv");
    await toCSV(AFTER.map((r) => ({ ...r, id: `x${r.id}` })), unrelated);
    const r = await run(["diff", file("before.csv"), unrelated]);
    assert.equal(r.code, 1);
    assert.match(r.err, /^evalframe: .*before\.csv vs .*unrelated\.csv: diff: the runs share no answer to pair: looked for the same \(id, model\)/);
    const missing = await run(["diff", file("before.csv"), file("nowhere.csv")]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /nowhere\.csv/);
    // A column named by an option that a run lacks: exit 2, with that file's columns, not the few read.
    for (const [option, value] of [["--metric", "answer_corectness"], ["--by", "modle"], ["--pair-by", "qid"]]) {
      const named = await run(["diff", file("before.csv"), file("after.csv"), option!, value!]);
      assert.equal(named.code, 2, named.err);
      assert.match(named.err, new RegExp(`diff: ${option} names column "${value}", which .*before\\.csv does not have; its columns are: id, model, user_input, response, answer_correctness`));
      // The file has no input_error column, though a read without the model column finds ids repeated.
      assert.doesNotMatch(named.err, /input_error/);
    }
  });

  it("is listed in the help, and report --previous adds the change section", async () => {
    const help = await run(["--help"]);
    assert.match(help.out, /\n {2}diff {7}two runs of the same data/);
    assert.match((await run(["diff", "--help"])).out, /--fail-under-change X/);
    copyFileSync(file("after.csv"), file("scored.csv"));
    const r = await run(["report", file("scored.csv"), "--out", file("report.html"), "--previous", file("before.csv")]);
    assert.equal(r.code, 0, r.err);
    const html = readFileSync(file("report.html"), "utf8");
    assert.match(html, /<h2>Change since the previous run<\/h2>/);
    assert.match(html, /id="chart-change-1"/);
  });
});
