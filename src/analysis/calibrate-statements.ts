/**
 * Statement-level agreement of a judge with hand labels: on each side
 * (response: TP/FP; reference: covered/FN) the judge's statements are aligned
 * with the label's, and the verdicts of aligned pairs compared.
 */
import type { DataFrame } from "danfojs-node";
import type { AnswerCorrectnessDetails, StatementVerdict } from "../metrics/answer-correctness/details";
import type { AnswerCorrectnessLabel } from "../labels/types";
import { quote } from "../labels/text";
import { agreement } from "./agreement";
import { alignStatements } from "./align";
import { column, frameOf } from "./summarize";

/** The two sides of a row's statements. */
export type StatementSide = "response" | "reference";

/** An aligned pair of statements and their verdicts. */
export interface AlignedStatement {
  side: StatementSide;
  labelStatement: string;
  judgeStatement: string;
  labelVerdict: string;
  judgeVerdict: string;
}

/** A statement that found no partner on the other side. */
export interface UnalignedStatement {
  side: StatementSide;
  /** Whose statement it is. */
  from: "label" | "judge";
  statement: string;
}

/** One row's statements compared on both sides. */
export interface StatementComparison {
  counts: Record<StatementSide, { label: number; judge: number }>;
  aligned: AlignedStatement[];
  unaligned: UnalignedStatement[];
}

/** Aligns a row's judge statements (from its details) with its label's, on both sides. */
export function compareStatements(label: AnswerCorrectnessLabel, details: AnswerCorrectnessDetails, threshold: number): StatementComparison {
  const aligned: AlignedStatement[] = [];
  const unaligned: UnalignedStatement[] = [];
  const side = (name: StatementSide, labelled: readonly { statement: string; verdict: string }[], judged: readonly StatementVerdict[]) => {
    const pairs = alignStatements(labelled.map((s) => s.statement), judged.map((s) => s.statement), threshold);
    for (const [i, j] of pairs) {
      aligned.push({ side: name, labelStatement: labelled[i]!.statement, judgeStatement: judged[j]!.statement, labelVerdict: labelled[i]!.verdict, judgeVerdict: judged[j]!.verdict });
    }
    const labelPaired = new Set(pairs.map(([i]) => i));
    const judgePaired = new Set(pairs.map(([, j]) => j));
    labelled.forEach((s, i) => labelPaired.has(i) || unaligned.push({ side: name, from: "label", statement: s.statement }));
    judged.forEach((s, j) => judgePaired.has(j) || unaligned.push({ side: name, from: "judge", statement: s.statement }));
  };
  side("response", label.response_statements, details.response);
  side("reference", label.reference_statements, details.reference);
  return {
    counts: {
      response: { label: label.response_statements.length, judge: details.response.length },
      reference: { label: label.reference_statements.length, judge: details.reference.length },
    },
    aligned,
    unaligned,
  };
}

/**
 * The aligned statements whose verdicts differ, as one line of text:
 * `response "label statement": judge TP, label FP; …` (with the judge's
 * wording when it differs), then the statements that found no partner:
 * `label only: reference "…"; judge only: response "…"`.
 */
export function differingStatements(comparison: StatementComparison): string {
  const differing = comparison.aligned
    .filter((a) => a.judgeVerdict !== a.labelVerdict)
    .map((a) => {
      const wording = a.judgeStatement === a.labelStatement ? "" : ` (judge: ${quote(a.judgeStatement, 80)})`;
      return `${a.side} ${quote(a.labelStatement, 80)}${wording}: judge ${a.judgeVerdict}, label ${a.labelVerdict}`;
    });
  const only = (from: "label" | "judge") => {
    const list = comparison.unaligned.filter((u) => u.from === from).map((u) => `${u.side} ${quote(u.statement, 80)}`);
    return list.length === 0 ? [] : [`${from} only: ${list.join(", ")}`];
  };
  return [...differing, ...only("label"), ...only("judge")].join("; ");
}

/** The columns of the statement-agreement table, in order. */
export const STATEMENT_AGREEMENT_COLUMNS = ["side", "verdicts", "n_rows", "n_label", "n_judge", "n_aligned", "n_agree", "accuracy", "kappa"] as const;

/**
 * One row per side: rows compared, label and judge statements, aligned
 * pairs, pairs with the same verdict, accuracy (agreeing / aligned) and
 * Cohen's kappa of the aligned verdicts (NaN when undefined).
 */
export function statementAgreementTable(comparisons: readonly StatementComparison[]): DataFrame {
  const cells: Record<(typeof STATEMENT_AGREEMENT_COLUMNS)[number], (string | number)[]> = Object.fromEntries(
    STATEMENT_AGREEMENT_COLUMNS.map((c) => [c, []]),
  ) as unknown as Record<(typeof STATEMENT_AGREEMENT_COLUMNS)[number], (string | number)[]>;
  for (const [side, verdicts] of [["response", "TP/FP"], ["reference", "covered/FN"]] as const) {
    const pairs = comparisons.flatMap((c) => c.aligned.filter((a) => a.side === side));
    const agree = pairs.filter((p) => p.judgeVerdict === p.labelVerdict).length;
    cells.side.push(side);
    cells.verdicts.push(verdicts);
    cells.n_rows.push(comparisons.length);
    cells.n_label.push(comparisons.reduce((sum, c) => sum + c.counts[side].label, 0));
    cells.n_judge.push(comparisons.reduce((sum, c) => sum + c.counts[side].judge, 0));
    cells.n_aligned.push(pairs.length);
    cells.n_agree.push(agree);
    cells.accuracy.push(pairs.length === 0 ? Number.NaN : agree / pairs.length);
    cells.kappa.push(pairs.length === 0 ? Number.NaN : agreement(pairs.map((p) => p.judgeVerdict), pairs.map((p) => p.labelVerdict)).value);
  }
  return frameOf(
    STATEMENT_AGREEMENT_COLUMNS.map((name) => column(name, name === "side" || name === "verdicts" ? "string" : "number", cells[name])),
    2,
  );
}
