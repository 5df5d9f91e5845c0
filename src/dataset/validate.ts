/**
 * Maps column aliases to canonical names and checks every row of an
 * evaluation table. A bad cell fails its row only; a missing required column
 * fails the whole load, naming the columns that were found.
 */
import { canonicalName, COLUMN_ALIASES, type CanonicalColumn } from "./columns";
import { FixableError } from "./fix-hint";
import type { RawTable } from "./raw";
import { getColumn, rowAndLine, type RowProblems, type Table } from "./table";

/** Raised when a table lacks a column that the task needs. */
export class MissingColumnError extends FixableError {
  /** The canonical names that are missing. */
  readonly missing: CanonicalColumn[];
  /** The column names the table has. */
  readonly found: string[];
  /** Whether the fix it gives is a column's other name (`aliases`), not saving the file again with commas. */
  declare readonly fixedByAliases: boolean;

  constructor(missing: CanonicalColumn[], found: string[], source: string) {
    const wanted = missing
      .map((name) => `"${name}" (or ${COLUMN_ALIASES[name].map((a) => `"${a}"`).join(", ")})`)
      .join(" and ");
    const has = found.length > 0 ? found.map((n) => `"${n}"`).join(", ") : "none";
    const resave = separatorHint(found);
    super(`${source}: missing required column ${wanted}; the columns found are ${has}`, {
      api: resave ?? `rename a column, or pass { aliases: { yourName: "${missing[0]}" } }`,
      cli: resave ?? `rename a column in the file to "${missing[0]}" or one of the names above`,
    });
    this.name = "MissingColumnError";
    this.missing = missing;
    this.found = found;
    // Not enumerable, as the fix's other wordings: a notebook prints an error's own properties.
    Object.defineProperty(this, "fixedByAliases", { value: resave === undefined, enumerable: false });
  }
}

/**
 * Raised when the columns asked for (`loadDataset`'s `columns`) name one
 * that the table lacks, instead of reading the table without it.
 */
export class MissingReadColumnError extends FixableError {
  /** The names asked for that the table lacks. */
  readonly missing: string[];
  /** The column names the table has. */
  readonly found: string[];

