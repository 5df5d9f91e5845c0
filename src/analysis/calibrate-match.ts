/**
 * Finding each label's row in a scored table: by (id, model) when both sides
 * have ids, else by (user_input, model); a label whose texts differ from its
 * row's is stale.
 */
import { getColumn, rowAt, type Table } from "../dataset/table";
import { quote, textKey } from "../labels/text";
import { keyText, textAt } from "../dataset/column-toolkit";

/** What matching needs to know of a label. */
export interface LabelKeys {
  id: string | undefined;
  model: string | undefined;
  user_input: string | undefined;
  response: string | undefined;
  reference?: string | undefined;
  /** Where the label is, for messages. */
  where: string;
}

/** A label and the row it belongs to. */
export interface Matched<L> {
  label: L;
  row: number;
}

/** A label whose row's text has changed since it was labelled. */
export interface StaleLabel<L> {
  label: L;
  row: number;
  /** The text that differs: "response" or "reference". */
  field: "response" | "reference";
}

/** Outcome of {@link matchLabels}. */
export interface MatchResult<L> {
  /** "id" when rows were matched by (id, model), "user_input" when by (user_input, model). */
  by: "id" | "user_input";
  matched: Matched<L>[];
  stale: StaleLabel<L>[];
  /** Scored rows that no label matched. */
  unlabelledRows: number;
  /** Labels that matched no scored row. */
  unusedLabels: number;
  /** The scored rows no label matched, in table order. */
  unlabelled: number[];
  /** The labels that matched no scored row, in label order. */
  unused: L[];
}

/** A text cell, or undefined when it (or its column) is missing: a missing text is neither matched nor compared. */
function textOrMissing(table: Table, name: string, row: number): string | undefined {
  return textAt(table, name, row, { missing: null }) ?? undefined;
}

/**
 * Matches labels to the rows of a scored table. Rows are matched by (id,
 * model) when the table has an `id` column and every label has an id, else
 * by (user_input, model); `model` takes part when the table has a `model`
 * column. A matched label whose `response` (or `reference`) text differs
 * from the row's (compared as `textKey` does) is stale, not matched.
 *
 * @throws {Error} when two rows, or two labels, have the same key (naming them).
 */
export function matchLabels<L extends LabelKeys>(table: Table, labels: readonly L[], caller: string): MatchResult<L> {
  const idColumn = getColumn(table, "id");
  const modelColumn = getColumn(table, "model");
  const questionColumn = getColumn(table, "user_input");
  const byId = idColumn !== undefined && labels.length > 0 && labels.every((l) => l.id !== undefined);
  if (!byId && questionColumn === undefined) {
    throw new Error(
      `${caller}: cannot match labels to rows: the scored table has no user_input column${idColumn === undefined ? " and no id column" : ", and not every label has an id"}; ` +
        `the columns are: ${table.columns.map((c) => c.name).join(", ")}`,
    );
  }
  const describe = (id: string | undefined, question: string | undefined, model: string) =>
    byId ? `(id ${JSON.stringify(id)}, model ${JSON.stringify(model)})` : `(user_input ${quote(question ?? "", 50)}, model ${JSON.stringify(model)})`;
  const labelKey = (l: L) => JSON.stringify([byId ? l.id : textKey(l.user_input ?? ""), modelColumn ? (l.model ?? "") : ""]);

  const rows = new Map<string, number>();
  for (let i = 0; i < table.rowCount; i++) {
    const first = byId ? keyText(idColumn!.values[i] ?? null) : textOrMissing(table, "user_input", i);
    if (first === undefined) continue;
    const model = modelColumn ? (keyText(modelColumn.values[i] ?? null) ?? "") : "";
    const key = JSON.stringify([byId ? first : textKey(first), model]);
    const seen = rows.get(key);
    if (seen !== undefined) {
      throw new Error(`${caller}: ${rowAt(table, seen)} and ${rowAt(table, i)} of the scored table are both ${describe(first, first, model)}; each row (question, model) must appear once to match its label`);
    }
    rows.set(key, i);
  }

  const seenLabels = new Map<string, L>();
  for (const l of labels) {
    const key = labelKey(l);
    const seen = seenLabels.get(key);
    if (seen !== undefined) {
      throw new Error(
        `${caller}: ${seen.where} and ${l.where} are both labels of ${describe(l.id, l.user_input, modelColumn ? (l.model ?? "") : "")}` +
          `${modelColumn ? "" : " (the scored table has no model column to tell them apart)"}; keep one label per row`,
      );
    }
    seenLabels.set(key, l);
  }

  const matched: Matched<L>[] = [];
  const stale: StaleLabel<L>[] = [];
  const used = new Set<number>();
  const unused: L[] = [];
  for (const label of labels) {
    const row = rows.get(labelKey(label));
    if (row === undefined) {
      unused.push(label);
      continue;
    }
    used.add(row);
    const differs = (name: string, text: string | undefined) => {
      const cell = textOrMissing(table, name, row);
      return text !== undefined && cell !== undefined && textKey(cell) !== textKey(text);
    };
    if (differs("response", label.response)) stale.push({ label, row, field: "response" });
    else if (differs("reference", label.reference)) stale.push({ label, row, field: "reference" });
    else matched.push({ label, row });
  }
  matched.sort((a, b) => a.row - b.row);
  return {
    by: byId ? "id" : "user_input",
    matched,
    stale,
    unlabelledRows: table.rowCount - used.size,
    unusedLabels: labels.length - used.size,
    unlabelled: Array.from({ length: table.rowCount }, (_, i) => i).filter((i) => !used.has(i)),
    unused,
  };
}
