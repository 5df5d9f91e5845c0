/**
 * Drill-down: the statements behind answer-correctness scores, as a
 * DataFrame, and one row's whole story as text or HTML.
 */
import type { DataFrame } from "danfojs-node";
import { getColumn, type Table } from "../dataset/table";
import { numberAt, textAt } from "../dataset/column-toolkit";
import { displayNumber, escapeHtml } from "../display/html";
import { tslab } from "../display/tslab";
import { DETAILS_COLUMN, parseDetails, type AnswerCorrectnessDetails, type StatementVerdict } from "../metrics/answer-correctness/details";
import { tableFromDataFrame, tableToDataFrame } from "./dataframe";
import { isDataFrame, readFrame, type FrameInput } from "../dataset/frame-like";

function requireDetails(table: Table): void {
  if (!getColumn(table, DETAILS_COLUMN)) {
    throw new Error(
      `no "${DETAILS_COLUMN}" column: this frame has not been scored for answer correctness ` +
        "(score it with scoreAnswerCorrectness, or load a CSV that scoreAnswerCorrectness wrote)",
    );
  }
}

/**
 * One row per statement behind the answer-correctness scores of a scored
 * frame: `row` (the row's position in the frame, as `explain(scored, row)`
 * takes it; `scored.index[row]` is its label), `id`, `model`, `side`
 * (`response` or `reference`), `n` (the statement's number on its side),
 * `statement`, `verdict` (TP or FP for response statements; covered or FN
 * for reference statements) and the judge's `reason`. The TP, FP and FN rows
 * of a scored row match its `answer_correctness_tp/_fp/_fn` counts. Rows that
 * failed have no statements.
 *
 * @example
 * const st = statements(scored);
 * st.query(st["verdict"].eq("FP")).print();   // every unsupported claim
 */
export function statements(scored: DataFrame): DataFrame {
  const table = tableFromDataFrame(scored);
  requireDetails(table);
  const out = { row: [] as number[], id: [] as string[], model: [] as string[], side: [] as string[], n: [] as number[], statement: [] as string[], verdict: [] as string[], reason: [] as string[] };
  for (let row = 0; row < table.rowCount; row++) {
    const details = parseDetails(getColumn(table, DETAILS_COLUMN)?.values[row]);
    if (!details) continue;
    const add = (side: string, list: StatementVerdict[]) =>
      list.forEach((v, i) => {
        out.row.push(row);
        out.id.push(textAt(table, "id", row));
        out.model.push(textAt(table, "model", row));
        out.side.push(side);
        out.n.push(i + 1);
        out.statement.push(v.statement);
        out.verdict.push(v.verdict);
        out.reason.push(v.reason);
      });
    add("response", details.response);
    add("reference", details.reference);
  }
  const types = { row: "number", n: "number" } as const;
  return tableToDataFrame({
    rowCount: out.row.length,
    columns: Object.entries(out).map(([name, values]) => ({ name, type: types[name as keyof typeof types] ?? "string", values })),
  });
}

/** Options of {@link explanation}. */
export interface ExplanationOptions {
  /** Statements shown per side (answer, reference), the rest counted ("… and N more"); default all. */
  maxStatements?: number;
}

/** One row's story, as text for a terminal and HTML for a notebook. */
export interface Explanation {
  row: number;
  text: string;
  html: string;
}

function arithmetic(details: AnswerCorrectnessDetails, tp: number, fp: number, fn: number, semantic: number, continuous: number): string[] {
  const [w0, w1] = details.weights;
  const f = (x: number) => displayNumber(x, 4);
  const lines: string[] = [];
  const p = tp + fp === 0 ? 0 : tp / (tp + fp);
  const r = tp + fn === 0 ? 0 : tp / (tp + fn);
  const noStatements = details.response.length === 0 && details.reference.length === 0;
  const factual = noStatements ? 1 : p === 0 && r === 0 ? 0 : ((1 + details.beta ** 2) * p * r) / (details.beta ** 2 * p + r);
  lines.push(`precision = TP/(TP+FP) = ${tp}/${tp + fp} = ${f(p)};  recall = TP/(TP+FN) = ${tp}/${tp + fn} = ${f(r)}`);
  lines.push(
    noStatements
      ? "factual = 1 (neither side makes a statement)"
      : `factual = F${details.beta === 1 ? "1" : `β (β = ${details.beta})`} = ${f(factual)}`,
  );
  if (w1 > 0) {
    lines.push(
      `semantic = cosine(reference, response)${details.similarityThreshold === null ? "" : ` ≥ ${details.similarityThreshold} ? 1 : 0`} = ${f(semantic)}`,
    );
  } else {
    lines.push("semantic: not computed (weight 0)");
  }
  lines.push(`score = (${w0}·${f(factual)} + ${w1}·${w1 > 0 ? f(semantic) : "0"}) / ${w0 + w1} = ${f(continuous)}`);
  if (details.threshold !== null) lines.push(`pass = score ≥ ${details.threshold} → ${continuous >= details.threshold ? 1 : 0}`);
  return lines;
}

/**
 * One row's story: question, answer, reference, each statement with its
 * verdict and reason, and the arithmetic of the score.
 *
 * @example
 * console.log(explanation(scored, 5).text);
 */