  constructor(missing: readonly string[], found: readonly string[], source: string) {
    const quoted = missing.map((n) => `"${n}"`);
    const names = quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]!}`;
    const has = found.length > 0 ? found.map((n) => `"${n}"`).join(", ") : "none";
    const by = 'as the header names it, or by its canonical name ("user_input" for a "question" column)';
    const resave = separatorHint(found);
    super(`${source}: the columns to read include ${names}, which the ${source === "rows" || source === "DataFrame" ? "table" : "file"} does not have; the columns found are ${has}`, {
      api: resave ?? `name each column in { columns: [...] } ${by}, or leave ${missing.length === 1 ? "it" : "them"} out`,
      cli: resave ?? `name each column ${by}, or leave ${missing.length === 1 ? "it" : "them"} out`,
    });
    this.name = "MissingReadColumnError";
    this.missing = [...missing];
    this.found = [...found];
  }
}

/**
 * @internal What to do with a header read as one column because its fields
 * are split by another character than the reader's (semicolons, as Excel
 * writes CSV in many locales; tabs; bars), when a part of it names a column
 * evalframe reads; else undefined.
 *
 * @example
 * separatorHint(["question;answer;reference"]) // "the header is one column … split by semicolons: save the file with commas …"
 * separatorHint(["question\tanswer"])           // "… split by tabs: name the file .tsv, or give the format "tsv""
 */
export function separatorHint(found: readonly string[]): string | undefined {
  if (found.length !== 1) return undefined;
  const resave = "save the file with commas between its fields (in Excel: CSV UTF-8, comma delimited)";
  const splits = [
    [";", "semicolons", resave],
    ["\t", "tabs", 'name the file .tsv, or give the format "tsv"'],
    ["|", "bars (|)", resave],
    [",", "commas", 'name the file .csv, or give the format "csv"'],
  ] as const;
  for (const [char, name, fix] of splits) {
    const parts = found[0]!.split(char);
    if (parts.length > 1 && parts.some((part) => canonicalName(part.trim().replace(/^"|"$/g, "")) !== undefined)) {
      return `the header is one column whose name holds the column names split by ${name}: ${fix}`;
    }
  }
  return undefined;
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
 * Reads one `retrieved_contexts` cell: a JSON array of strings, a JSON
 * string (one context, its quotes and escapes read as JSON; one holding a
 * JSON array of strings is that list), or a single context as plain text.
 * Empty means no contexts.
 *
 * @returns the list, or a problem message.
 * @example
 * parseContexts('["a", "b"]') // { contexts: ["a", "b"] }
 * parseContexts("one passage") // { contexts: ["one passage"] }
 * parseContexts('"one passage"') // { contexts: ["one passage"] }
 */
export function parseContexts(cell: string | null): { contexts: string[] } | { problem: string } {
  if (cell === null || cell.trim() === "") return { contexts: [] };
  const text = cell.trim();
  const quoted = jsonString(text);
  if (quoted !== undefined) {
    // A list written as JSON text twice ('"[\"a\", \"b\"]"') is that list; any other string is one context.
    const inner = quoted.trim().startsWith("[") ? parseContexts(quoted) : undefined;
    return inner !== undefined && "contexts" in inner ? inner : { contexts: [quoted] };
  }
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
      problem: `column "retrieved_contexts" context ${bad + 1} is ${JSON.stringify(parsed[bad])}, not text; every context must be a string`,
    };
  }
  return { contexts: parsed as string[] };
}

/** The string a JSON string literal (`"…"`, escapes and all) holds, or undefined when `text` is not one. */
function jsonString(text: string): string | undefined {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The problem of a row whose every field is empty. */
export const EMPTY_ROW_PROBLEM = "every field of this row is empty (a spreadsheet's leftover row?); delete the row";

/** The end of the problem a repeated (id, model) gets in `input_error`, by which it is known again. */
export const REPEATED_ID_RULE = "each question id must appear once per model";

/**
 * Checks every row of a typed table with canonical names: question and
 * reference present, contexts a list of strings (rewritten as canonical JSON;
 * an empty cell is left as it is),
 * model and id filled in, and each (id, model) pair used once. Empty responses
 * are allowed: they are bad answers, not bad input.
 */
export function validateRows(table: Table, problems: RowProblems, where: RowPlace = {}): void {
  // A row with every field empty (a spreadsheet's leftover row, ",,,,") is one problem, not one per column.
  const empty = new Set<number>();
  for (let row = 0; row < table.rowCount && table.columns.length > 1; row++) {
    if (table.columns.every((c) => isBlank(c.values[row]))) {
      empty.add(row);
      problems.add(row, EMPTY_ROW_PROBLEM);
    }
  }
  const need = (name: CanonicalColumn, what: string): void => {
    const column = getColumn(table, name);
    column?.values.forEach((v, row) => {
      if (isBlank(v) && !empty.has(row)) problems.add(row, `column "${name}" is empty; ${what}`);
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
      // An empty cell means no contexts, and stays as it was: it is written back empty, not as "[]".
      if (isBlank(v)) return v;
      const result = parseContexts(typeof v === "string" ? v : null);
      if ("problem" in result) {
        problems.add(row, result.problem);
        return v;
      }
      return JSON.stringify(result.contexts);
    });
  }

  (where.pairs ?? new AnsweredPairs()).markRepeats(table, (row, message) => problems.add(row, message), where);
}

/** Where the rows of a table sit in their file: the file row of its first row, and each row's line. */
export interface RowPlace {
  /** The file row of the table's first row (a later part of a file read in parts); 0 by default. */
  firstRow?: number;
  /** 1-based line of each row in its file. */
  lines?: readonly number[];
  /** The pairs answered in the parts of the file checked before this one, to find repeats across parts. */
  pairs?: AnsweredPairs;
}

/**
 * The (id, model) pairs answered so far, in one table or over the parts of a
 * file read in parts: a row whose pair an earlier row answered is bad input
 * (a repeated answer would be averaged in twice), and its message names the
 * row that answered first.
 *
 * @example
 * const pairs = new AnsweredPairs();
 * let firstRow = 0;
 * for (const raw of parts) {
 *   checkRawTable(raw, "big.csv", {}, { firstRow, pairs }); // a pair answered in an earlier part is a repeat here
 *   firstRow += raw.rowCount;
 * }
 */
export class AnsweredPairs {
  /** Where each pair was first answered ("row 2 (line 4)"), by pair. */
  private readonly firstAt = new Map<string, string>();

  /**
   * Calls `repeat` for each row of `table` whose pair an earlier row (of this
   * table or of a part marked before) answered, and remembers the rest.
   * Returns how many rows repeat. Rows with no id are left alone.
   */
  markRepeats(table: Table, repeat: (row: number, message: string) => void, place: RowPlace = {}): number {
    const id = getColumn(table, "id");
    if (!id) return 0;
    const model = getColumn(table, "model");
    let repeats = 0;
    id.values.forEach((v, row) => {
      if (isBlank(v)) return;
      const m = model?.values[row];
      // Text keys: a part of a file may type an id column as numbers, another as text.
      const key = JSON.stringify([String(v), isBlank(m) ? null : String(m)]);
      const first = this.firstAt.get(key);
      if (first === undefined) {
        this.firstAt.set(key, rowAndLine((place.firstRow ?? 0) + row, place.lines?.[row]));
        return;
      }
      const forModel = model ? (isBlank(m) ? " with no model" : ` for model "${String(m)}"`) : "";
      repeat(row, `column "id": "${String(v)}" appears again${forModel} (first at ${first}); ${REPEATED_ID_RULE}`);
      repeats++;
    });
    return repeats;
  }
}
