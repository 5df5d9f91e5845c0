/**
 * compareRuns: two hand-built runs where every change is known (which answers
 * got better or worse, failed in one run only, were added or dropped), the
 * chart of the change, and the report's "Change since the previous run".
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import type { DataFrame } from "danfojs-node";
import { buildReport, changeWithCI, compareModels, compareRuns, toDataFrame } from "../src/index";
import { summarize } from "../src/analysis/summarize";
import { RUN_CHANGE_COLUMNS } from "../src/analysis/compare-runs";
import { compileChart } from "../src/charts/index";
import { readFrame } from "../src/display/table";
import type { Cell } from "../src/dataset/table";
import { AFTER, BEFORE, shiftedRuns, skewedRuns, type RunRow } from "./support/runs";
import { dumpDom, pageResult } from "./support/browser";
import { tempDir } from "./support/files";
import { chartIds, probedCopy, reportStatus } from "./support/report-page";

const close = (actual: unknown, expected: number, tolerance = 1e-12) =>
  assert.ok(typeof actual === "number" && Math.abs(actual - expected) <= tolerance, `${String(actual)} is not within ${tolerance} of ${expected}`);

function rows(df: DataFrame): Record<string, Cell>[] {
  const t = readFrame(df, "test");
  return Array.from({ length: t.rowCount }, (_, i) => Object.fromEntries(t.columns.map((c) => [c.name, c.values[i] ?? null])));
}

function byModel(df: DataFrame): Record<string, Record<string, Cell>> {
  return Object.fromEntries(rows(df).map((r) => [String(r["model"]), r]));
}

describe("the bootstrap is seeded from the data, not from a group's name", () => {
  // One model's 12 answers, before and after: the model's row and the (all) row rest on the same pairs.
  const one = (model: string, run: "before" | "after") =>
    Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, model, answer_correctness: run === "before" ? (i % 4) / 4 : ((i * 7) % 5) / 5, answer_correctness_error: "" }));
  const interval = (r: Record<string, Cell>) => [r["ci_low"], r["ci_high"]];

  it("identical pairs get the identical interval in one table, under any name; reruns repeat it and --seed moves it", () => {
    const runs = byModel(compareRuns(one("swift-mini", "before"), one("swift-mini", "after")).summary);
    assert.deepEqual(interval(runs["swift-mini"]!), interval(runs["(all)"]!));
    const renamed = byModel(compareRuns(one("atlas-pro", "before"), one("atlas-pro", "after")).summary);
    assert.deepEqual(interval(renamed["atlas-pro"]!), interval(runs["swift-mini"]!));
    const again = byModel(compareRuns(one("swift-mini", "before"), one("swift-mini", "after")).summary);
    assert.deepEqual(interval(again["swift-mini"]!), interval(runs["swift-mini"]!));
    const seeded = byModel(compareRuns(one("swift-mini", "before"), one("swift-mini", "after"), { seed: 7 }).summary);
    assert.notDeepEqual(interval(seeded["swift-mini"]!), interval(runs["swift-mini"]!));
  });

  it("summarize: two models with the same scores get the same interval", () => {
    const t = readFrame(summarize([...one("m1", "after"), ...one("model-two", "after")], { by: "model" }), "test");
    const low = t.columns.find((c) => c.name === "ci_low")!.values;
    const high = t.columns.find((c) => c.name === "ci_high")!.values;
    assert.equal(t.rowCount, 2);
    assert.deepEqual([low[0], high[0]], [low[1], high[1]]);
  });
});

describe("compareRuns on two runs with known changes", () => {
  const runs = compareRuns(BEFORE, AFTER);
  const summary = byModel(runs.summary);

  it("pairs by (id, model) and says so; the summary has its documented columns, the models then (all)", () => {
    assert.equal(runs.pairedBy, "id");
    assert.equal(runs.by, "model");
    assert.equal(runs.metric, "answer_correctness");
    assert.deepEqual(runs.summary.columns, [...RUN_CHANGE_COLUMNS]);
    assert.deepEqual(rows(runs.summary).map((r) => r["model"]), ["A", "B", "(all)"]);
    assert.deepEqual(runs.warnings, []);
  });

  it("model A: means over the answers scored in both runs, the change, and every count", () => {
    const a = summary["A"]!;
    assert.equal(a["n_paired"], 4); // q1-q4; q5 failed before, q6 is new
    close(a["mean_before"], 2.75 / 4);
    close(a["mean_after"], 2.875 / 4);
    close(a["change"], 0.125 / 4);
    assert.deepEqual([a["improved"], a["worsened"], a["unchanged"]], [1, 1, 2]);
    assert.deepEqual([a["added"], a["dropped"], a["failed_before_only"], a["failed_after_only"], a["failed_both"]], [1, 0, 1, 0, 0]);
  });

  it("model B: a newly failed answer is counted apart, never as a score of 0", () => {
    const b = summary["B"]!;
    assert.equal(b["n_paired"], 2); // q1 and q4; q2 failed after, q3 dropped
    close(b["mean_before"], 0.375);
    close(b["mean_after"], 0.4375); // with q2 as 0 it would be 0.29
    close(b["change"], 0.0625);
    assert.deepEqual([b["improved"], b["worsened"], b["unchanged"]], [1, 0, 1]);
    assert.deepEqual([b["added"], b["dropped"], b["failed_before_only"], b["failed_after_only"]], [0, 1, 0, 1]);
  });

  it("(all) pools every model's pairs", () => {
    const all = summary["(all)"]!;
    assert.equal(all["n_paired"], 6);
    close(all["mean_before"], 3.5 / 6);
    close(all["mean_after"], 3.75 / 6);
    close(all["change"], 0.25 / 6);
    assert.deepEqual([all["improved"], all["worsened"], all["added"], all["dropped"], all["failed_before_only"], all["failed_after_only"]], [2, 1, 1, 1, 1, 1]);
  });

  it("lists the changed answers: largest change first, then newly failed, no longer failing, dropped, added", () => {
    const changes = rows(runs.changes);
    assert.deepEqual(
      changes.map((r) => [r["id"], r["model"], r["status"]]),
      [
        ["q1", "A", "better"],
        ["q3", "A", "worse"],
        ["q4", "B", "better"],
        ["q2", "B", "newly failed"],
        ["q5", "A", "no longer failing"],
        ["q3", "B", "dropped"],
        ["q6", "A", "added"],
      ],
    );
    const [q1, q3, , q2, q5, dropped, added] = changes;
    assert.deepEqual([q1!["before"], q1!["after"], q1!["change"]], [0.5, 0.875, 0.375]);
    assert.equal(q3!["change"], -0.25);
    // The answer text is shown only when it changed.
    assert.equal(q1!["answer_changed"], "yes");
    assert.equal(q1!["response_before"], "answer of A to q1");
    assert.equal(q1!["response_after"], "a better answer of A to q1");
    assert.deepEqual([q3!["answer_changed"], q3!["response_before"], q3!["response_after"]], ["no", "", ""]);
    // A failed side has no score and carries its reason.
    assert.ok(Number.isNaN(q2!["after"]));
    assert.equal(q2!["error"], "rate limited");
    assert.equal(q5!["error"], "judge timed out");
    assert.equal(dropped!["before"], 0.5);
    assert.ok(Number.isNaN(dropped!["after"]));
    assert.equal(added!["after"], 0.375);
    assert.equal(added!["user_input"], "question q6");
  });

  it("does not depend on row order: a shuffled after run gives the same summary", () => {
    const shuffled = [...AFTER].reverse();
    assert.deepEqual(rows(compareRuns(BEFORE, shuffled).summary), rows(runs.summary));
  });

  it("takes DataFrames as well as row objects, with the same numbers (the bootstrap is seeded)", () => {
    const again = compareRuns(toDataFrame(BEFORE), toDataFrame(AFTER));
    assert.deepEqual(rows(again.summary), rows(runs.summary));
  });
});

describe("compareRuns: tests and verdicts", () => {
  it("a steady gain is 'after better than before', a steady loss 'before better than after', with an interval off zero", () => {
    const { before, after } = shiftedRuns(20, 0.125, 0.25);
    const s = byModel(compareRuns(before, after).summary);
    const a = s["A"]!;
    const b = s["B"]!;
    close(a["change"], 0.125);
    close(b["change"], -0.25);
    assert.equal(a["verdict"], "after better than before");
    assert.equal(b["verdict"], "before better than after");
    assert.equal(a["test"], "wilcoxon signed-rank (exact)"); // 20 tied differences: exact over their average ranks
    assert.ok((a["ci_low"] as number) > 0 && (b["ci_high"] as number) < 0);
    assert.ok((a["p_holm"] as number) < 0.001 && (a["p_holm"] as number) >= (a["p_value"] as number));
    assert.equal(a["improved"], 20);
    assert.equal(b["worsened"], 20);
  });

  it("agrees with compareModels on the same pairs: the change is the paired difference after − before", () => {
    const { before, after } = shiftedRuns(12, 0.125, 0);
    const stacked = [...before.map((r) => ({ ...r, model: `before ${r.model}` })), ...after.map((r) => ({ ...r, model: `after ${r.model}` }))];
    const models = rows(compareModels(stacked, { baseline: "before A" })).find((r) => r["model_a"] === "after A")!;
    const a = byModel(compareRuns(before, after).summary)["A"]!;
    close(a["change"], models["mean_diff"] as number);
    close(a["p_value"], models["p_value"] as number);
  });

  it("uses the exact sign test for 0/1 scores", () => {
    const before = Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, model: "A", multimodal_relevance: 0 }));
    const after = before.map((r, i) => ({ ...r, multimodal_relevance: i < 9 ? 1 : 0 }));
    const a = byModel(compareRuns(before, after, { metric: "multimodal_relevance" }).summary)["A"]!;
    assert.equal(a["test"], "sign test (exact)");
    close(a["p_value"], 0.00390625); // 9 of 9 non-tied pairs: 2/2^9
    assert.equal(a["verdict"], "after better than before");
  });

  it("skewed changes (most answers a little better, a few much worse): the verdict names no side, as the mean dropped", () => {
    const { before, after } = skewedRuns();
    const runs = compareRuns(before, after);
    const m = byModel(runs.summary)["M"]!;
    close(m["change"], -0.025, 1e-12);
    assert.ok((m["ci_high"] as number) < 0, "the mean change is below 0 beyond chance");
    assert.ok((m["p_holm"] as number) < 0.001);
    assert.deepEqual([m["improved"], m["worsened"]], [340, 60]);
    assert.equal(m["verdict"], "inconclusive: the typical answer and the mean disagree");
  });

  it("a model scored before and not after (every answer failed, or the model gone) is named and warned about", () => {
    const failed = AFTER.map((r) => (r.model === "B" ? { ...r, answer_correctness: Number.NaN, answer_correctness_error: "rate limited" } : r));
    const runs = compareRuns(BEFORE, failed);
    assert.deepEqual(runs.unscoredAfter, [{ model: "B", scoredBefore: 4, rowsAfter: 3 }]);
    assert.equal(byModel(runs.summary)["B"]!["verdict"], "no scored answers in the after run");
    assert.ok(runs.warnings.includes('model "B" had 4 scored answers in the before run and none scored in the after run (all 3 of its answers there failed)'), runs.warnings.join("\n"));
    const gone = compareRuns(BEFORE, AFTER.filter((r) => r.model !== "B"));
    assert.deepEqual(gone.unscoredAfter, [{ model: "B", scoredBefore: 4, rowsAfter: 0 }]);
    assert.ok(gone.warnings.some((w) => /model "B" had 4 scored answers .* \(it is not in the after run\)/.test(w)));
    assert.deepEqual(compareRuns(BEFORE, AFTER).unscoredAfter, [], "a model with one scored answer left is still scored");
  });

  it("a model in one run only has no pairs and says where it is", () => {
    const after = [...AFTER, { ...AFTER[0]!, model: "C" }];
    const c = byModel(compareRuns(BEFORE, after).summary)["C"]!;
    assert.equal(c["n_paired"], 0);
    assert.equal(c["added"], 1);
    assert.equal(c["verdict"], "only in the after run");
    assert.ok(Number.isNaN(c["change"]));
  });
});

describe("compareRuns: pairing and bad input", () => {
  const strip = (r: RunRow) => {
    const { id: _id, ...rest } = r;
    return rest;
  };

  it("without id columns, pairs by the question text", () => {
    const runs = compareRuns(BEFORE.map(strip), AFTER.map(strip));
    assert.equal(runs.pairedBy, "user_input");
    assert.equal(byModel(runs.summary)["A"]!["n_paired"], 4);
    assert.equal(rows(runs.changes)[0]!["user_input"], "question q1");
    assert.ok(!runs.changes.columns.includes("id"));
  });

  it("without a model column, the runs are one system: only the (all) row", () => {
    const one = (list: readonly RunRow[]) => list.filter((r) => r.model === "A").map(({ model: _m, ...rest }) => rest);
    const runs = compareRuns(one(BEFORE), one(AFTER));
    assert.equal(runs.by, undefined);
    const all = rows(runs.summary);
    assert.deepEqual(all.map((r) => r["model"]), ["(all)"]);
    close(all[0]!["change"], 0.125 / 4);
    assert.ok(!runs.changes.columns.includes("model"));
  });

  it("warns when a paired answer's question text differs between the runs", () => {
    const after = AFTER.map((r) => (r.id === "q4" && r.model === "B" ? { ...r, user_input: "another question" } : r));
    const runs = compareRuns(BEFORE, after);
    assert.equal(runs.warnings.length, 1);
    assert.match(runs.warnings[0]!, /1 paired answer has a different question text .*id "q4", model "B"/);
  });

  it("warns when a paired answer's reference differs between the runs, and marks its row", () => {
    const withRef = (list: readonly RunRow[], changed: boolean) =>
      list.map((r) => ({ ...r, reference: changed && r.id === "q3" ? "an edited reference" : `reference of ${r.id}` }));
    const runs = compareRuns(withRef(BEFORE, false), withRef(AFTER, true));
    assert.equal(runs.warnings.length, 1, runs.warnings.join("\n"));
    assert.match(runs.warnings[0]!, /^1 paired answer has a different reference answer \(reference\) in the two runs \(first: id "q3", model "A"\); their scores were measured against another reference/);
    const q3 = rows(runs.changes).find((r) => r["id"] === "q3" && r["model"] === "A")!;
    assert.deepEqual([q3["status"], q3["answer_changed"], q3["reference_changed"]], ["worse", "no", "yes"]);
    const q1 = rows(runs.changes).find((r) => r["id"] === "q1" && r["model"] === "A")!;
    assert.equal(q1["reference_changed"], "no");
    assert.ok(!compareRuns(BEFORE, AFTER).changes.columns.includes("reference_changed"), "no reference column, no reference_changed");
  });

  it("runs that share no answer: an error naming the keys looked for and those found", () => {
    const other = AFTER.map((r) => ({ ...r, id: `x-${r.id}` }));
    assert.throws(() => compareRuns(BEFORE, other), /share no answer to pair: looked for the same \(id, model\) in both; the before run has id "q1", "q2", "q3", … \(5 in all\) for models "A", "B"; the after run has id "x-q6"/);
  });

  it("an answer twice in one run, a metric or model column missing, no way to pair: each a clear error", () => {
    assert.throws(() => compareRuns(BEFORE, [...AFTER, AFTER[1]!]), /compareRuns \(after run\): id "q4" appears twice for model "B" \(row 1 and row 9\)/);
    assert.throws(() => compareRuns(BEFORE, AFTER, { metric: "faithfulness" }), /compareRuns \(before run\): no metric column "faithfulness"; the columns are: id, model/);
    assert.throws(() => compareRuns(BEFORE, AFTER.map(({ model: _m, ...rest }) => rest)), /the before run has a "model" column and the after run has none/);
    const noKeys = (list: readonly RunRow[]) => list.map(({ id: _i, user_input: _q, ...rest }) => rest);
    assert.throws(() => compareRuns(noKeys(BEFORE), noKeys(AFTER)), /cannot pair the runs' answers: looked for an "id" column in both runs \(the before run has none, the after run has none\), then for question texts/);
    assert.throws(() => compareRuns(BEFORE, AFTER, { pairBy: "qid" }), /compareRuns \(before run\): no pairing column "qid"/);
    assert.throws(() => compareRuns(BEFORE, AFTER, { by: "system" }), /compareRuns \(before run\): no model column "system"/);
  });
});

describe("changeWithCI and the report's change section", () => {
  const runs = compareRuns(BEFORE, [...AFTER, { ...AFTER[0]!, model: "C" }]);

  it("draws each model's change with its interval, (all) last, and names the models without pairs", async () => {
    const spec = changeWithCI(runs);
    const values = (spec["data"] as { values: Record<string, unknown>[] }).values;
    assert.deepEqual(values.map((v) => v["model"]), ["A", "B", "(all)"]);
    close(values[0]!["change"], 0.125 / 4);
    assert.equal(values[0]!["ci_low"], byModel(runs.summary)["A"]!["ci_low"]);
    assert.match(JSON.stringify(spec["title"]), /Change in answer_correctness.*no pairs: C/);
    const compiled = await compileChart(spec);
    assert.ok(compiled, "the spec compiles with vega-lite");
    // The summary table alone works too.
    assert.deepEqual((changeWithCI(runs.summary, { metric: "m" })["data"] as { values: unknown[] }).values.length, 3);
  });

  it("buildReport with { previous } adds the section with its table, chart and top changed answers", () => {
    const html = buildReport(toDataFrame(AFTER), { previous: BEFORE, generatedAt: null });
    const section = html.slice(html.indexOf('<section id="change">'), html.indexOf("</section>", html.indexOf('<section id="change">')));
    assert.ok(section.length > 0, "the change section is there");
    assert.match(html, /<a href="#change">Change since the previous run<\/a>/);
    assert.match(section, /after better than before|no detectable difference/);
    assert.match(section, /id="chart-change-1"/);
    assert.match(section, /a better answer|<td>q1<\/td>/);
    assert.match(section, /newly failed/);
    const data = /<script type="application\/json" id="evalframe-charts">([\s\S]*?)<\/script>/.exec(html)![1]!;
    assert.match(data, /"chart-change-1"/);
    assert.ok(!buildReport(toDataFrame(AFTER), { generatedAt: null }).includes('id="change"'), "no section without a previous run");
  });

  it("the change chart draws in headless Chromium with the report's other charts, no console error", () => {
    const file = path.join(tempDir(), "report.html");
    const html = buildReport(toDataFrame(AFTER), { previous: BEFORE, generatedAt: null });
    probedCopy(html, file);
    const dom = dumpDom(file);
    assert.deepEqual(pageResult<{ errors: string[] }>(dom).errors, []);
    const status = reportStatus(dom);
    assert.deepEqual(status.failed, []);
    assert.ok(status.drawn.includes("chart-change-1"));
    assert.deepEqual([...status.drawn].sort(), [...chartIds(html)].sort());
  });

  it("a previous run that shares nothing gives a note in the section, not a broken report", () => {
    const html = buildReport(toDataFrame(AFTER), { previous: BEFORE.map((r) => ({ ...r, id: `old-${r.id}` })), generatedAt: null });
    assert.match(html, /<section id="change">[\s\S]*Not computed: compareRuns: the runs share no answer to pair/);
  });
});
