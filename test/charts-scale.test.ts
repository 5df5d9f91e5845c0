/**
 * Charts at the edges: many categories (long sort orders, many pairs of
 * models), labels with control characters, a `by` column that does not
 * exist, and long labels that Vega would cut to the same prefix.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { compileChart } from "../src/charts/index";
import { MAX_SORT_LIST } from "../src/charts/finish";
import { chartText, cutMiddle, fitLabels, pairLabels } from "../src/charts/text";
import {
  compareModels,
  factualVsSemantic,
  meanWithCI,
  pairedDifferences,
  questionHeatmap,
  relevanceRate,
  scoreBox,
  scoreHistogram,
  summarize,
  thresholdSweep,
  toPNG,
  toSVG,
  verdictBars,
  winTieLoss,
  type VegaLiteSpec,
} from "../src/index";
import { runCliCaptured } from "./support/cli";
import { tempDir, writeText } from "./support/files";

/** Scored rows: every model answers every question; the score varies with both. */
function scoredRows(models: readonly string[], questions: number): Record<string, unknown>[] {
  return models.flatMap((model, m) =>
    Array.from({ length: questions }, (_, q) => {
      const f = ((q * 7 + m * 13) % 11) / 10;
      return {
        id: `q${q}`,
        model,
        user_input: `Question ${q}?`,
        answer_correctness: Math.min(1, f),
        answer_correctness_factual: Math.min(1, f),
        answer_correctness_semantic: 0.5 + f / 3,
        answer_correctness_tp: q % 3,
        answer_correctness_fp: m % 2,
        answer_correctness_fn: 1,
        multimodal_relevance: q % 2,
      };
    }),
  );
}

/** Every layer, facet and the spec itself: each view of a spec. */
function views(spec: unknown): Record<string, unknown>[] {
  if (spec === null || typeof spec !== "object") return [];
  const node = spec as Record<string, unknown>;
  const out = [node];
  for (const key of ["layer", "spec"]) {
    const child = node[key];
    if (Array.isArray(child)) out.push(...child.flatMap(views));
    else if (child && typeof child === "object") out.push(...views(child));
  }
  return out;
}

/** Every `sort` of an encoding channel or facet in a spec. */
function sorts(spec: VegaLiteSpec): unknown[] {
  return views(spec).flatMap((v) => {
    const defs = [...Object.values((v["encoding"] as Record<string, unknown>) ?? {}), ...Object.values((v["facet"] as Record<string, unknown>) ?? {})];
    return defs.flatMap((d) => (d && typeof d === "object" && "sort" in d ? [(d as { sort: unknown }).sort] : []));
  });
}

/** The subtitle lines of a spec. */
function subtitle(spec: VegaLiteSpec): string[] {
  const title = spec["title"];
  if (typeof title !== "object" || title === null) return [];
  const sub = (title as { subtitle?: string | string[] }).subtitle;
  return sub === undefined ? [] : Array.isArray(sub) ? sub : [sub];
}

/** The text of every <text> element of an SVG, entities decoded. */
function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) =>
    m[1]!.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&"),
  );
}

