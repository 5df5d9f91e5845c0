/**
 * The headline as a reader checks it: the interval printed beside a verdict
 * must agree with it. A "real difference" must not sit beside an interval
 * that includes 0, and "it may be chance" must not sit beside one that
 * excludes 0, unless the same clause says why (Holm's correction, ties).
 * Checked on skewed data built by hand, on hundreds of random tables run
 * through compareModels and headline, on 0/1 scores, and in the report.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareModels } from "../src/analysis/compare";
import { compareRuns } from "../src/analysis/compare-runs";
import { headline } from "../src/analysis/headline";
import { summarize } from "../src/analysis/summarize";
import { buildReport } from "../src/report/html";
import { mulberry32 } from "../src/stats";

type Row = { id: string; model: string; user_input: string; response: string; reference: string; answer_correctness: number; answer_correctness_error: string };

/** A scored table of `n` questions: each model's score from `score(model index, question, random)`. */
function table(models: readonly string[], n: number, score: (m: number, q: number, rng: () => number) => number, seed = 1): Row[] {
  const rng = mulberry32(seed);
  const rows: Row[] = [];
  for (let q = 0; q < n; q++) {
    for (let m = 0; m < models.length; m++) {
      rows.push({ id: `q${q}`, model: models[m]!, user_input: `question ${q}`, response: `answer ${m}`, reference: `reference ${q}`, answer_correctness: score(m, q, rng), answer_correctness_error: "" });
    }
  }
  return rows;
}

/** The headline of a table as the report and the CLI make it (with the scored table). */
function sentencesOf(rows: Row[]): string[] {
  return headline(summarize(rows, { by: "model" }), compareModels(rows), { scored: rows, judge: "" });
}

/** An interval as the headline prints it: "0.12–0.30", "−0.03 to 0.13", or percentages "55%–100%". */
const INTERVAL = /95% CI (−?\d+\.\d+|\d+%)(?:–| to )(−?\d+\.\d+|\d+%)/g;
const number = (s: string) => (s.endsWith("%") ? Number(s.slice(0, -1)) / 100 : Number(s.replace("−", "-")));

/**
 * Each clause about a pair of neighbours, with its verdict: the sentences end
 * with ": a real difference." or ": no detectable difference(s), …", and
 * their clauses are joined by ", and ".
 */
function clauses(sentences: readonly string[]): { text: string; real: boolean }[] {
  const out: { text: string; real: boolean }[] = [];
  for (const s of sentences) {
    const real = /: (a )?real differences?\.$/.test(s);
    const chance = /: no detectable differences?, (it|they) may be chance\.$/.test(s);
    if (!real && !chance) continue;
    for (const text of s.replace(/: [^:]*\.$/, "").split(/\), and (?=\S+ (?:scores|and) )/)) out.push({ text, real });
  }
  return out;
}

/** The interval nearest the test's p-value in a clause: the one the verdict is read against. */
function testInterval(clause: string): { low: number; high: number; share: boolean } | undefined {
  const all = [...clause.matchAll(INTERVAL)];
  const last = all.at(-1);
  if (last === undefined) return undefined;
  return { low: number(last[1]!), high: number(last[2]!), share: last[1]!.endsWith("%") };
}

/** True when the clause's test interval agrees with its verdict, or the clause says why it does not. */
function agrees(c: { text: string; real: boolean }): boolean {
  const ci = testInterval(c.text);
  if (ci === undefined) return true;
  const nothing = ci.share ? 0.5 : 0;
  const excludes = ci.low > nothing || ci.high < nothing;
  if (excludes === c.real) return true;
  return /for this pair alone|approximate where differences tie/.test(c.text);
}

