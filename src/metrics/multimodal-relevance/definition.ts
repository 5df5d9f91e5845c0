/**
 * Multimodal relevance in the metric registry (`metrics/registry.ts`).
 */
import type { Metric } from "../metric";
import type { MetricDefinition, MetricFlags } from "../definition";
import type { MultimodalRelevanceOptions } from "./metric";
import { MULTIMODAL_RELEVANCE_COLUMNS as COLUMNS } from "./columns";
import { MULTIMODAL_FLAGS } from "../../context/option-names";

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
};
