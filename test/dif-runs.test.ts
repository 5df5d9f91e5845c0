/**
 * Run against run, as a user who edits a scored file by hand to make a
 * second run: names and ids that differ only in case or spaces, scores that
 * differ only in their last digits, runs of different metrics, and the
 * `--where` forms a user tries that it does not take.
 */
import assert from "node:assert/strict";
import { linkSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { buildReport, compareRuns } from "../src/index";
import { readFrame } from "../src/display/table";
import type { Cell } from "../src/dataset/table";
import type { DataFrame } from "danfojs-node";
import { runCliCaptured as run } from "./support/cli";
import { tempDir, writeText } from "./support/files";

function rows(df: DataFrame): Record<string, Cell>[] {
  const t = readFrame(df, "test");
  return Array.from({ length: t.rowCount }, (_, i) => Object.fromEntries(t.columns.map((c) => [c.name, c.values[i] ?? null])));
}

const run1 = (model: string, ids: readonly string[], scores: readonly number[]) =>
  ids.map((id, i) => ({ id, model, answer_correctness: scores[i]!, answer_correctness_error: "" }));

describe("compareRuns: names and ids that differ only in case or spaces", () => {
  it("ids edited by hand (' q1 ', 'Q2') are not paired, and a warning names the first and counts them", () => {
    const before = run1("m", ["q1", "q2", "q3", "q4"], [0.5, 0.5, 0.5, 0.5]);
    const after = run1("m", [" q1 ", "Q2", "q3", "q4"], [0.5, 0.5, 0.5, 0.5]);
    const runs = compareRuns(before, after);
    const all = rows(runs.summary).find((r) => r["model"] === "(all)")!;
    assert.deepEqual([all["n_paired"], all["added"], all["dropped"]], [2, 2, 2], "the edited ids are dropped and added, not paired");
    const warning = runs.warnings.find((w) => w.includes("only in the case or spaces"));
    assert.ok(warning !== undefined, `no warning among: ${runs.warnings.join(" | ")}`);
    assert.match(warning, /^2 answers of the after run differ from one of the before run only in the case or spaces of their id \(first: id "q1" before, " q1 " after, model "m"\)/);
  });

  it("a model renamed only in case or spaces is named in a warning beside 'only in the before run'", () => {
    const before = [...run1("atlas-pro", ["q1", "q2"], [0.4, 0.6]), ...run1("swift", ["q1", "q2"], [0.1, 0.2])];
    const after = [...run1("atlas-pro ", ["q1", "q2"], [0.4, 0.6]), ...run1("swift", ["q1", "q2"], [0.1, 0.2])];
    const runs = compareRuns(before, after);
    assert.ok(
      runs.warnings.some((w) => w.startsWith(`model "atlas-pro" of the before run and "atlas-pro " of the after run differ only in case or spaces`)),
      `no warning naming both names among: ${runs.warnings.join(" | ")}`,
    );
  });

  it("runs that share no answer because every id changed case: the error says so", () => {
    assert.throws(
      () => compareRuns(run1("m", ["A", "B"], [1, 0]), run1("m", ["a", "b"], [1, 1])),
      /share no answer to pair.*Note: 2 answers of the after run differ from one of the before run only in the case or spaces of their id \(first: id "A" before, "a" after/,
    );
  });

  it("no such warning when the ids are simply different", () => {
    const runs = compareRuns(run1("m", ["q1", "q2", "q3"], [0.1, 0.2, 0.3]), run1("m", ["q1", "q2", "q9"], [0.1, 0.2, 0.3]));
    assert.deepEqual(runs.warnings, []);
  });
});

describe("compareRuns: every row is counted or named", () => {
  it("a row whose model cell is empty is in no model's counts: a warning names it, so the counts can be checked", () => {
    const before = run1("m", ["q1", "q2", "q3"], [0.1, 0.2, 0.3]);
    const after = [...run1("m", ["q1", "q2"], [0.1, 0.2]), ...run1("", ["q3"], [0.3])];
    const runs = compareRuns(before, after);
    const all = rows(runs.summary).find((r) => r["model"] === "(all)")!;
    assert.deepEqual([all["n_paired"], all["added"], all["dropped"]], [2, 0, 1]);
    assert.deepEqual(runs.warnings, [
      "1 row of the after run has no model (first: row 2), so it is in no model's counts and left out of the comparison; give it its model to compare it",
    ]);
  });
});

describe("compareRuns: rows that cannot be paired are named", () => {
  it("a row with no id is counted as dropped or added, and a warning names it, as it is not among the changed answers", () => {
    const before = run1("m", ["q1", "q2", ""], [0.1, 0.2, 0.3]);
    const after = run1("m", ["q1", "q2", "q3"], [0.1, 0.2, 0.3]);
    const runs = compareRuns(before, after);
    const all = rows(runs.summary).find((r) => r["model"] === "(all)")!;
    assert.deepEqual([all["n_paired"], all["added"], all["dropped"]], [2, 1, 1]);
    assert.deepEqual(rows(runs.changes).map((r) => [r["id"], r["status"]]), [["q3", "added"]]);
    assert.deepEqual(runs.warnings, [
      "1 row of the before run has no id (first: row 2), so it cannot be paired: it is counted as dropped and not listed among the changed answers",
    ]);
  });
});

describe("compareRuns: the changed answers agree with the counts", () => {
  it("a score that differs only in its last digits (0.3 and 0.1 + 0.2) is unchanged in both the counts and the list", () => {
    const before = run1("m", ["a", "b", "c"], [0.3, 0.5, 0.7]);
    const after = run1("m", ["a", "b", "c"], [0.1 + 0.2, 0.6, 0.7]);
    const runs = compareRuns(before, after);
    const m = rows(runs.summary).find((r) => r["model"] === "m")!;
    assert.deepEqual([m["improved"], m["worsened"], m["unchanged"]], [1, 0, 2]);
    assert.deepEqual(
      rows(runs.changes).map((r) => [r["id"], r["status"]]),
      [["b", "better"]],
      "the list of changed answers must hold what the counts call changed, and nothing else",
    );
  });

  it("equal changes (up to the last digits) keep the runs' order; larger ones come first", () => {
    // c and g both gain 0.3 (0.6 − 0.3 = 0.3, 0.9 − 0.6 = 0.30000000000000004); b, e, h move by 0.05.
    const before = run1("m", ["a", "b", "c", "d", "e", "g", "h"], [0.1, 0.5, 0.3, 0.9, 0.2, 0.6, 0.7]);
    const after = run1("m", ["a", "b", "c", "d", "e", "g", "h"], [0.3, 0.45, 0.6, 0.8, 0.25, 0.9, 0.75]);
    const runs = compareRuns(before, after);
    assert.deepEqual(
      rows(runs.changes).map((r) => r["id"]),
      ["c", "g", "a", "d", "b", "e", "h"],
    );
    const m = rows(runs.summary).find((r) => r["model"] === "m")!;
    const listed = rows(runs.changes);
    assert.equal(listed.filter((r) => r["status"] === "better").length, m["improved"]);
    assert.equal(listed.filter((r) => r["status"] === "worse").length, m["worsened"]);
  });
});

describe("evalframe diff and --where: what a user tries", () => {
  const dir = tempDir();
  const header = "id,model,user_input,response,answer_correctness\n";
  const scored = writeText(dir, "scored.csv", `${header}q1,m,Q1?,A1,0.5\nq2,m,Q2?,A2,0.7\nq1,n,Q1?,B1,0.2\nq2,n,Q2?,B2,0.3\n`);
  const lower = writeText(dir, "lower.csv", `${header}q1,m,Q1?,A1,0.49\nq2,m,Q2?,A2,0.69\nq1,n,Q1?,B1,0.18967\nq2,n,Q2?,B2,0.28967\n`);
  const other = writeText(dir, "relevance.csv", "id,model,user_input,response,multimodal_relevance\nq1,m,Q1?,A1,1\nq2,m,Q2?,A2,0\n");

  it("runs of different metrics: exit 1 naming each file's score columns, not 'score it first'", async () => {
    const r = await run(["diff", scored, other]);
    assert.equal(r.code, 1, r.err);
    assert.equal(
      r.err.trim(),
      `evalframe: diff: the runs share no score column: ${scored} has answer_correctness and ${other} has multimodal_relevance; ` +
        "diff compares one metric scored in both runs: score both with the same metrics (evalframe score … --metrics NAME)",
    );
  });

  it("--fail-under-change: a change equal to the threshold but for the last digits passes; one under it shows enough digits to tell", async () => {
    // m: 0.49 − 0.5 = −0.010000000000000009 in floating point, a change of −0.01; n: −0.01033.
    const r = await run(["diff", scored, lower, "--fail-under-change", "-0.01", "--top", "0"]);
    assert.equal(r.code, 1, r.err);
    assert.equal(r.err.trim(), "evalframe: fail-under-change: answer_correctness changed by -0.0103 < -0.010 (model n; 2 answers paired)");
    const met = await run(["diff", scored, lower, "--fail-under-change", "-0.0104", "--top", "0"]);
    assert.equal(met.code, 0, met.err);
  });

  it("the same file twice, by one name or two: a warning says nothing can have changed", async () => {
    const link = path.join(dir, "same.csv");
    linkSync(scored, link);
    for (const second of [scored, link]) {
      const r = await run(["diff", scored, second, "--top", "0"]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, /^evalframe: warning: both runs are the same file .*: every answer is paired with itself, so nothing can have changed; give the earlier run first, then the new one$/m);
    }
    const other = await run(["diff", scored, lower, "--top", "0"]);
    assert.doesNotMatch(other.err, /same file/);
  });

  it("--where with != or == is a usage error (exit 2) saying what --where takes, on every command", async () => {
    for (const command of [["summarize", scored], ["compare", scored], ["diff", scored, lower], ["report", scored, "--out", path.join(dir, "r.html")]]) {
      const not = await run([...command, "--where", "model!=m"]);
      assert.equal(not.code, 2, `${command[0]!}: ${not.err}`);
      assert.match(not.err, /--where "model!=m": != is not supported; --where keeps the rows whose column holds one of the values given, written COLUMN=VALUE/);
      const twice = await run([...command, "--where", "model==m"]);
      assert.equal(twice.code, 2, `${command[0]!}: ${twice.err}`);
      assert.match(twice.err, /--where "model==m": write one "=", as in --where model=m/);
    }
  });
});

describe("report --previous on runs that score wrote from an input with a repeated (id, model)", () => {
  const dir = tempDir();
  const input = writeText(
    dir,
    "input.csv",
    "id,model,user_input,response,reference\n" +
      "q1,m,What is the capital of France?,Paris.,Paris is the capital of France.\n" +
      "q2,m,What is 2 + 2?,4.,2 + 2 is 4.\n" +
      "q1,m,What is the capital of France?,Lyon.,Paris is the capital of France.\n",
  );

  it("compares the runs (as diff does), leaving out the unscored repeat and saying so; no 'Not computed'", async () => {
    const scored = path.join(dir, "scored.csv");
    const s = await run(["score", input, "--judge", "offline", "--out", scored]);
    assert.equal(s.code, 0, s.err);
    const d = await run(["diff", scored, scored, "--top", "0"]);
    assert.equal(d.code, 0, d.err);
    const page = path.join(dir, "report.html");
    const r = await run(["report", scored, "--previous", scored, "--out", page]);
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.err, /cannot compare/, "the report must compare what diff compares");
    const html = readFileSync(page, "utf8");
    const section = html.slice(html.indexOf("Change since the previous run</h2>"));
    assert.doesNotMatch(section.slice(0, 20000), /Not computed/, "the change section must not refuse the runs");
    assert.match(section, /Left out of the comparison: rows that repeat an earlier row's \(id, model\) and were not scored \(see input_error\), 1 of the previous run and 1 of this run\./);
  });
});

describe("--where and Unicode: a value typed composed matches the same text written decomposed", () => {
  const dir = tempDir();
  const decomposed = "Franc\u0327ais"; // c + combining cedilla, as some tools write it
  const scoredText = (scores: readonly number[]) =>
    "id,model,lang,user_input,response,reference,answer_correctness\n" +
    `q1,m,${decomposed},Q1?,A1,R1,${scores[0]!}\nq2,m,en,Q2?,A2,R2,${scores[1]!}\nq3,m,${decomposed},Q3?,A3,R3,${scores[2]!}\n`;
  const before = writeText(dir, "before.csv", scoredText([0.5, 0.5, 0.5]));
  const after = writeText(dir, "after.csv", scoredText([0.75, 0.5, 0.75]));
  const input = writeText(dir, "input.csv", `id,model,lang,user_input,response,reference\nq1,m,${decomposed},Capital of France?,Paris.,Paris.\nq2,m,en,2 + 2?,4.,4.\n`);

  it("summarize, diff and score keep the rows whose lang is Français (typed composed)", async () => {
    const where = ["--where", "lang=Fran\u00e7ais"];
    const s = await run(["summarize", before, ...where, "--json"]);
    assert.equal(s.code, 0, s.err);
    assert.match(s.out, /"n": 2\b/, s.out);
    const d = await run(["diff", before, after, ...where, "--json"]);
    assert.equal(d.code, 0, d.err);
    const all = (JSON.parse(d.out) as { summary: { n_paired: number; change: number }[] }).summary.at(-1)!;
    assert.deepEqual([all.n_paired, all.change], [2, 0.25]);
    const out = path.join(dir, "scored.csv");
    const sc = await run(["score", input, "--judge", "offline", "--out", out, ...where]);
    assert.equal(sc.code, 0, sc.err);
    assert.match(sc.out, /\(1 row: those with lang=Français, of 2\)/);
  });
});

/** A page's text as a reader sees it: no tags, entities decoded. */
function plain(html: string): string {
  const entities: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
  return html.replace(/<[^>]+>/g, "").replace(/&(amp|lt|gt|quot|#39);/g, (e) => entities[e]!);
}

describe("the report's headline on the change since a run scored differently", () => {
  it("says the runs were scored differently, naming the judge's change, beside the change it reports", () => {
    const scoredBy = (judge: string, shift: number) =>
      Array.from({ length: 8 }, (_, i) => ({
        id: `q${i}`,
        model: "m",
        answer_correctness: Math.min(1, 0.1 * i + shift),
        answer_correctness_error: "",
        answer_correctness_judge: judge,
      }));
    const html = buildReport(scoredBy("gpt-4o", 0.2), { previous: scoredBy("offline (approximate)", 0), generatedAt: null });
    const text = plain(html);
    assert.match(
      text,
      /Since the previous run[^\n]*? The runs were scored differently \(judge offline \(approximate\) → gpt-4o\): part of the change may be the scoring's, not the answers'\./,
    );
    const alike = plain(buildReport(scoredBy("gpt-4o", 0.2), { previous: scoredBy("gpt-4o", 0), generatedAt: null }));
    assert.doesNotMatch(alike, /scored differently/, "runs scored alike get no such words");
  });

  it("says how many of the answers that moved were scored against a reference edited between the runs", () => {
    const runOf = (edited: boolean) =>
      Array.from({ length: 8 }, (_, i) => ({
        id: `q${i}`,
        model: "m",
        reference: edited && i < 2 ? `an edited reference ${i}` : `reference ${i}`,
        answer_correctness: edited && i < 3 ? 0.9 : 0.1 * i,
        answer_correctness_error: "",
      }));
    const text = plain(buildReport(runOf(true), { previous: runOf(false), generatedAt: null }));
    assert.match(text, /Since the previous run[^\n]*? 2 of the 3 answers that moved were scored against a reference edited since the previous run: part of their change is the reference's\./);
  });
});
