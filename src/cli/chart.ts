/**
 * `evalframe chart`: one chart of a scored file, as PNG, SVG or a Vega-Lite spec.
 */
import * as path from "node:path";
import type { VegaLiteSpec } from "../charts/spec";
import { choice, list, parseCommand, requiredOption, stringOption } from "./args";
import { failOnError, UsageError } from "./errors";
import type { Command } from "./command";
import { columnsOf, inCommandWords, namedColumns, refuseScoredRepeats, requireNamedValues, s, readScored, withoutUnscoredRepeats } from "./command-support";
import { getColumn, type Table } from "../dataset/table";
import { cellNumber } from "../dataset/column-toolkit";
import { defaultScoreColumns } from "../metrics/registry";
import { WHERE_OPTION } from "./where";
import { checkCommandFiles } from "./output-paths";

/** The kinds of `evalframe chart`. */
export const CHART_KINDS = ["box", "histogram", "mean", "scatter", "heatmap", "paired", "wtl", "verdicts", "sweep", "relevance"] as const;
type ChartKind = (typeof CHART_KINDS)[number];

/** `evalframe chart`: one chart of a scored file, as PNG, SVG or a Vega-Lite spec. */
export const chartCommand: Command = async (argv, io) => {
  const c = "chart";
  const args = parseCommand(c, argv, { kind: s, out: s, metric: s, by: s, "pair-by": s, models: s, baseline: s, format: s, where: WHERE_OPTION });
  const input = readScored(c, args);
  const kindText = requiredOption(c, args, "kind", CHART_KINDS.join("|"));
  const kind: ChartKind = choice(c, "kind", kindText, CHART_KINDS)!;
  const out = requiredOption(c, args, "out", "chart.png");
  if (![".png", ".svg", ".json"].includes(path.extname(out).toLowerCase())) {
    throw new UsageError(`${c}: --out must end in .png, .svg or .json (the Vega-Lite spec), got "${out}"`, c);
  }
  const models = list(stringOption(args, "models"));
  if (models !== undefined && models.length !== 2) throw new UsageError(`${c}: --models takes two model names, e.g. --models atlas-pro,swift-mini`, c);
  if (models !== undefined && models[0] === models[1]) throw new UsageError(`${c}: --models names ${JSON.stringify(models[0])} twice; give two different models, e.g. --models atlas-pro,swift-mini`, c);
  const metric = stringOption(args, "metric");
  const by = stringOption(args, "by");
  const pairBy = stringOption(args, "pair-by");
  const baseline = stringOption(args, "baseline");
  checkCommandFiles(c, { inputs: [{ name: "the scored table", path: input.file }], outputs: [{ name: "--out", path: out, example: "chart.png" }] });
  const opt = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  // The chart modules only (no judge, no report, no danfojs): a chart of a table is drawn in about a second.
  const { scoreBox, scoreHistogram, meanWithCI, factualVsSemantic, questionHeatmap, pairedDifferences, winTieLoss, verdictBars, thresholdSweep, relevanceRate, saveChart } =
    require("../charts/index") as typeof import("../charts/index");
  // Rows that score left unscored as repeats of an (id, model) have no score to draw or pair: left out, with a warning.
  const df = withoutUnscoredRepeats(input.file, await input.load(undefined, undefined, namedColumns([["--metric", metric], ["--by", by], ["--pair-by", pairBy]])), io, "chart");
  requireNamedValues(c, input.file, df, "--baseline", by ?? "model", baseline === undefined ? [] : [baseline]);
  requireNamedValues(c, input.file, df, "--models", by ?? "model", models ?? []);
  if (kind === "relevance") checkRelevanceScore(c, input.file, df, metric);
  // The charts that pair answers: two scored answers to one (id, model) are named with their rows and lines.
  if ((kind === "heatmap" || kind === "paired" || kind === "wtl") && (by ?? "model") === "model" && (pairBy ?? "id") === "id") refuseScoredRepeats(`${c} --kind ${kind}`, input.file, df);
  const spec = await failOnError((): VegaLiteSpec => {
    try {
      return drawn();
    } catch (error) {
      // Said in the command's words ("chart --kind box: …"), not the chart function's ("scoreBox: …").
      throw inCommandWords(error, `${c} --kind ${kind}`, CHART_FUNCTIONS);
    }
  }, `${input.file}: `);
  await failOnError(() => saveChart(spec, out), `cannot write "${out}": `);
  io.out(`wrote ${out}\n`);
  return 0;

  function drawn(): VegaLiteSpec {
    switch (kind) {
      case "box":
        return scoreBox(df, opt({ metric, by }));
      case "histogram":
        return scoreHistogram(df, opt({ metric, by }));
      case "mean":
        return meanWithCI(df, opt({ metric, by }));
      case "scatter":
        return factualVsSemantic(df, opt({ by }));
      case "heatmap":
        return questionHeatmap(df, opt({ metric, by, pairBy }));
      case "paired":
        return pairedDifferences(df, opt({ metric, by, pairBy, a: models?.[0], b: models?.[1] }));
      case "wtl":
        return winTieLoss(df, opt({ metric, baseline, by, pairBy }));
      case "verdicts":
        return verdictBars(df, opt({ by }));
      case "sweep":
        return thresholdSweep(df, opt({ metric, by }));
      case "relevance":
        return relevanceRate(df, opt({ metric, by }));
    }
  }
};

/** The chart functions (and what they call) whose name may start an error's message. */
const CHART_FUNCTIONS = ["scoreBox", "scoreHistogram", "meanWithCI", "factualVsSemantic", "questionHeatmap", "pairedDifferences", "winTieLoss", "compareModels", "verdictBars", "thresholdSweep", "relevanceRate", "summarize"];

/**
 * `--kind relevance` draws the share of rows judged 1, so its score must be
 * 0 or 1: without `--metric`, the file must have a multimodal_relevance
 * column; a `--metric` with other scores (a 0-1 correctness) is refused, with
 * the kind that draws it, rather than drawn as a mislabelled "relevance rate".
 */
function checkRelevanceScore(c: string, file: string, table: Table, metric: string | undefined): void {
  const name = metric ?? "multimodal_relevance";
  const column = getColumn(table, name);
  if (!column) {
    const scores = columnsOf(table).filter((col) => defaultScoreColumns().includes(col));
    const fits = scores.length > 0 ? `; for its scores (${scores.join(", ")}) use --kind mean, box, histogram or sweep` : "";
    throw new UsageError(
      `${c}: --kind relevance draws the share of answers judged relevant (multimodal_relevance), and ${file} has no multimodal_relevance column` +
        ` (score with --metrics multimodal_relevance, or name a 0/1 column with --metric)${fits}`,
      c,
    );
  }
  const other = column.values.map(cellNumber).find((x) => Number.isFinite(x) && x !== 0 && x !== 1);
  if (other !== undefined) {
    throw new UsageError(
      `${c}: --kind relevance draws the share of rows scored 1 and needs a 0/1 score, but --metric ${name} has other values (e.g. ${Number(other.toFixed(3))}); ` +
        `use --kind mean for its mean with a 95% CI (or --kind sweep for the share above each threshold)`,
      c,
    );
  }
}
