/**
 * The evidence behind an answer-correctness score, kept with the row (as JSON
 * text in the `answer_correctness_statements` column) so that a scored CSV
 * read back can still be drilled down and explained.
 */
import { z } from "zod";
import type { ScoringRecord } from "../definition";
import { OFFLINE_LABEL } from "../../judge/offline-label";

/** A statement's verdict: TP/FP for answer statements, covered/FN for reference statements. */
export type Verdict = "TP" | "FP" | "FN" | "covered";

/** One statement with its verdict and the judge's reason. */
export interface StatementVerdict {
  statement: string;
  verdict: Verdict;
  reason: string;
}

/** The call layouts of answer correctness; see `AnswerCorrectnessOptions.layout`. */
export type AnswerCorrectnessLayout = "ragas" | "fused";

/**
 * Everything needed to redo one row's arithmetic by hand, and how the judge
 * was asked for it. `layout`, `reasons`, `answersPerCall` and
 * `embeddingModel` are absent from tables scored before evalframe recorded
 * them.
 */
export interface AnswerCorrectnessDetails {
  judge: string;
  /** The rules of a judge without a model (the offline judge's version); absent for model judges, and in tables from before 2026-12-05. */
  judgeRules?: string;
  /** The call layout the verdicts came from. */
  layout?: AnswerCorrectnessLayout;
  /** Whether the judge was asked for a reason before each verdict. */
  reasons?: boolean;
  /** The fused layout's answers per call (1 in the Ragas layout). */
  answersPerCall?: number;
  /** The versions of the prompts the layout asks with ("ac-statements-v2 ac-classify-v2"); absent in tables from before they were recorded. */
  prompts?: string;
  /** The model that embedded answer and reference; absent when the semantic weight is 0. */
  embeddingModel?: string;
  weights: [number, number];
  beta: number;
  threshold: number | null;
  similarityThreshold: number | null;
  response: StatementVerdict[];
  reference: StatementVerdict[];
}

const VerdictSchema = z.object({ statement: z.string(), verdict: z.enum(["TP", "FP", "FN", "covered"]), reason: z.string() });
const DetailsSchema = z.object({
  judge: z.string(),
  judgeRules: z.string().optional(),
  layout: z.enum(["ragas", "fused"]).optional(),
  reasons: z.boolean().optional(),
  answersPerCall: z.number().optional(),
  prompts: z.string().optional(),
  embeddingModel: z.string().optional(),
  weights: z.tuple([z.number(), z.number()]),
  beta: z.number(),
  threshold: z.number().nullable(),
  similarityThreshold: z.number().nullable(),
  response: z.array(VerdictSchema),
  reference: z.array(VerdictSchema),
});

/** Name of the column that holds the details (spelt in `columns.ts`). */
export { DETAILS_COLUMN } from "./columns";

/** Reads a details cell; undefined when it is empty or not ours. */
export function parseDetails(cell: unknown): AnswerCorrectnessDetails | undefined {
  if (typeof cell !== "string" || cell.trim() === "") return undefined;
  try {
    const checked = DetailsSchema.safeParse(JSON.parse(cell));
    return checked.success ? checked.data : undefined;
  } catch {
    return undefined;
  }
}

/** A row's scoring settings by the text of its details cell before its statements (nearly every row of a run shares it). */
const scoringByPrefix = new Map<string, ScoringRecord | undefined>();
const RESPONSE_KEY = ',"response":';
let last: { prefix: string; record: ScoringRecord | undefined } | undefined;

/**
 * How a row was scored (layout, reasons, answers per call, embedding model,
 * weights, β, thresholds), read from its details cell; undefined when the
 * cell is empty or not ours. Only the part before the statements is parsed,
 * once per distinct text, so reading a 100,000-row run stays cheap.
 *
 * @example
 * scoringOfDetails(scored["answer_correctness_statements"].values[0]);
 * // { layout: "ragas", reasons: "yes", "answers per call": "1", ..., weights: "0.75/0.25", beta: "1", threshold: "none", ... }
 */
