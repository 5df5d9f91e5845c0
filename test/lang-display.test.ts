/**
 * Terminal tables with text of many scripts: a cell is measured and cut by
 * what the terminal shows (grapheme clusters), so a column lines up after a
 * Hindi word or an emoji sequence, and a cut never parts a letter from its
 * marks nor an emoji from its skin tone.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatTable } from "../src/display/text-table";
import { cutMiddleToWidth, cutToWidth, displayWidth } from "../src/display/width";

describe("terminal widths of text in other scripts", () => {
  it("counts Devanagari's and Arabic's marks as no column, and an emoji sequence as one wide character", () => {
    assert.equal(displayWidth("नमस्ते"), 4, "न म स ् त े: the virama and the vowel sign take no column");
    assert.equal(displayWidth("مَرْحَبًا"), 5, "Arabic vowel marks take no column");
    assert.equal(displayWidth("👨‍👩‍👧"), 2, "a family emoji (ZWJ sequence)");
    assert.equal(displayWidth("👍🏽"), 2, "an emoji with a skin tone");
    assert.equal(displayWidth("🇯🇵"), 2, "a flag");
    assert.equal(displayWidth("中国的首都"), 10);
    assert.equal(displayWidth("Zu\u0308rich"), 6);
  });

  it("cuts a cell between grapheme clusters only", () => {
    assert.equal(cutToWidth("👍🏽👍🏽👍🏽", 4), "👍🏽…");
    assert.equal(cutToWidth("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", 4), "👨‍👩‍👧…");
    assert.equal(cutToWidth("क्षत्रिय राजा", 3), "क्ष…");
  });

  it("lines up the column after a cell of Hindi, emoji or Chinese", () => {
    const rows = [
      { answer: "नमस्ते दुनिया", score: 1 },
      { answer: "👍🏽 great", score: 2 },
      { answer: "中国的首都是北京", score: 3 },
      { answer: "plain", score: 4 },
    ];
    const lines = formatTable(rows).split("\n");
    // Each data line's score sits at the same terminal column: the header's.
    const column = (line: string) => displayWidth(line.slice(0, line.search(/\d\s*$/u)));
    const header = lines[0]!;
    const at = displayWidth(header.slice(0, header.indexOf("score")));
    assert.deepEqual(lines.slice(2).map(column), rows.map(() => at + "score".length - 1), lines.join("\n"));
    // The widest answer is the Chinese one (16 columns): the Hindi one (10 columns, 13 code points) gets 6 spaces, the emoji one (8) 8.
    assert.equal(lines[2], `नमस्ते दुनिया${" ".repeat(6 + 2)}    1`);
    assert.equal(lines[3], `👍🏽 great${" ".repeat(8 + 2)}    2`);
  });
});

describe("cuts and widths of long or joined text", () => {
  it("a middle cut keeps an emoji sequence whole at the end, and a cut or width of long text reads it in pieces", { timeout: 60_000 }, () => {
    assert.equal(cutMiddleToWidth("model-aaaaaaaa-👨‍👩‍👧", 10), "mode…aa-👨‍👩‍👧");
    assert.equal(cutMiddleToWidth("model-aaaaaaaa-👍🏽", 10), "mode…aa-👍🏽");
    // 340,000 characters: segmented whole, this did not end in ten minutes.
    const long = "한".repeat(340_000);
    assert.equal(displayWidth(long), 680_000);
    assert.equal(cutToWidth(long, 9), "한한한한…");
    // Pieces never part a cluster: joined emoji, marks and flags across every piece boundary measure as whole.
    for (const unit of ["👨‍👩‍👧", "e\u0301", "🇯🇵", "👍🏽"]) {
      const text = `${"x".repeat(255)}${unit.repeat(300)}`;
      assert.equal(displayWidth(text), 255 + 300 * displayWidth(unit), unit);
    }
  });
});
