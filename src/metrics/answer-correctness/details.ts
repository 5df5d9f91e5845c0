/**
 * The evidence behind an answer-correctness score, kept with the row (as JSON
 * text in the `answer_correctness_statements` column) so that a scored CSV
 * read back can still be drilled down and explained.
 */
import { z } from "zod";

/** A statement's verdict: TP/FP for answer statements, covered/FN for reference statements. */
export type Verdict = "TP" | "FP" | "FN" | "covered";

/** One statement with its verdict and the judge's reason. */
export interface StatementVerdict {
  statement: string;
  verdict: Verdict;
  reason: string;
}

/** Everything needed to redo one row's arithmetic by hand. */
export interface AnswerCorrectnessDetails {
  judge: string;
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
