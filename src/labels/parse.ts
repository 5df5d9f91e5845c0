/**
 * One label line, checked field by field: a typed label, or the problems that
 * name the field and say how to fix it.
 */
import { textKey } from "./text";
import type {
  AnswerCorrectnessLabel,
  HandLabel,
  LabelOrigin,
  LabelProblem,
  MultimodalLabel,
  ReferenceStatementLabel,
  ResponseStatementLabel,
} from "./types";

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "string" ? `the text ${JSON.stringify(value)}` : typeof value;
}

class LineReader {
  readonly problems: LabelProblem[] = [];

  constructor(
    private readonly record: Readonly<Record<string, unknown>>,
    private readonly origin: LabelOrigin,
  ) {}

  problem(field: string, message: string): void {
    this.problems.push({ where: this.origin.where, field, message });
  }

  /** A required text field (empty allowed only when `allowEmpty`). */
  text(field: string, allowEmpty: boolean): string {
    const v = this.record[field];
    if (typeof v !== "string") {
      this.problem(field, v === undefined ? `missing; copy the row's ${field} text here` : `must be text, got ${kindOf(v)}`);
      return "";
    }
    if (!allowEmpty && v.trim() === "") this.problem(field, "is empty; copy the row's text here");
    return v;
  }

  /** An optional key field (id or model): text or, for id, a number; undefined when absent. */
  key(field: "id" | "model"): string | undefined {
    const v = this.record[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "number" && field === "id" && Number.isFinite(v)) return String(v);
    if (typeof v !== "string") {
      this.problem(field, `must be text${field === "id" ? " or a number" : ""}, got ${kindOf(v)}`);
      return undefined;
    }
    if (v.trim() === "") {
      this.problem(field, "is empty; give the row's value or leave the field out");
      return undefined;
    }
    return v;
  }

  /** An optional reason (default ""). */
  reason(value: unknown, field: string): string {
    if (value === undefined || value === null) return "";
    if (typeof value !== "string") {
      this.problem(field, `must be text, got ${kindOf(value)}`);
      return "";
    }
    return value;
  }

  statements<V extends string>(field: string, verdicts: readonly [V, V]): { statement: string; verdict: V; reason: string }[] {
    const list = this.record[field];
    if (!Array.isArray(list)) {
      this.problem(field, list === undefined ? `missing; give a list like [{"statement": "…", "verdict": "${verdicts[0]}", "reason": "…"}]` : `must be a list of statements, got ${kindOf(list)}`);
      return [];
    }
    const out: { statement: string; verdict: V; reason: string }[] = [];
    list.forEach((item: unknown, i) => {
      const at = `${field}[${i}]`;
      if (item === null || typeof item !== "object" || Array.isArray(item)) {
        this.problem(at, `must be an object like {"statement": "…", "verdict": "${verdicts[0]}"}, got ${kindOf(item)}`);
        return;
      }
      const entry = item as Record<string, unknown>;
      const statement = entry["statement"];
      let ok = true;
      if (typeof statement !== "string" || statement.trim() === "") {
        this.problem(`${at}.statement`, typeof statement === "string" ? "is empty; write the statement or remove the entry" : `must be text, got ${kindOf(statement)}`);
        ok = false;
      }
      const verdict = entry["verdict"];
      if (!(verdicts as readonly unknown[]).includes(verdict)) {
        this.problem(`${at}.verdict`, `${verdict === undefined ? "missing" : `${JSON.stringify(verdict)} is not a verdict here`}; use "${verdicts[0]}" or "${verdicts[1]}"`);
        ok = false;
      }
      const reason = this.reason(entry["reason"], `${at}.reason`);
      if (ok) out.push({ statement: textKey(statement as string), verdict: verdict as V, reason });
    });
    return out;
  }
}

/**
 * Reads one label line (already parsed from JSON) into a typed label. An
 * answer-correctness line has `response_statements` and
 * `reference_statements`; a multimodal line has `relevant`.
 *
 * @returns the label, or the problems found (each naming its field).
 */
export function parseLabelLine(record: unknown, origin: LabelOrigin): { label: HandLabel } | { problems: LabelProblem[] } {
  if (record === null || typeof record !== "object" || Array.isArray(record)) {
    return { problems: [{ where: origin.where, field: "", message: `expected a JSON object like {"id": "q01", "model": "…", "user_input": "…", …}, got ${kindOf(record)}` }] };
  }
  const fields = record as Readonly<Record<string, unknown>>;
  const r = new LineReader(fields, origin);
  const hasStatements = "response_statements" in fields || "reference_statements" in fields;
  const hasRelevant = "relevant" in fields;
  if (hasStatements && hasRelevant) {
    r.problem("relevant", "a line is either an answer-correctness label (response_statements, reference_statements) or a multimodal one (relevant), not both; split it in two");
    return { problems: r.problems };
  }
  if (!hasStatements && !hasRelevant) {
    r.problem("", "neither response_statements and reference_statements (an answer-correctness label) nor relevant (a multimodal-relevance label); see docs/labelling.md");
    return { problems: r.problems };
  }
  const id = r.key("id");
  const model = r.key("model");
  const user_input = r.text("user_input", false);
  const response = r.text("response", true);
  if (hasRelevant) {
    const relevant = fields["relevant"];
    if (typeof relevant !== "boolean") r.problem("relevant", `must be true or false, got ${kindOf(relevant)}`);
    const reason = r.reason(fields["reason"], "reason");
    if (r.problems.length > 0) return { problems: r.problems };
    const label: MultimodalLabel = { kind: "multimodal_relevance", id, model, user_input, response, relevant: relevant as boolean, reason, origin };
    return { label };
  }
  const reference = r.text("reference", false);
  const response_statements: ResponseStatementLabel[] = r.statements("response_statements", ["TP", "FP"] as const);
  const reference_statements: ReferenceStatementLabel[] = r.statements("reference_statements", ["covered", "FN"] as const);
  if (response.trim() === "" && response_statements.length > 0) {
    r.problem("response_statements", "the response is empty, and an empty response has no statements; make the list []");
  }
  if (r.problems.length > 0) return { problems: r.problems };
  const label: AnswerCorrectnessLabel = { kind: "answer_correctness", id, model, user_input, response, reference, response_statements, reference_statements, origin };
  return { label };
}
