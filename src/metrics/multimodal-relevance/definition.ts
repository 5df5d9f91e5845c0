/**
 * Multimodal relevance in the metric registry (`metrics/registry.ts`).
 */
import type { Metric } from "../metric";
import type { MetricDefinition, MetricFlags, ScoringRecord } from "../definition";
import type { MultimodalRelevanceOptions } from "./metric";
import { DEFAULT_IMAGE_DETAIL, MULTIMODAL_RELEVANCE_COLUMNS as COLUMNS } from "./columns";
import { MULTIMODAL_FLAGS } from "../../context/option-names";

/** The scoring records of {@link MULTIMODAL_RELEVANCE}, by image detail. */
const scoringByDetail = new Map<string, ScoringRecord>();

/**
 * Multimodal relevance's definition: the CLI's `--image-root`,
 * `--allow-private-network` and the flags of `MULTIMODAL_FLAGS` (context/option-names.ts)
 * build it.
 *
 * @example
 * MULTIMODAL_RELEVANCE.create({ imageRoot: "data" }).requiredColumns; // ["user_input", "response", "retrieved_contexts"]
 */
export const MULTIMODAL_RELEVANCE: MetricDefinition = {
  name: COLUMNS.score,
  label: "multimodal relevance",
  scoreColumn: COLUMNS.score,
  errorColumn: COLUMNS.error,
  judgeColumn: COLUMNS.judge,
  extraScoreColumns: [],
  columns: Object.values(COLUMNS),
  requiredColumns: ["user_input", "response", "retrieved_contexts"],
  needs: `a "retrieved_contexts" column (or contexts, context)`,
  binary: true,
  scoreRange: [0, 1],
  display: { chart: "relevanceRate" },
  create(flags: MetricFlags): Metric {
    const options: MultimodalRelevanceOptions = {};
    if (flags.imageRoot !== undefined) options.imageRoot = flags.imageRoot;
    if (flags.allowPrivateNetwork) options.allowPrivateNetwork = true;
    for (const spec of MULTIMODAL_FLAGS) {
      if (spec.kind === "whole" && flags[spec.option] !== undefined) options[spec.option] = flags[spec.option];
    }
    if (flags.imageDetail !== undefined) options.detail = flags.imageDetail;
    // Loaded here, not at import: reading the registry must stay cheap.
    const { multimodalRelevance } = require("./metric") as typeof import("./metric");
    return multimodalRelevance(options) as Metric;
  },
  // The image detail changes what the model sees; a table from before it was recorded was sent at the default.
  scoringOf(cell: (column: string) => unknown): ScoringRecord {
    const text = cell(COLUMNS.imageDetail);
    const detail = typeof text === "string" && text.trim() !== "" ? text.trim() : DEFAULT_IMAGE_DETAIL;
    // One record per detail, so that rows scored alike share it (comparisons key on the record).
    let record = scoringByDetail.get(detail);
    if (record === undefined) scoringByDetail.set(detail, (record = { "image detail": detail }));
    return record;
  },
};