export function scoringOfDetails(cell: unknown): ScoringRecord | undefined {
  if (typeof cell !== "string") return undefined;
  // Rows in a run are mostly scored alike: the previous row's prefix, compared in place, saves a slice and a lookup.
  if (last !== undefined && cell.startsWith(last.prefix) && cell.startsWith(RESPONSE_KEY, last.prefix.length)) return last.record;
  const cut = cell.indexOf(RESPONSE_KEY);
  if (cut < 0) return scoringRecord(parseDetails(cell));
  const prefix = cell.slice(0, cut);
  last = { prefix, record: undefined };
  if (scoringByPrefix.has(prefix)) return (last.record = scoringByPrefix.get(prefix));
  const record = scoringRecord(parseDetails(scoringPartOfDetails(cell)) ?? parseDetails(cell));
  if (scoringByPrefix.size >= 1000) scoringByPrefix.clear();
  scoringByPrefix.set(prefix, record);
  return (last.record = record);
}

/**
 * A details cell with its statements left out (empty lists): what
 * {@link scoringOfDetails} reads, in a fraction of the text. A cell that is
 * not ours is given back as it is.
 *
 * @example
 * scoringPartOfDetails('{"judge":"x","weights":[0.75,0.25],...,"response":[{...}],"reference":[{...}]}');
 * // '{"judge":"x","weights":[0.75,0.25],...,"response":[],"reference":[]}'
 */
export function scoringPartOfDetails(cell: string): string {
  const cut = cell.indexOf(RESPONSE_KEY);
  return cut < 0 ? cell : `${cell.slice(0, cut)}${RESPONSE_KEY}[],"reference":[]}`;
}

/**
 * The prompts a row was asked with, for a table written before they were
 * recorded (2026-12-01 to 2026-12-05: the layout, reasons and answers per call
 * are recorded, the prompts not). Those versions of evalframe asked with the
 * versions below and no other; the fused layout's reference batches were
 * `ac-statements-batch-v1`, since replaced. So an older fused run compared with
 * a newer one is named as asked with another prompt, not taken for the same
 * scoring. These are the versions of that time, not today's constants: a later
 * version of a prompt must not rename what an old table was asked with.
 * Undefined when the table records no layout (older still: then which prompts
 * were used is not known).
 */
function promptsBeforeRecorded(details: AnswerCorrectnessDetails): string | undefined {
  if (details.layout === undefined) return undefined;
  const reasons = details.reasons !== false;
  if (details.layout === "ragas") return `ac-statements-v2 ${reasons ? "ac-classify-v2" : "ac-classify-verdicts-only-v1"}`;
  const answers = (details.answersPerCall ?? 1) > 1 ? "ac-fused-batch" : "ac-fused";
  return `ac-statements-batch-v1 ${answers}${reasons ? "" : "-verdicts-only"}-v1`;
}

function scoringRecord(details: AnswerCorrectnessDetails | undefined): ScoringRecord | undefined {
  if (details === undefined) return undefined;
  const record: Record<string, string> = {};
  // The offline judge's rules change between versions of evalframe: a table from before they were recorded is said to be of unknown rules.
  const rules = details.judgeRules ?? (details.judge === OFFLINE_LABEL ? "not recorded (before 2026-12-05)" : undefined);
  if (rules !== undefined) record["judge rules"] = rules;
  if (details.layout !== undefined) record["layout"] = details.layout;
  if (details.reasons !== undefined) record["reasons"] = details.reasons ? "yes" : "no";
  if (details.answersPerCall !== undefined) record["answers per call"] = String(details.answersPerCall);
  const prompts = details.prompts ?? promptsBeforeRecorded(details);
  if (prompts !== undefined) record["prompts"] = prompts;
  if (details.embeddingModel !== undefined) record["embedding model"] = details.embeddingModel;
  record["weights"] = details.weights.join("/");
  record["beta"] = String(details.beta);
  record["threshold"] = details.threshold === null ? "none" : String(details.threshold);
  record["similarity threshold"] = details.similarityThreshold === null ? "none" : String(details.similarityThreshold);
  return record;
}
