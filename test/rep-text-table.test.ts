/**
 * Terminal tables with two long model names that differ only at their end
 * ("…-preview-x", "…-preview-y"): `evalframe summarize` and `compare` print
 * them apart, where cutting each name's end printed the same text twice and
 * a reader could not tell which row (or which verdict) was whose.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatTable } from "../src/index";
import { cutMiddleToWidth, displayWidth } from "../src/display/width";
import { formatCsv } from "../src/dataset/export";
import { runCliCaptured } from "./support/cli";
import { tempDir, writeText } from "./support/files";

const X = "openai/gpt-4o-mini-2024-07-18-with-a-very-long-suffix-preview-x";
const Y = "openai/gpt-4o-mini-2024-07-18-with-a-very-long-suffix-preview-y";

/** 8 questions answered by both models, X better. */
function scoredCsv(): string {
  const rows: Record<string, unknown>[] = [];
  for (let q = 0; q < 8; q++) {
    for (const [model, base] of [[X, 0.8], [Y, 0.3]] as const) {
      rows.push({ id: `q${q}`, model, user_input: `question ${q}`, response: "an answer", reference: "the reference", answer_correctness: base + (q % 4) / 40 });
    }
  }
  return formatCsv(rows);
}

/** The first cell of each data line (the model column, left-aligned and padded). */
function firstCells(text: string): string[] {
  return text.split("\n").slice(2).filter((l) => l.trim() !== "").map((l) => l.split(/\s{2,}/)[0]!);
}

describe("terminal tables with long names that share their start", () => {
  it("formatTable cuts such a column in the middle, within the width, and other columns at their end", () => {
    const text = formatTable([{ model: X, note: `${"a".repeat(60)} end one` }, { model: Y, note: `${"a".repeat(60)} end two` }, { model: "short", note: "x" }], { maxWidth: 30 });
    const models = firstCells(text);
    assert.equal(new Set(models).size, 3, `three different models shown: ${JSON.stringify(models)}`);
    assert.ok(models[0]!.endsWith("preview-x") && models[1]!.endsWith("preview-y"), `the ends are kept: ${JSON.stringify(models)}`);
    assert.ok(models.every((m) => displayWidth(m) <= 30), "within the width");
    assert.equal(models[2], "short");
    // The notes differ at their end too, so they are cut in the middle as well; a column without a clash keeps its start.
    const single = formatTable([{ question: `${"b".repeat(60)} tail` }], { maxWidth: 20 });
    assert.equal(single.split("\n")[2], `${"b".repeat(19)}…`);
  });

  it("cutMiddleToWidth keeps wide characters whole", () => {
    const cut = cutMiddleToWidth("통합모델-대형-2024-버전-가", 12);
    assert.ok(displayWidth(cut) <= 12, cut);
    assert.match(cut, /^통합.*….*가$/u);
  });

  it("evalframe summarize and compare print the two models apart", async () => {
    const dir = tempDir();
    const file = writeText(dir, "scored.csv", scoredCsv());
    const summary = await runCliCaptured(["summarize", file, "--by", "model"]);
    assert.equal(summary.code, 0, summary.err);
    const models = firstCells(summary.out.split("\n\n")[0]!);
    assert.equal(models.length, 2);
    assert.notEqual(models[0], models[1], `summarize shows both models as ${JSON.stringify(models)}`);
    const compare = await runCliCaptured(["compare", file]);
    assert.equal(compare.code, 0, compare.err);
    const line = compare.out.split("\n")[2]!;
    const [a, b] = line.split(/\s{2,}/);
    assert.notEqual(a, b, `compare shows model_a and model_b as the same text: ${line}`);
  });
});