export function explanation(scored: FrameInput, row: number, options: ExplanationOptions = {}): Explanation {
  const cap = options.maxStatements ?? Number.POSITIVE_INFINITY;
  if (!(cap >= 1)) throw new RangeError(`explanation: maxStatements must be 1 or more, got ${options.maxStatements}`);
  const table = readFrame(scored, "explanation");
  requireDetails(table);
  if (!Number.isInteger(row) || row < 0 || row >= table.rowCount) {
    throw new RangeError(`row ${row} does not exist; the frame has rows 0 to ${table.rowCount - 1}`);
  }
  const details = parseDetails(getColumn(table, DETAILS_COLUMN)?.values[row]);
  const error = textAt(table, "answer_correctness_error", row);
  // A filtered frame's row keeps its label from the whole frame: both are named when they differ.
  const label = isDataFrame(scored) ? scored.index[row] : row;
  const title = [`row ${row}${label !== row && label !== undefined ? ` (label ${String(label)})` : ""}`, textAt(table, "id", row), textAt(table, "model", row)].filter((s) => s !== "").join(" · ");
  const judge = details?.judge ?? textAt(table, "answer_correctness_judge", row);
  const scoreValue = numberAt(table, "answer_correctness", row);
  const continuousColumn = getColumn(table, "answer_correctness_continuous") ? "answer_correctness_continuous" : "answer_correctness";
  const continuous = numberAt(table, continuousColumn, row);
  const [tp, fp, fn] = ["tp", "fp", "fn"].map((k) => numberAt(table, `answer_correctness_${k}`, row)) as [number, number, number];
  const semantic = numberAt(table, "answer_correctness_semantic", row);

  const lines: string[] = [`${title}  (judge: ${judge})`, ""];
  lines.push(`Question:  ${textAt(table, "user_input", row)}`);
  lines.push(`Answer:    ${textAt(table, "response", row) || "(empty)"}`);
  lines.push(`Reference: ${textAt(table, "reference", row)}`, "");
  lines.push(`answer_correctness = ${displayNumber(scoreValue, 4)}`);
  if (error !== "") lines.push(`error: ${error}`);
  const section = (name: string, list: StatementVerdict[], prefix: string) => {
    lines.push("", `${name} statements:`);
    if (list.length === 0) lines.push("  (none)");
    // Verdicts asked for without reasons (the default) have none: no empty line under each.
    list.slice(0, cap).forEach((v, i) => lines.push(`  ${prefix}${i + 1} ${v.verdict.padEnd(7)} ${v.statement}`, ...(v.reason.trim() === "" ? [] : [`             ${v.reason}`])));
    if (list.length > cap) lines.push(`  … and ${(list.length - cap).toLocaleString("en-US")} more`);
  };
  if (details) {
    section("Answer", details.response, "A");
    section("Reference", details.reference, "R");
    lines.push("", ...arithmetic(details, tp, fp, fn, semantic, continuous));
  }

  const badge = (verdict: string) => {
    const colour = verdict === "TP" || verdict === "covered" ? "#1b7f3b" : verdict === "FP" ? "#b35c00" : "#b3261e";
    return `<span style="font-weight:600;color:${colour}">${escapeHtml(verdict)}</span>`;
  };
  // The reason column only where some verdict of the row has one.
  const reasons = details !== undefined && [...details.response, ...details.reference].some((v) => v.reason.trim() !== "");
  const tableHtml = (name: string, list: StatementVerdict[], prefix: string) =>
    `<h4 style="margin:0.6em 0 0.2em">${escapeHtml(name)} statements</h4>` +
    (list.length === 0
      ? "<p><i>none</i></p>"
      : `<table><thead><tr><th></th><th>verdict</th><th style="text-align:left">statement</th>${reasons ? `<th style="text-align:left">reason</th>` : ""}</tr></thead><tbody>${list
          .slice(0, cap)
          .map(
            (v, i) =>
              `<tr><td>${prefix}${i + 1}</td><td>${badge(v.verdict)}</td><td style="text-align:left">${escapeHtml(v.statement)}</td>${reasons ? `<td style="text-align:left">${escapeHtml(v.reason)}</td>` : ""}</tr>`,
          )
          .join("")}${list.length > cap ? `<tr><td></td><td colspan="${reasons ? 3 : 2}" style="text-align:left"><i>… and ${(list.length - cap).toLocaleString("en-US")} more</i></td></tr>` : ""}</tbody></table>`);
  const html = [
    `<div class="evalframe-explain">`,
    `<h3 style="margin:0.2em 0">${escapeHtml(title)} <small style="font-weight:normal">judge: ${escapeHtml(judge)}</small></h3>`,
    `<p><b>Question:</b> ${escapeHtml(textAt(table, "user_input", row))}<br><b>Answer:</b> ${escapeHtml(textAt(table, "response", row) || "(empty)")}<br><b>Reference:</b> ${escapeHtml(textAt(table, "reference", row))}</p>`,
    `<p><b>answer_correctness = ${escapeHtml(displayNumber(scoreValue, 4))}</b>${error !== "" ? `<br><span style="color:#b3261e">error: ${escapeHtml(error)}</span>` : ""}</p>`,
    details ? tableHtml("Answer", details.response, "A") + tableHtml("Reference", details.reference, "R") : "",
    details ? `<pre>${escapeHtml(arithmetic(details, tp, fp, fn, semantic, continuous).join("\n"))}</pre>` : "",
    `</div>`,
  ].join("");
  return { row, text: lines.join("\n"), html };
}

/**
 * Shows one row's story: as HTML in a notebook, as text on a terminal.
 *
 * @example
 * explain(scored, 5);
 */
export function explain(scored: DataFrame, row: number): void {
  const story = explanation(scored, row);
  const notebook = tslab();
  if (notebook) notebook.display.html(story.html);
  else console.log(story.text);
}