describe("the headline's verdict and the interval beside it agree", () => {
  it("a real difference in the typical question, with the mean's interval across 0, prints the test's own interval beside the verdict", () => {
    // a is 0.05 above b on 27 of 30 questions and 0.4 below on 3: the rank test finds a better, the mean barely moves.
    const rng = mulberry32(5);
    const base = Array.from({ length: 30 }, () => 0.45 + 0.4 * rng());
    const rows = table(["a", "b"], 30, (m, q) => (m === 1 ? base[q]! : q % 10 === 0 ? base[q]! - 0.4 - 0.001 * q : base[q]! + 0.05 + 0.0001 * q));
    const comparison = compareModels(rows);
    const verdict = String(comparison["verdict"].values[0]);
    assert.equal(verdict, "a better than b", "the rank test names a");
    const low = Number(comparison["ci_low"].values[0]);
    assert.ok(low < 0, `the mean's bootstrap interval includes 0 (${low})`);
    const sentences = sentencesOf(rows);
    const sentence = sentences.find((s) => s.endsWith(": a real difference."));
    assert.ok(sentence, sentences.join("\n"));
    assert.match(sentence, /^a scores 0\.0\d higher than b on average \(95% CI −0\.\d\d to 0\.\d\d\) and 0\.05 higher on the typical question \(Hodges–Lehmann, 95% CI 0\.\d\d–0\.\d\d; Wilcoxon p_holm [<=] [\d.]+; the verdict follows the test of the typical question; the mean's interval includes 0\): a real difference\.$/);
    assert.ok(clauses(sentences).every(agrees), sentences.join("\n"));
  });

  it("on 300 random tables of 2 to 5 models (shifts, skews, ties, Holm's correction), no clause contradicts its interval unexplained", () => {
    const rng = mulberry32(11);
    let checked = 0;
    let real = 0;
    let explained = 0;
    for (let t = 0; t < 300; t++) {
      const k = 2 + Math.floor(rng() * 4);
      const n = 8 + Math.floor(rng() * 40);
      const shifts = Array.from({ length: k }, () => rng() * 0.25);
      const skew = rng() < 0.4;
      const grid = rng() < 0.3 ? 8 : 0; // scores on a grid of eighths: tied differences
      const rows = table(
        Array.from({ length: k }, (_, m) => `m${m}`),
        n,
        (m, q, r) => {
          let x = 0.3 + shifts[m]! + 0.35 * (r() - 0.5);
          if (skew && m % 2 === 0) x = q % 6 === 0 ? x - 0.45 : x + 0.06;
          x = Math.min(1, Math.max(0, x));
          return grid > 0 ? Math.round(x * grid) / grid : x;
        },
        1000 + t,
      );
      for (const c of clauses(sentencesOf(rows))) {
        checked++;
        if (c.real) real++;
        if (/for this pair alone|approximate where/.test(c.text)) explained++;
        assert.ok(agrees(c), `table ${t}: ${c.real ? "real" : "chance"} beside its interval: ${c.text}`);
      }
    }
    assert.ok(checked > 400 && real > 50 && explained > 0, `checked ${checked} clauses, ${real} real, ${explained} explained`);
  });

  it("0/1 scores: the sign test's verdict beside the mean's interval, which says the same (the share won is in the comparison's table)", () => {
    // a passes 14 of 20 questions, b 6: a wins 9 of the 10 questions where they differ (90%, 95% CI 55%–100%).
    const rows = table(["a", "b"], 20, (m, q) => (m === 0 ? (q < 14 ? 1 : 0) : q < 5 || q === 15 ? 1 : 0));
    const sentences = sentencesOf(rows);
    assert.ok(
      sentences.some((s) => /^a scores 0\.40 higher than b \(95% CI 0\.\d\d–0\.\d\d; sign test p_holm = 0\.021\): a real difference\.$/.test(s)),
      sentences.join("\n"),
    );
  });

  it("given only the tables (no scored rows), a verdict that its printed interval contradicts says why in the same clause", () => {
    const summary = ["a", "b", "c"].map((model, k) => ({ model, metric: "answer_correctness", n: 30, n_valid: 30, n_error: 0, mean: 0.7 - 0.1 * k, ci_low: 0.65 - 0.1 * k, ci_high: 0.75 - 0.1 * k }));
    const row = (a: string, b: string, low: number, high: number, p: number, pHolm: number, verdict: string) =>
      ({ model_a: a, model_b: b, n_pairs: 30, mean_diff: 0.1, ci_low: low, ci_high: high, test: "wilcoxon signed-rank (exact)", p_value: p, p_holm: pHolm, verdict, paired_by: "id", unpaired_because: "" });
    const sentences = headline(
      summary,
      [row("a", "b", 0.02, 0.18, 0.02, 0.06, "no detectable difference"), row("b", "c", -0.01, 0.2, 0.004, 0.012, "b better than c"), row("a", "c", 0.1, 0.3, 0.001, 0.003, "a better than c")],
      { judge: "" },
    );
    assert.ok(sentences.includes("b scores 0.10 higher than c (95% CI −0.01 to 0.20; Wilcoxon p_holm = 0.012; the verdict follows the rank test (which model wins the typical question); the mean's interval includes 0): a real difference."), sentences.join("\n"));
    assert.ok(sentences.includes("a scores 0.10 higher than b (95% CI 0.02–0.18; Wilcoxon p_holm = 0.060; the interval is for this pair alone, while p_holm is corrected for the 3 pairs compared): no detectable difference, it may be chance."), sentences.join("\n"));
  });

  it("given only the tables, the reason names the test the verdict follows: the sign test and the permutation test are not rank tests", () => {
    const summary = ["a", "b"].map((model, k) => ({ model, metric: "answer_correctness", n: 20, n_valid: 20, n_error: 0, mean: 0.6 - 0.1 * k, ci_low: 0.5 - 0.1 * k, ci_high: 0.7 - 0.1 * k }));
    const row = (test: string, low: number, p: number, verdict: string) =>
      ({ model_a: "a", model_b: "b", n_pairs: 20, mean_diff: 0.1, ci_low: low, ci_high: 0.2, test, p_value: p, p_holm: p, verdict, paired_by: test.startsWith("permutation") ? "" : "id", unpaired_because: test.startsWith("permutation") ? "no id was answered validly by both models" : "" });
    const sign = headline(summary, [row("sign test (exact)", -0.02, 0.02, "a better than b")], { judge: "" })[1]!;
    assert.match(sign, /the verdict follows the sign test \(which model wins more of the questions where they differ\); the mean's interval includes 0\): a real difference\.$/);
    assert.doesNotMatch(sign, /rank test/);
    const permutation = headline(summary, [row("permutation test (exact, unpaired)", 0.01, 0.08, "no detectable difference")], { judge: "" })[1]!;
    assert.match(permutation, /the verdict follows the exact permutation test \(its p-value and the bootstrap interval can disagree near the 5% line\), which finds no difference; the mean's interval excludes 0\): no detectable difference, it may be chance\.$/);
  });

  it("the typical question against the mean (inconclusive): the model the test favours is given with the test's own estimate, in a sentence", () => {
    // a is 0.05 above b on six questions of seven and 0.6 below on the seventh.
    const rng = mulberry32(3);
    const base = Array.from({ length: 40 }, () => 0.5 + 0.3 * rng());
    const step = Array.from({ length: 40 }, (_, q) => (q % 7 === 0 ? -0.6 : 0.05 + 0.01 * rng()));
    const rows = table(["a", "b"], 40, (m, q) => (m === 1 ? base[q]! : base[q]! + step[q]!));
    const sentences = sentencesOf(rows);
    assert.ok(
      sentences.some((s) => /^b scores 0\.0\d higher than a on average \(95% CI −0\.\d\d to 0\.\d\d\), but a scores 0\.05 higher on the typical question \(Hodges–Lehmann, 95% CI 0\.0\d–0\.0\d; Wilcoxon p_holm = 0\.0\d+\): inconclusive, the typical answer and the mean disagree\.$/.test(s)),
      sentences.join("\n"),
    );
  });

  it("the report's headline carries the test's own interval where it tells the verdict apart from the mean, and is short where both say the same", () => {
    const agreeing = table(["a", "b"], 30, (m, q, rng) => Math.min(1, 0.4 + 0.2 * m + 0.3 * rng()));
    const headOf = (html: string) => /<section id="headline"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    const short = headOf(buildReport(agreeing, { generatedAt: null }));
    assert.match(short, /b scores 0\.\d\d higher than a \(95% CI 0\.\d\d–0\.\d\d; Wilcoxon p_holm &lt; 0\.001\): a real difference\./);
    assert.doesNotMatch(short, /typical question/);
    // Most answers of a a little better, one in ten much worse: the mean's interval holds 0, the rank test's excludes it.
    const rng = mulberry32(5);
    const base = Array.from({ length: 30 }, () => 0.45 + 0.4 * rng());
    const disagreeing = table(["a", "b"], 30, (m, q) => (m === 1 ? base[q]! : q % 10 === 0 ? base[q]! - 0.4 - 0.001 * q : base[q]! + 0.05 + 0.0001 * q));
    const long = headOf(buildReport(disagreeing, { generatedAt: null }));
    assert.match(long, /a scores 0\.\d\d higher than b on average \(95% CI −0\.\d\d to 0\.\d\d\) and 0\.0\d higher on the typical question \(Hodges–Lehmann, 95% CI [^;]+; Wilcoxon p_holm = 0\.\d+;[^)]*\): a real difference\./);
  });
});

describe("the report's comparison table shows the interval of the test its verdict follows", () => {
  it("a real difference whose mean's interval holds 0 has, in its row, the Hodges–Lehmann interval that excludes 0", () => {
    const rng = mulberry32(5);
    const base = Array.from({ length: 30 }, () => 0.45 + 0.4 * rng());
    const rows = table(["a", "b"], 30, (m, q) => (m === 1 ? base[q]! : q % 10 === 0 ? base[q]! - 0.4 - 0.001 * q : base[q]! + 0.05 + 0.0001 * q));
    const html = buildReport(rows, { generatedAt: null });
    const section = /<section id="comparison">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    const heads = [...section.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
    const column = heads.indexOf("typical question (95% CI)");
    assert.ok(column > 0, `columns: ${heads.join(", ")}`);
    const cells = [...(/<tbody><tr>([\s\S]*?)<\/tr>/.exec(section)?.[1] ?? "").matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));
    assert.match(cells[heads.indexOf("verdict")]!, /^a better than b$/);
    assert.match(cells[heads.indexOf("difference (95% CI)")]!, /\(−0\.\d\d to \+0\.\d\d\)/, "the mean's interval holds 0");
    assert.match(cells[column]!, /^\+0\.05 \(\+0\.0\d to \+0\.\d\d\)$/, "the test's interval excludes 0");
  });

  it("0/1 scores: the share of differing questions won, with its exact interval", () => {
    const rows = table(["a", "b"], 20, (m, q) => (m === 0 ? (q < 14 ? 1 : 0) : q < 5 || q === 15 ? 1 : 0));
    const html = buildReport(rows, { generatedAt: null });
    const section = /<section id="comparison">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    assert.match(section, /<th[^>]*>a wins \(95% CI\)<\/th>/);
    assert.match(section, /title="a wins 9 of the 10 questions where the two differ">90% <span class="ci">\(55%–100%\)<\/span>/);
  });
});

describe("an interval of no width is no interval", () => {
  it("a model whose every score is 0 and two models that tie on every question: no '0.00–0.00' as if it were certain, in the headline or the report", () => {
    const rows = table(["good", "zero", "twin"], 15, (m, q, rng) => (m === 1 ? 0 : m === 2 ? -1 : 0.3 + 0.4 * rng())).map((r, i, all) =>
      r.model === "twin" ? { ...r, answer_correctness: all[i - 2]!.answer_correctness } : r,
    );
    const sentences = sentencesOf(rows);
    const text = sentences.join("\n");
    assert.doesNotMatch(text, /0\.00–0\.00|0\.00 to 0\.00/, text);
    assert.match(sentences[0]!, /zero 0\.00 \(n\/a: no variation to resample\)/);
    assert.match(text, /good and twin score the same \(difference 0\.00, 95% CI n\/a: no variation to resample; Wilcoxon p_holm = 1\.00\)/);
    const html = buildReport(rows, { generatedAt: null });
    const summary = /<section id="summary">([\s\S]*?)<details/.exec(html)?.[1] ?? "";
    assert.match(summary, /<td>zero<\/td><td class="num">15<\/td><td class="num">0\.00 <span class="ci" title="every valid score is the same[^"]*">\(CI n\/a\)<\/span><\/td>/);
    const comparison = /<section id="comparison">([\s\S]*?)<details/.exec(html)?.[1] ?? "";
    assert.match(comparison, /<td>good − twin<\/td><td class="num">15<\/td><td class="num">0\.00 <span class="ci" title="every one of the 15 pairs differs by the same amount[^"]*">\(CI n\/a\)<\/span><\/td>/);
  });
});

describe("the first screen of the report", () => {
  it("fifty models: the line under the title names ten and counts the rest, so the headline and contents stay on the first screen", () => {
    const names = Array.from({ length: 50 }, (_, m) => `model-${String(m).padStart(2, "0")}`);
    const rows = table(names, 6, (m, q, rng) => Math.min(1, 0.2 + 0.012 * m + 0.3 * rng()));
    const html = buildReport(rows, { generatedAt: null });
    const meta = /<p class="meta">([^<]*)<\/p>/.exec(html)?.[1] ?? "";
    assert.equal(meta, "300 rows · 50 models: model-00, model-01, model-02, model-03, model-04, model-05, model-06, model-07, model-08, model-09 and 40 more (the summary lists them all) · metrics: answer_correctness");
    const three = /<p class="meta">([^<]*)<\/p>/.exec(buildReport(table(["a", "b", "c"], 4, (m, q, rng) => 0.2 * m + 0.1 * rng()), { generatedAt: null }))?.[1] ?? "";
    assert.match(three, /3 models: a, b, c ·/);
  });
});

describe("one question: the report's tables say no more than the headline", () => {
  it("no interval is implied for one score, and a pair from one question has no p-value and no verdict but 'no conclusion'", () => {
    const rows = table(["a", "b", "c"], 1, (m) => 0.2 + 0.3 * m);
    const html = buildReport(rows, { generatedAt: null });
    const head = /<section id="headline"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    assert.match(head, /No conclusion about c against b/);
    const summary = /<section id="summary">([\s\S]*?)<details/.exec(html)?.[1] ?? "";
    assert.match(summary, /<td>a<\/td><td class="num">1<\/td><td class="num">0\.20 <span class="ci" title="1 valid score: an interval needs at least 2">\(CI n\/a\)<\/span><\/td>/);
    const comparison = /<section id="comparison">([\s\S]*?)<details/.exec(html)?.[1] ?? "";
    assert.doesNotMatch(comparison, /no detectable difference|1\.000/, "one pair tests nothing");
    assert.match(comparison, /<td>a − b<\/td>.*?<td class="num" title="too few pairs for a test">–<\/td><td>no conclusion: 1 pair: a difference needs at least 2<\/td>/);
  });
});

describe("the change since the previous run: its verdict beside its own interval", () => {
  it("most answers a little better and three much worse: the rank test's verdict, the mean's interval across 0, and the Hodges–Lehmann interval that agrees with the verdict", () => {
    const rng = mulberry32(9);
    const before = Array.from({ length: 30 }, (_, q) => ({ id: `q${q}`, model: "m", user_input: `question ${q}`, response: "old", answer_correctness: 0.45 + 0.4 * rng(), answer_correctness_error: "" }));
    const after = before.map((r, q) => ({ ...r, response: "new", answer_correctness: r.answer_correctness + (q % 10 === 0 ? -0.4 - 0.001 * q : 0.05 + 0.0001 * q) }));
    const runs = compareRuns(before, after);
    const verdict = String(runs.summary["verdict"].values[0]);
    assert.equal(verdict, "after better than before");
    assert.ok(Number(runs.summary["ci_low"].values[0]) < 0, "the mean's interval includes 0");
    const since = headline(summarize(after, { by: "model" }), undefined, { change: runs, judge: "" }).find((s) => s.startsWith("Since the previous run"))!;
    assert.match(since, /^Since the previous run \(mean answer_correctness\): m \+0\.0\d on average \(95% CI −0\.\d\d to 0\.\d\d\), \+0\.05 on the typical answer \(Hodges–Lehmann, 95% CI 0\.0\d–0\.0\d; Wilcoxon p_holm [<=] [\d.]+; the verdict follows the test; the mean's interval includes 0\); answers: 27 better, 3 worse/);
  });
});
