/**
 * Scored tables written by older evalframes, read by this one: the fixtures
 * in test/fixtures/upgrade/ were written by the commits their names start
 * with, by `evalframe score test/fixtures/upgrade/qa-q01.csv --judge offline`
 * (and `--layout fused`, `--answers-per-call 3 --no-reasons` where the name
 * says so):
 *
 * - cdb6b2d (2026-11-30): records neither layout nor prompts;
 * - 52626ec (2026-12-01) and c0d2993 (2026-12-04): record the layout, reasons
 *   and answers per call, not the prompts; their fused layout split references
 *   with ac-statements-batch-v1, which this version replaced by v2.
 *
 * A user who upgrades diffs such a table against a new run: the newer
 * reference-batch prompt must be named as a change of scoring, a Ragas-layout
 * run (same prompts then and now) must not be, and a table that records no
 * prompts at all must be said to be unrecorded, not passed as scored alike.
 * The fixtures are the offline judge's, whose rules are recorded since
 * 2026-12-05: against a new run each also differs by its judge's rules
 * ("not recorded"), named beside the prompts.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, buildReport, compareRuns, createJudge, loadDataset, score, statements, summarize, toCSV } from "../src/index";
import { runCliCaptured as run } from "./support/cli";
import { tempDir } from "./support/files";

const FIXTURES = path.join(__dirname, "fixtures", "upgrade");
const fixture = (name: string) => path.join(FIXTURES, name);

/** The fixtures' input scored now, with the offline judge (as the fixtures were), with reasons unless told (as the fixtures' defaults were). */
async function scoredNow(options: Parameters<typeof answerCorrectness>[0] = {}) {
  return score(await loadDataset(fixture("qa-q01.csv")), [answerCorrectness({ reasons: true, ...options })], { judge: createJudge({ judge: "offline" }), progress: false, quiet: true });
}

/** The offline judge's rules, unrecorded in every fixture, as diff names them against a new run. */
const RULES = ["judge rules", "not recorded (before 2026-12-05)", "offline-rules-2026-12-05b"];

/** The changes of scoring other than the offline judge's rules (each fixture's, named by the test below). */
const besideRules = <C extends { setting: string }>(changes: readonly C[]): C[] => changes.filter((c) => c.setting !== "judge rules");

describe("a fused-layout table from before prompts were recorded, against a new run", () => {
  it("names the newer reference-batch prompt as a change of scoring (c0d2993, one answer a call)", async () => {
    const runs = compareRuns(await loadDataset(fixture("c0d2993-offline-fused.csv")), await scoredNow({ layout: "fused" }));
    assert.deepEqual(
      besideRules(runs.scoringChanges).map((c) => [c.setting, c.before, c.after, c.answers]),
      [["prompts", "ac-statements-batch-v1 ac-fused-v1", "ac-statements-batch-v2 ac-fused-v1", 3]],
      "the old table asked for its references with ac-statements-batch-v1",
    );
    assert.ok(runs.warnings.some((w) => /scored differently in the two runs \(all 3 paired answers\): .*prompts "ac-statements-batch-v1 ac-fused-v1" before/.test(w)), runs.warnings.join("\n"));
  });

  it("names it with the answers-per-call and verdicts-only prompts of the time (52626ec, 3 answers a call, no reasons)", async () => {
    const runs = compareRuns(await loadDataset(fixture("52626ec-offline-fused-3-no-reasons.csv")), await scoredNow({ layout: "fused", answersPerCall: 3, reasons: false }));
    assert.deepEqual(
      besideRules(runs.scoringChanges).map((c) => [c.setting, c.before, c.after]),
      [["prompts", "ac-statements-batch-v1 ac-fused-batch-verdicts-only-v1", "ac-statements-batch-v2 ac-fused-batch-verdicts-only-v1"]],
    );
  });

  it("evalframe diff --fail-on-scoring-change exits 1 naming the prompts; the report lists them", async () => {
    const dir = tempDir();
    const now = path.join(dir, "now.csv");
    await toCSV(await scoredNow({ layout: "fused" }), now);
    const r = await run(["diff", fixture("c0d2993-offline-fused.csv"), now, "--fail-on-scoring-change"]);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /warning: .*prompts "ac-statements-batch-v1 ac-fused-v1" before, "ac-statements-batch-v2 ac-fused-v1" after/);
    assert.match(r.err, /fail-on-scoring-change: the runs were scored differently/);
    const report = buildReport(await loadDataset(fixture("c0d2993-offline-fused.csv")), { generatedAt: null });
    assert.match(report, /answer correctness scored with judge rules not recorded \(before 2026-12-05\) · layout fused · reasons yes · answers per call 1 · prompts ac-statements-batch-v1 ac-fused-v1 ·/);
  });
});

describe("a Ragas-layout table from before prompts were recorded (c0d2993), against a new run", () => {
  it("is scored with the same prompts (the Ragas prompts have not changed since the layout was recorded); only the offline judge's unrecorded rules are named", async () => {
    const dir = tempDir();
    const now = path.join(dir, "now.csv");
    await toCSV(await scoredNow(), now);
    const runs = compareRuns(await loadDataset(fixture("c0d2993-offline-ragas.csv")), await loadDataset(now));
    assert.deepEqual(runs.scoringChanges.map((c) => [c.setting, c.before, c.after]), [RULES], "no word of a prompt change that did not happen");
    assert.deepEqual(runs.warnings.filter((w) => /does not record/.test(w)), []);
    const r = await run(["diff", fixture("c0d2993-offline-ragas.csv"), now, "--fail-on-scoring-change"]);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /fail-on-scoring-change: .*judge rules "not recorded \(before 2026-12-05\)" before, "offline-rules-2026-12-05b" after \(3 paired answers\)$/m);
  });
});

describe("a table from before the scoring was recorded (cdb6b2d, 2026-11-30)", () => {
  it("diff says the old run does not record its prompts, and still compares (no gate, no crash)", async () => {
    const dir = tempDir();
    const now = path.join(dir, "now.csv");
    await toCSV(await scoredNow(), now);
    const r = await run(["diff", fixture("cdb6b2d-offline-ragas.csv"), now]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /mean_before/);
    assert.match(
      r.err,
      /warning: answer_correctness: the before run does not record its layout, reasons, answers per call or prompts \(all 3 paired answers\): it was written by an older evalframe, which may have asked with older prompts/,
    );
    // The other way round, the after run is the old one.
    const back = compareRuns(await loadDataset(now), await loadDataset(fixture("cdb6b2d-offline-ragas.csv")));
    assert.ok(back.warnings.some((w) => w.includes("the after run does not record its layout, reasons, answers per call or prompts")), back.warnings.join("\n"));
    // Two old tables record the same (nothing): no word.
    const old = await loadDataset(fixture("cdb6b2d-offline-ragas.csv"));
    assert.deepEqual(compareRuns(old, old).warnings.filter((w) => /does not record/.test(w)), []);
  });

  it("summarize, statements and the report read it", async () => {
    const old = await loadDataset(fixture("cdb6b2d-offline-ragas.csv"));
    const summary = summarize(old, { by: "model" });
    assert.equal(summary.shape[0], 3, "one row per model");
    const rows = statements(old).shape[0] ?? 0;
    assert.ok(rows > 3, `its statements are read back (${rows})`);
    assert.match(buildReport(old, { generatedAt: null }), /answer correctness scored with judge rules not recorded \(before 2026-12-05\) · weights 0\.75\/0\.25 · beta 1/);
  });
});
