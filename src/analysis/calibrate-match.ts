/**
 * Finding each label's row in a scored table: by (id, model) when both sides
 * have ids, else by (user_input, model); a label whose texts differ from its
 * row's is stale.
 */
import { getColumn, rowAt, type Table } from "../dataset/table";
import { quote, textKey } from "../labels/text";
import { keyText, textAt } from "../dataset/column-toolkit";
import { INPUT_ERROR_COLUMN } from "../dataset/columns";
import { REPEATED_ID_RULE } from "../dataset/validate";
import { defaultScoreColumns } from "../metrics/registry";
import { isBlankScore } from "./summarize";

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
  /**
   * When some unused labels would match a row if case, spaces or leading
   * zeros were ignored (a spreadsheet turned "007" into 7): what to fix, with
   * the first example; else undefined. They are not matched: keys must be exact.
   */
  hint: string | undefined;
}

/**
 * True when loading marked row `i` as repeating an earlier row's (id, model)
 * and it has no score: scoring left it unscored. A repeat that has a score
 * (a table made elsewhere) is not skipped: which answer to compare is for the user to say.
 */
function repeatLeftUnscored(table: Table, i: number): boolean {
  const reason = getColumn(table, INPUT_ERROR_COLUMN)?.values[i];
  if (typeof reason !== "string" || !reason.includes(REPEATED_ID_RULE)) return false;
  return defaultScoreColumns().every((name) => isBlankScore(getColumn(table, name)?.values[i]));
}

/** A key as a spreadsheet may have rewritten it: case, spaces and leading zeros of a number ignored. */
function looseKey(text: string): string {
  const t = text.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
  return /^\d+$/.test(t) ? t.replace(/^0+(?=\d)/, "") : t;
}

/** The distinct model names of a table's model column (first few are enough for messages). */
function modelNames(table: Table): string[] {
  const column = getColumn(table, "model");
  const names = new Set<string>();
  if (column === undefined) return [];
  for (let i = 0; i < table.rowCount; i++) {
    const name = keyText(column.values[i] ?? null);
    if (name !== undefined) names.add(name);
  }
  return [...names];
}

/** A text cell, or undefined when it (or its column) is missing: a missing text is neither matched nor compared. */
function textOrMissing(table: Table, name: string, row: number): string | undefined {
  return textAt(table, name, row, { missing: null }) ?? undefined;
}

/**
 * Matches labels to the rows of a scored table. Rows are matched by (id,
 * model) when the table has an `id` column and every label has an id, else
 * by (user_input, model); `model` takes part when the table has a `model`
 * column, unless no label names a model and the table holds one model's
 * answers. Ids and models are compared as written, in Unicode NFC. A row
 * that scoring left unscored as a repeat of an earlier (id, model) is not
 * matched. A matched label whose `response` (or `reference`) text differs
 * from the row's (compared as `textKey` does) is stale, not matched.
 *
 * @throws {Error} when two rows, or two labels, have the same key (naming
 *   them); when a label has no key to match by; when no label names a model
 *   and the table has several.
 */
