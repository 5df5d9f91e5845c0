/**
 * A scored table where some rows answer an (id, model) an earlier row
 * answered (two scored files put together): the report's summary counts them
 * in n_error, as `summarize` does, and now says why under the table, naming
 * the first one, where n_error alone read as answers that failed to score.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildReport } from "../src/index";

function rows(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let q = 0; q < 6; q++) {
    for (const [model, base] of [["atlas", 0.7], ["swift", 0.4]] as const) {
      out.push({ id: `q${q}`, model, user_input: `question ${q}`, response: "an answer", reference: "the reference", answer_correctness: base + q / 50 });
    }
  }
  // The first two answers again, scored.
  return [...out, { ...out[0]! }, { ...out[1]! }];
}

describe("report of a table with repeated (id, model) rows", () => {
  it("says under the summary that n_error counts the repeats, naming the first", () => {
    const html = buildReport(rows(), { generatedAt: null });
    const summary = /<section id="summary">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    assert.match(summary, /<td class="num">1<\/td>/, "n_error 1 for each model");
    assert.match(summary, /2 rows answer an \(id, model\) that an earlier row answered, first row 12 \(id &quot;q0&quot;, model &quot;atlas&quot;, first answered at row 0\): the summary counts them in n_error, not in the mean/);
  });

  it("the headline says the repeats are repeats, not answers that failed to score", () => {
    const html = buildReport(rows(), { generatedAt: null });
    const head = /<section id="headline"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    assert.doesNotMatch(head, /failed to score/, head);
    assert.match(head, /2 rows repeat an earlier row&#39;s id and model: only the first is counted\./, head);
    // A row that failed beside the repeats is still counted as failed, out of the answers there are (12, not 14).
    const failed = rows();
    failed[3] = { ...failed[3]!, answer_correctness: Number.NaN, answer_correctness_error: "rate limited" };
    const withFailure = /<section id="headline"[^>]*>([\s\S]*?)<\/section>/.exec(buildReport(failed, { generatedAt: null }))?.[1] ?? "";
    assert.match(withFailure, /1 of 12 answers failed to score \(1 of swift&#39;s\)/, withFailure);
  });

  it("says nothing of repeats when there are none", () => {
    const html = buildReport(rows().slice(0, 12), { generatedAt: null });
    assert.doesNotMatch(html, /an earlier row answered/);
  });
});