/** Characters XML 1.0 does not allow, and control characters a label should not hold raw. */
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A small strict check that an SVG is well-formed XML: allowed characters only, tags balanced. */
function assertWellFormed(svg: string, name: string): void {
  const bad = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(svg);
  assert.equal(bad, null, `${name}: the SVG holds a character XML does not allow (U+${bad?.[0]!.charCodeAt(0).toString(16).padStart(4, "0")}) at ${bad?.index}`);
  const stack: string[] = [];
  for (const m of svg.replace(/<!--[\s\S]*?-->/g, "").matchAll(/<(\/?)([A-Za-z][\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g)) {
    if (m[1]) assert.equal(stack.pop(), m[2], `${name}: </${m[2]}> closes another element`);
    else if (!m[4]) stack.push(m[2]!);
  }
  assert.deepEqual(stack, [], `${name}: elements left open`);
  assert.ok(!/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(svg), `${name}: a bare & in the SVG`);
}

describe("charts with many categories", () => {
  const fifty = Array.from({ length: 50 }, (_, m) => `model-${String(m).padStart(2, "0")}`);
  const many = scoredRows(fifty, 6);

  it("renders win/tie/loss and paired differences of 50 models (1,225 pairs), each model against the best one", async () => {
    const wtl = winTieLoss(many);
    const paired = pairedDifferences(many);
    for (const [name, spec] of [["winTieLoss", wtl], ["pairedDifferences", paired]] as const) {
      assert.deepEqual((await compileChart(spec)).warnings, [], name);
      const svg = await toSVG(spec);
      assertWellFormed(svg, name);
      const line = subtitle(spec).find((l) => l.includes("1,225 pairs"));
      assert.ok(line !== undefined && /^50 models: each against model-\d\d \(highest mean answer_correctness\)/.test(line), `${name}: ${subtitle(spec).join(" | ")}`);
    }
    // 49 rows, each model against the same one (the second of each pair).
    const rows = new Set(views(wtl).flatMap((v) => ((v["data"] as { values?: Record<string, unknown>[] } | undefined)?.values ?? []).map((r) => r["row"])));
    assert.equal(rows.size, 49);
    const best = [...rows].map((r) => String(r).split(" vs ")[1]);
    assert.equal(new Set(best).size, 1);
    // A baseline, or pairs, still draw what they name.
    const against = winTieLoss(many, { baseline: "model-07" });
    assert.ok(!subtitle(against).some((l) => l.includes("pairs")));
    // A compareModels result of every pair is cut down the same way, each row turned to read "model vs best".
    const result = compareModels(many, { bootstrap: 20 });
    const fromResult = winTieLoss(result);
    const resultRows = new Set(views(fromResult).flatMap((v) => ((v["data"] as { values?: Record<string, unknown>[] } | undefined)?.values ?? []).map((r) => r["row"])));
    assert.equal(resultRows.size, 49);
    assert.ok(subtitle(fromResult).some((l) => l.includes("not all 1,225 pairs")), subtitle(fromResult).join(" | "));
    assert.ok((await toSVG(fromResult)).length > 0);
  });

  it("renders 1,225 pairs when they are asked for: a long order is carried as a number in the rows", async () => {
    const all = fifty.flatMap((a, i) => fifty.slice(i + 1).map((b): [string, string] => [a, b]));
    const spec = pairedDifferences(scoredRows(fifty, 2), { pairs: all });
    assert.ok(sorts(spec).every((s) => !Array.isArray(s) || s.length <= MAX_SORT_LIST), "no long sort list");
    assert.ok(sorts(spec).some((s) => JSON.stringify(s) === '{"field":"pair_order","op":"min"}'));
    assert.deepEqual((await compileChart(spec)).warnings, []);
    const svg = await toSVG(spec);
    assertWellFormed(svg, "pairedDifferences");
    // The strips keep their order: the first pair on top, the last at the bottom.
    const labels = svgTexts(svg).filter((t) => /^model-\d\d − model-\d\d$/.test(t));
    assert.equal(labels.length, 1225);
    assert.equal(labels[0], "model-00 − model-01");
    assert.equal(labels.at(-1), "model-48 − model-49");
  });

  it("renders a heatmap and the one-pair chart of 2,000 questions, and verdict bars of 150 models", async () => {
    const rows = scoredRows(["atlas-pro", "swift-mini"], 2000);
    const heat = questionHeatmap(rows);
    const one = pairedDifferences(rows);
    const verdicts = verdictBars(scoredRows(Array.from({ length: 150 }, (_, m) => `m${m}`), 2));
    for (const [name, spec] of [["questionHeatmap", heat], ["pairedDifferences", one], ["verdictBars", verdicts]] as const) {
      assert.ok(sorts(spec).every((s) => !Array.isArray(s) || s.length <= MAX_SORT_LIST), `${name}: a long sort list`);
      assert.deepEqual((await compileChart(spec)).warnings, [], name);
      const svg = await toSVG(spec);
      assertWellFormed(svg, name);
    }
    // Questions are still sorted by spread, largest first: the order number follows the row order given.
    const values = (heat["data"] as { values: Record<string, unknown>[] }).values;
    const first = values.find((v) => v["id_order"] === 0)!;
    assert.equal(first["spread"], Math.max(...values.map((v) => v["spread"] as number)));
    // The one-pair chart of 2,000 questions: sorted by the difference, largest first.
    const dots = (one["data"] as { values: Record<string, unknown>[] }).values;
    const byOrder = [...dots].sort((p, q) => (p["id_order"] as number) - (q["id_order"] as number));
    for (let i = 1; i < byOrder.length; i++) assert.ok((byOrder[i - 1]!["diff"] as number) >= (byOrder[i]!["diff"] as number));
  });

  it("keeps a short order as a readable list", () => {
    const spec = scoreBox(scoredRows(["a", "b", "c"], 3));
    assert.ok(sorts(spec).some((s) => JSON.stringify(s) === '["a","b","c"]'));
    assert.ok(!JSON.stringify(spec).includes("_order"));
  });
});

describe("control characters in labels", () => {
  const ansi = "\x1b[31mansi-model\x1b[0m";
  const rows = [...scoredRows([ansi, "plain\tmodel"], 4), ...scoredRows(["lone\ud800surrogate"], 4)];

  it("writes them as visible escapes in every text of the spec, and the SVG is well-formed XML that renders to PNG", async () => {
    const specs: Record<string, VegaLiteSpec> = {
      scoreBox: scoreBox(rows),
      scoreHistogram: scoreHistogram(rows),
      meanWithCI: meanWithCI(rows, { seed: 1 }),
      meanOfSummary: meanWithCI(summarize(rows, { by: "model" }), { judgeLabel: "judge\x07bell" }),
      relevanceRate: relevanceRate(rows),
      factualVsSemantic: factualVsSemantic(rows),
      questionHeatmap: questionHeatmap(rows),
      pairedDifferences: pairedDifferences(rows),
      onePair: pairedDifferences(rows, { a: ansi, b: "plain\tmodel" }),
      winTieLoss: winTieLoss(rows),
      verdictBars: verdictBars(rows),
      thresholdSweep: thresholdSweep(rows),
      // A column name with a control character, in the titles.
      metricTitle: scoreBox(rows.map((r) => ({ ...r, "score\x1b": r["answer_correctness"] })), { metric: "score\x1b" }),
    };
    for (const [name, spec] of Object.entries(specs)) {
      const strings: string[] = [];
      const walk = (node: unknown): void => {
        if (typeof node === "string") strings.push(node);
        else if (Array.isArray(node)) node.forEach(walk);
        else if (node && typeof node === "object") Object.values(node).forEach(walk);
      };
      walk(spec);
      const raw = strings.find((s) => RAW_CONTROL.test(s));
      assert.equal(raw, undefined, `${name}: ${JSON.stringify(raw)}`);
      const svg = await toSVG(spec);
      assertWellFormed(svg, name);
      const png = await toPNG(spec, { scale: 1 });
      assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], name);
    }
    const svg = await toSVG(specs["scoreBox"]!);
    assert.ok(svg.includes("\\x1b[31mansi-model\\x1b[0m"), "the ANSI name is shown with its escapes visible");
    assert.ok(svg.includes("plain model"), "a tab reads as a space");
    assert.ok(svgTexts(await toSVG(specs["metricTitle"]!)).some((t) => t.includes("score\\x1b")));
  });

  it("keeps the SVG of a hand-made spec well-formed too", async () => {
    const spec: VegaLiteSpec = { $schema: "https://vega.github.io/schema/vega-lite/v5.json", title: "raw\x1btitle", data: { values: [{ a: "x\x00y", b: 1 }] }, mark: "bar", encoding: { x: { field: "a", type: "nominal" }, y: { field: "b", type: "quantitative" } } };
    const svg = await toSVG(spec);
    assertWellFormed(svg, "hand-made");
    assert.ok(svg.includes("raw\\x1btitle"));
    assert.ok((await toPNG(spec, { scale: 1 })).length > 0);
  });

  it("chartText: what each character becomes", () => {
    assert.equal(chartText("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
    assert.equal(chartText("a\tb\nc\rd"), "a b c d");
    assert.equal(chartText("del\x7f c1\x85 nul\x00"), "del\\x7f c1\\x85 nul\\x00");
    assert.equal(chartText("lone\ud800 \udc00 pair\ud83d\ude00 \ufffe"), "lone\ufffd \ufffd pair\ud83d\ude00 \ufffd");
    assert.equal(chartText("gpt-4o · ünïcode ✓"), "gpt-4o · ünïcode ✓");
  });
});

describe("a by column that does not exist", () => {
  const rows = scoredRows(["atlas-pro", "swift-mini"], 4);
  const builders: [string, () => unknown][] = [
    ["scoreHistogram", () => scoreHistogram(rows, { by: "modle" })],
    ["scoreBox", () => scoreBox(rows, { by: "modle" })],
    ["meanWithCI", () => meanWithCI(rows, { by: "modle" })],
    ["meanWithCI of a summary", () => meanWithCI(summarize(rows, { by: "model" }), { by: "modle" })],
    ["relevanceRate", () => relevanceRate(rows, { by: "modle" })],
    ["factualVsSemantic", () => factualVsSemantic(rows, { by: "modle" })],
    ["questionHeatmap", () => questionHeatmap(rows, { by: "modle" })],
    ["pairedDifferences", () => pairedDifferences(rows, { by: "modle" })],
    ["verdictBars", () => verdictBars(rows, { by: "modle" })],
    ["thresholdSweep", () => thresholdSweep(rows, { by: "modle" })],
    ["winTieLoss", () => winTieLoss(rows, { by: "modle" })],
  ];

  it("is an error naming the columns, in every builder that takes by", () => {
    for (const [name, build] of builders) {
      assert.throws(build, /: no by column "modle" to group the rows by; the columns are: (id|model), .*give by one of them, or leave it out to group by "model"/, name);
    }
  });

  it("a by that exists groups by it, and a table without the default model column is still one group", () => {
    const bySystem = rows.map(({ model, ...rest }) => ({ ...rest, system: model }));
    const box = scoreBox(bySystem, { by: "system" });
    assert.deepEqual(((box["layer"] as Record<string, unknown>[])[0]!["data"] as { values: { model: string }[] }).values.map((v) => v.model), ["atlas-pro", "swift-mini"]);
    assert.equal(winTieLoss(bySystem, { by: "system" })["$schema"], box["$schema"]);
    const noModel = rows.map(({ model: _model, ...rest }) => rest);
    const one = scoreBox(noModel);
    assert.equal(((one["layer"] as Record<string, unknown>[])[0]!["data"] as { values: unknown[] }).values.length, 1);
  });

  it("evalframe chart --by with a misspelt column exits with that error and writes nothing", async () => {
    const dir = tempDir();
    const header = "id,model,answer_correctness";
    const csv = writeText(dir, "scored.csv", [header, ...rows.map((r) => `${r["id"]},${r["model"]},${r["answer_correctness"]}`)].join("\n") + "\n");
    for (const kind of ["box", "wtl", "paired"]) {
      const out = path.join(dir, `${kind}.svg`);
      const run = await runCliCaptured(["chart", csv, "--kind", kind, "--by", "modle", "--out", out]);
      assert.equal(run.code, 2, kind);
      assert.match(run.err, /--by names column "modle", which .*scored\.csv does not have; its columns are: id, model, answer_correctness/, `${kind}: ${run.err}`);
      assert.throws(() => readFileSync(out), /ENOENT/);
    }
    const ok = await runCliCaptured(["chart", csv, "--kind", "wtl", "--by", "model", "--out", path.join(dir, "wtl.svg")]);
    assert.equal(ok.code, 0, ok.err);
  });
});

describe("long labels", () => {
  const long = ["org/very-long-model-name-2024-06-01-preview-alpha", "org/very-long-model-name-2024-06-01-preview-beta", "org/very-long-model-name-2024-06-01-preview-gamma"];
  const rows = scoredRows(long, 6);

  it("win/tie/loss rows of long names that share a prefix stay distinct in the PNG's SVG, cut in the middle, full in the tooltips", async () => {
    const spec = winTieLoss(rows);
    const svg = await toSVG(spec);
    const labels = svgTexts(svg).filter((t) => t.startsWith("org/"));
    assert.equal(labels.length, 3, labels.join(" | "));
    assert.equal(new Set(labels).size, 3, labels.join(" | "));
    for (const label of labels) assert.match(label, /^org\/.+….+-(alpha|beta|gamma) vs org\/.+….+-(beta|gamma)$/);
    // Tooltips name both models in full.
    const values = (spec["data"] as { values: Record<string, unknown>[] }).values;
    assert.ok(values.some((v) => v["first"] === long[0] && v["second"] === long[1]));
    assert.ok((await toPNG(spec, { scale: 1 })).length > 0);
  });

  it("axis and legend labels of long names are cut in the middle and stay distinct in every chart", async () => {
    // How many different long labels each chart shows (models on an axis or in a legend, or pairs).
    const specs: [string, VegaLiteSpec, number][] = [
      ["scoreBox", scoreBox(rows), 3],
      ["meanWithCI", meanWithCI(rows, { seed: 1 }), 3],
      ["thresholdSweep", thresholdSweep(rows), 3],
      ["pairedDifferences", pairedDifferences(rows), 3],
      ["onePair", pairedDifferences(rows, { a: long[0], b: long[1] }), 2],
    ];
    for (const [name, spec, expected] of specs) {
      // Titles and axis titles hold the full names; labels are the texts that were cut.
      const cut = svgTexts(await toSVG(spec)).filter((t) => t.startsWith("org/") && t.includes("…"));
      assert.equal(new Set(cut).size, expected, `${name}: ${cut.join(" | ")}`);
      // Cut in the middle: each label keeps its name's end, where these names differ.
      assert.ok(cut.every((t) => /(alpha|beta|gamma)( higher)?$/.test(t)), `${name}: ${cut.join(" | ")}`);
    }
  });

  it("a histogram's panel headers cut long names in the middle too, keeping each panel's n, so the chart keeps its width", async () => {
    const spec = scoreHistogram(rows);
    const svg = await toSVG(spec);
    const headers = svgTexts(svg).filter((t) => t.startsWith("org/") && t.endsWith("(n = 6)"));
    assert.equal(new Set(headers).size, 3, headers.join(" | "));
    assert.ok(headers.every((t) => /^org\/.+….+(alpha|beta|gamma) \(n = 6\)$/.test(t)), headers.join(" | "));
    const width = Number(/<svg[^>]*\bwidth="(\d+(?:\.\d+)?)"/.exec(svg)![1]);
    assert.ok(width < 1000, `the chart is ${width} px wide`);
    // The tooltips keep the names whole.
    assert.ok((spec["data"] as { values: Record<string, unknown>[] }).values.some((v) => v["model"] === long[0]));
  });

  it("fitLabels cuts in the middle and keeps names apart however they differ", () => {
    assert.equal(cutMiddle("organisation/very-long-model-name-2024-preview", 21), "organisati…24-preview");
    assert.equal(cutMiddle("short", 21), "short");
    // Names that differ only in their middle, and a short one.
    const names = ["org/model-A-2024-06-01-preview-final", "org/model-B-2024-06-01-preview-final", "short"];
    const labels = fitLabels(names, 16);
    assert.equal(new Set(labels).size, 3, labels.join(" | "));
    assert.ok(labels.every((l) => Array.from(l).length <= 16), labels.join(" | "));
    assert.equal(labels[2], "short");
    // Three hundred names sharing a long start and end.
    const many = Array.from({ length: 300 }, (_, i) => `prefix-common-long-${i}-suffix-common-long`);
    const fitted = fitLabels(many, 20);
    assert.equal(new Set(fitted).size, 300);
    assert.ok(fitted.every((l) => Array.from(l).length <= 20));
    // Pairs are cut model by model.
    assert.deepEqual(pairLabels([["org/model-2024-alpha", "org/model-2024-beta"], ["a", "b"]], " vs ", 24), ["org/m…lpha vs org/m…beta", "a vs b"]);
  });
});