export function matchLabels<L extends LabelKeys>(table: Table, labels: readonly L[], caller: string): MatchResult<L> {
  const idColumn = getColumn(table, "id");
  const questionColumn = getColumn(table, "user_input");
  const byId = idColumn !== undefined && labels.length > 0 && labels.every((l) => l.id !== undefined);
  if (!byId && questionColumn === undefined) {
    throw new Error(
      `${caller}: cannot match labels to rows: the scored table has no user_input column${idColumn === undefined ? " and no id column" : ", and not every label has an id"}; ` +
        `the columns are: ${table.columns.map((c) => c.name).join(", ")}`,
    );
  }
  if (!byId) {
    // A label with neither key would be matched by an empty question: name it instead.
    const someIds = idColumn !== undefined && labels.some((l) => l.id !== undefined);
    const keyless = labels.find((l) => l.user_input === undefined && (!someIds || l.id === undefined));
    if (keyless !== undefined) {
      throw new Error(
        someIds
          ? `${caller}: ${keyless.where} has no id, so the labels cannot be matched by (id, model); give it the id of its row (or delete the line)`
          : `${caller}: ${keyless.where} has no user_input to find its row by${idColumn === undefined ? " (the scored table has no id column)" : " and no id"}; give the labels an id or a user_input column`,
      );
    }
  }
  // Labels that name no model, against a table of one model's answers: the model goes without saying.
  const models = modelNames(table);
  const labelsNameModels = labels.some((l) => l.model !== undefined);
  let modelColumn = getColumn(table, "model");
  if (modelColumn !== undefined && labels.length > 0 && !labelsNameModels) {
    if (models.length > 1) {
      const shown = models.slice(0, 5).map((m) => JSON.stringify(m)).join(", ");
      throw new Error(
        `${caller}: the labels name no model, and the scored table has answers from ${models.length} models (${shown}${models.length > 5 ? ", …" : ""}); ` +
          "give each label the model whose answer it grades (a model column, or \"model\" in each label line)",
      );
    }
    modelColumn = undefined;
  }
  const describe = (id: string | undefined, question: string | undefined, model: string) =>
    byId ? `(id ${JSON.stringify(id)}, model ${JSON.stringify(model)})` : `(user_input ${quote(question ?? "", 50)}, model ${JSON.stringify(model)})`;
  // Ids and models are compared as written, but in one Unicode form: "é" typed as one character or as e and an accent is the same id.
  const nfc = (text: string) => text.normalize("NFC");
  const labelKey = (l: L) => JSON.stringify([byId ? nfc(l.id ?? "") : textKey(l.user_input ?? ""), modelColumn ? nfc(l.model ?? "") : ""]);

  const rows = new Map<string, number>();
  for (let i = 0; i < table.rowCount; i++) {
    const first = byId ? keyText(idColumn!.values[i] ?? null) : textOrMissing(table, "user_input", i);
    if (first === undefined) continue;
    const model = modelColumn ? (keyText(modelColumn.values[i] ?? null) ?? "") : "";
    const key = JSON.stringify([byId ? nfc(first) : textKey(first), nfc(model)]);
    const seen = rows.get(key);
    // A row that scoring left unscored because it repeats an earlier row's (id, model): the first answer is the one scored and labelled.
    if (seen !== undefined && repeatLeftUnscored(table, i)) continue;
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
          `${modelColumn || getColumn(table, "model") ? "" : " (the scored table has no model column to tell them apart)"}; keep one label per row` +
          " (two annotators' grades of one answer: average them into one label; agreement(gradesA, gradesB) measures how far the two annotators agree)",
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
  const hint = looseMatchHint(table, rows, used, unused, byId, modelColumn !== undefined);
  return {
    by: byId ? "id" : "user_input",
    matched,
    stale,
    unlabelledRows: table.rowCount - used.size,
    unusedLabels: labels.length - used.size,
    unlabelled: Array.from({ length: table.rowCount }, (_, i) => i).filter((i) => !used.has(i)),
    unused,
    hint,
  };
}

/** {@link MatchResult.hint}: unused labels that only a loose comparison of their keys would match to an unlabelled row. */
function looseMatchHint<L extends LabelKeys>(table: Table, rows: ReadonlyMap<string, number>, used: ReadonlySet<number>, unused: readonly L[], byId: boolean, withModel: boolean): string | undefined {
  if (unused.length === 0) return undefined;
  const loose = new Map<string, { row: number; key: [string, string] }>();
  for (const [key, row] of rows) {
    if (used.has(row)) continue;
    const [first, model] = JSON.parse(key) as [string, string];
    const k = JSON.stringify([looseKey(first), looseKey(model)]);
    if (!loose.has(k)) loose.set(k, { row, key: [first, model] });
  }
  let count = 0;
  let example = "";
  for (const l of unused) {
    const first = byId ? (l.id ?? "") : (l.user_input ?? "");
    const hit = loose.get(JSON.stringify([looseKey(first), looseKey(withModel ? (l.model ?? "") : "")]));
    if (hit === undefined) continue;
    count++;
    if (example === "") {
      const name = byId ? "id" : "user_input";
      const show = (v: string) => (byId ? JSON.stringify(v) : quote(v, 40));
      const model = withModel ? `, model ${JSON.stringify(l.model ?? "")}` : "";
      const rowModel = withModel ? `, model ${JSON.stringify(hit.key[1])}` : "";
      example = `${l.where} (${name} ${show(first)}${model}) and ${rowAt(table, hit.row)} (${name} ${show(hit.key[0])}${rowModel})`;
    }
  }
  if (count === 0) return undefined;
  return (
    `${count} unused label${count === 1 ? "" : "s"} would match an unlabelled row if case, spaces or leading zeros were ignored, e.g. ${example}; ` +
    "ids and models must be written exactly as in the scored table (a spreadsheet drops the leading zeros of an id such as 007: format that column as text)"
  );
}
