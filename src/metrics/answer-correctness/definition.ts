/**
 * Answer correctness in the metric registry (`metrics/registry.ts`).
 */
import type { Metric } from "../metric";
import type { MetricDefinition, MetricFlags, ScoringRecord } from "../definition";
import type { AnswerCorrectnessOptions } from "./metric";
import { ANSWER_CORRECTNESS_COLUMNS as COLUMNS } from "./columns";

let details: typeof import("./details") | undefined;

/**
 * Answer correctness's definition: the CLI's `--weights`, `--beta`,
 * `--threshold`, `--similarity-threshold`, `--layout`, `--reasons` and
 * `--answers-per-call` build it.
 *
 * @example
 * ANSWER_CORRECTNESS.create({ threshold: 0.7 }).columns()[1]?.name; // "answer_correctness_continuous"
 */
export const ANSWER_CORRECTNESS: MetricDefinition = {
  name: COLUMNS.score,
  label: "answer correctness",
  scoreColumn: COLUMNS.score,
  errorColumn: COLUMNS.error,
  judgeColumn: COLUMNS.judge,
  extraScoreColumns: [COLUMNS.continuous],
  columns: Object.values(COLUMNS),
  requiredColumns: ["user_input", "response", "reference"],
  needs: `a "reference" column (or ground_truth, expected, reference_answer)`,
  binary: false,
  // From -1: the semantic part is a cosine similarity, which Ragas' arithmetic keeps when it is negative.
  scoreRange: [-1, 1],
  display: { chart: "meanWithCI" },
  create(flags: MetricFlags): Metric {
    const options: AnswerCorrectnessOptions = {};
    if (flags.weights !== undefined) options.weights = flags.weights;
    if (flags.beta !== undefined) options.beta = flags.beta;
    if (flags.threshold !== undefined) options.threshold = flags.threshold;
    if (flags.similarityThreshold !== undefined) options.similarityThreshold = flags.similarityThreshold;
    if (flags.layout !== undefined) options.layout = flags.layout;
    if (flags.reasons !== undefined) options.reasons = flags.reasons;
    if (flags.answersPerCall !== undefined) options.answersPerCall = flags.answersPerCall;
    // Loaded here, not at import: reading the registry must stay cheap.
    const { answerCorrectness } = require("./metric") as typeof import("./metric");
    return answerCorrectness(options) as Metric;
  },
  // The prompts follow from the layout, the reasons and the answers per call; compared alone they show a newer prompt.
  derivedSettings: { prompts: ["layout", "reasons", "answers per call"] },
  scoringOf(cell: (column: string) => unknown): ScoringRecord | undefined {
    // Loaded at the first call, not at import, for the same reason; kept, as it is called once per row.
    details ??= require("./details") as typeof import("./details");
    return details.scoringOfDetails(cell(COLUMNS.details));
  },
  scoringPart(column: string, text: string): string {
    if (column !== COLUMNS.details) return text;
    details ??= require("./details") as typeof import("./details");
    return details.scoringPartOfDetails(text);
  },
};
