/**
 * The box plot writes "n = …" right of each whisker; when a model's best
 * score is the axis's end (0/1 scores, or a perfect answer) that label runs
 * past the plot, and it was drawn over the legend's first entry. The legend
 * now keeps clear of the widest label.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { scoreBox } from "../src/index";

interface Layer {
  mark?: { type?: string; dx?: number };
  encoding?: { color?: { legend?: { offset?: number } } };
  layer?: Layer[];
}

function layers(spec: Layer): Layer[] {
  return [spec, ...(spec.layer ?? []).flatMap(layers)];
}

describe("scoreBox's legend and its n labels", () => {
  it("puts the legend beyond the widest 'n = …' label at the plot's right end", () => {
    const rows: Record<string, unknown>[] = [];
    for (let q = 0; q < 1200; q++) for (const model of ["atlas", "swift"]) rows.push({ id: `q${q}`, model, answer_correctness: (q + (model === "atlas" ? 1 : 0)) % 2 });
    const all = layers(scoreBox(rows, { judgeLabel: false }) as unknown as Layer);
    const label = all.find((l) => l.mark?.type === "text");
    assert.ok(label, "the n labels are drawn");
    const offsets = all.map((l) => l.encoding?.color?.legend?.offset).filter((o): o is number => typeof o === "number");
    assert.ok(offsets.length > 0, "the legend has an offset");
    // "n = 1,200" at 10 px (DejaVu Sans: 6.4 px a character at most) after the label's gap.
    const needed = (label.mark?.dx ?? 0) + "n = 1,200".length * 6.4;
    for (const o of offsets) assert.ok(o >= needed, `the legend starts ${o} px right of the plot, inside the ${needed.toFixed(0)} px the label takes`);
  });
});
