/**
 * Maps column aliases to canonical names and checks every row of an
 * evaluation table. A bad cell fails its row only; a missing required column
 * fails the whole load, naming the columns that were found.
 */
import { canonicalName, COLUMN_ALIASES, type CanonicalColumn } from "./columns";
import { FixableError } from "./fix-hint";
import type { RawTable } from "./raw";
import { getColumn, type RowProblems, type Table } from "./table";

/** Raised when a table lacks a column that the task needs. */
export class MissingColumnError extends FixableError {
  /** The canonical names that are missing. */
  readonly missing: CanonicalColumn[];
  /** The column names the table has. */
  readonly found: string[];

  constructor(missing: CanonicalColumn[], found: string[], source: string) {
    const wanted = missing
      .map((name) => `"${name}" (or ${COLUMN_ALIASES[name].map((a) => `"${a}"`).join(", ")})`)
      .join(" and ");
    const has = found.length > 0 ? found.map((n) => `"${n}"`).join(", ") : "none";
    super(`${source}: missing required column ${wanted}; the columns found are ${has}`, {
      api: `rename a column, or pass { aliases: { yourName: "${missing[0]}" } }`,
      cli: `rename a column in the file to "${missing[0]}" or one of the names above`,
    });
    this.name = "MissingColumnError";
    this.missing = missing;
    this.found = found;
  }
}

/**
 * Renames alias columns to their canonical names in place of the original
 * (so column order is kept).
 *
 * @throws {Error} when two columns map to the same canonical name.
 */
export function canonicalizeNames(
  raw: RawTable,
  source: string,
  extraAliases: Readonly<Record<string, CanonicalColumn>> = {},
): RawTable {
  const claimedBy = new Map<CanonicalColumn, string>();
  const names = raw.names.map((name) => {
    const canonical = canonicalName(name, extraAliases);
    if (canonical === undefined) return name;
    const other = claimedBy.get(canonical);
    if (other !== undefined) {
      throw new Error(`${source}: columns "${other}" and "${name}" both mean "${canonical}"; drop or rename one of them`);
    }
    claimedBy.set(canonical, name);
    return canonical;
  });
  const clash = names.find((name, i) => names.indexOf(name) !== i);
  if (clash !== undefined) {
    throw new Error(`${source}: two columns end up named "${clash}"; rename one of them`);
  }
  return { ...raw, names };
}

/** Throws {@link MissingColumnError} unless every required column is present. */
export function requireColumns(names: readonly string[], required: readonly CanonicalColumn[], source: string): void {
  const missing = required.filter((name) => !names.includes(name));
  if (missing.length > 0) throw new MissingColumnError(missing, [...names], source);
}

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/**
 * Reads one `retrieved_contexts` cell: a JSON array of strings, or a single
 * context as plain text. Empty means no contexts.
 *
 * @returns the list, or a problem message.
 * @example
 * parseContexts('["a", "b"]') // { contexts: ["a", "b"] }
 * parseContexts("one passage") // { contexts: ["one passage"] }
 */
export function parseContexts(cell: string | null): { contexts: string[] } | { problem: string } {
  if (cell === null || cell.trim() === "") return { contexts: [] };
  const text = cell.trim();
  // A list: "[…]", or one cut short (a spreadsheet's cell limit) that begins as a list of texts, '["…'.
  if (!(text.startsWith("[") && (text.endsWith("]") || /^\[\s*"/.test(text)))) return { contexts: [cell] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      problem:
        `column "retrieved_contexts" looks like a list but is not valid JSON (${(error as Error).message}); ` +
        `write it as a JSON array of strings like ["first passage", "data/images/chart.png"]`,
    };
  }
  if (!Array.isArray(parsed)) return { contexts: [cell] };
  const bad = parsed.findIndex((item) => typeof item !== "string");
  if (bad >= 0) {
    return {
      problem: `column "retrieved_contexts" item ${bad} is ${JSON.stringify(parsed[bad])}, not text; every context must be a string`,
    };
  }
  return { contexts: parsed as string[] };
}

/** The end of the problem a repeated (id, model) gets in `input_error`, by which it is known again. */
export const REPEATED_ID_RULE = "each question id must appear once per model";

/**
 * Checks every row of a typed table with canonical names: question and
 * reference present, contexts a list of strings (rewritten as canonical JSON),
 * model and id filled in, and each (id, model) pair used once. Empty responses
 * are allowed: they are bad answers, not bad input.
 */
export function validateRows(table: Table, problems: RowProblems): void {
  const need = (name: CanonicalColumn, what: string): void => {
    const column = getColumn(table, name);
    column?.values.forEach((v, row) => {
      if (isBlank(v)) problems.add(row, `column "${name}" is empty; ${what}`);
    });
  };
  need("user_input", "every row needs the question that was asked");
  need("reference", "fill in the reference answer or drop the row");
  need("model", "name the model that gave this answer");
  need("id", "give every question an id (the same id for every model's answer to it)");

  const response = getColumn(table, "response");
  if (response) response.values = response.values.map((v) => (v === null ? "" : v));

  const contexts = getColumn(table, "retrieved_contexts");
  if (contexts) {
    contexts.values = contexts.values.map((v, row) => {
      const result = parseContexts(typeof v === "string" ? v : null);
      if ("problem" in result) {
        problems.add(row, result.problem);
        return v;
      }
      return JSON.stringify(result.contexts);
    });
  }

  const id = getColumn(table, "id");
  if (id) {
    const model = getColumn(table, "model");
    const firstRow = new Map<string, number>();
    id.values.forEach((v, row) => {
      if (isBlank(v)) return;
      const m = model?.values[row];
      const key = JSON.stringify([v, m ?? null]);
      const first = firstRow.get(key);
      if (first === undefined) {
        firstRow.set(key, row);
        return;
      }
      const forModel = model ? ` for model "${String(m)}"` : "";
      problems.add(row, `column "id": "${String(v)}" appears again${forModel} (first at row ${first}); ${REPEATED_ID_RULE}`);
    });
  }
}
