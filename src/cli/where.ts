/**
 * `--where COLUMN=VALUE`: the rows of a scored table that an analysis
 * command reads, chosen by the values of a column ("split=test",
 * "lang=ko|en"). Repeated, every condition must hold.
 */
import { canonicalName } from "../dataset/columns";
import { cellText, getColumn, parseNumberText, tableRows, type Table } from "../dataset/table";
import type { OptionSpec, ParsedArgs } from "./args";
import { UsageError } from "./errors";

/** The `--where` option: repeatable. */
export const WHERE_OPTION: OptionSpec = { type: "string", multiple: true };

/** One condition: the rows whose `column` holds one of `values` (as its text). */
export interface RowCondition {
  column: string;
  values: string[];
}

/**
 * The conditions of `--where` (none when it is absent). Each is
 * `COLUMN=VALUE` or `COLUMN=V1|V2` (any of the values). A column named as
 * the user's file names it, which loading renames (`question`, `Answer`),
 * is the column it became (`user_input`, `response`): the same lookup.
 *
 * @example
 * // evalframe calibrate out/heldout.csv --labels data/qa-heldout.labels.jsonl --where split=test
 * rowConditions("calibrate", args); // [{ column: "split", values: ["test"] }]
 */
export function rowConditions(command: string, args: ParsedArgs): RowCondition[] {
  const raw = args.values["where"];
  if (raw === undefined || typeof raw === "boolean") return [];
  // Not split at commas: a value may hold one ("model=gpt-4o, 2024").
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((item) => {
    const at = item.indexOf("=");
    const column = at < 0 ? "" : item.slice(0, at).trim();
    if (at < 0 || column === "") {
      throw new UsageError(`${command}: --where "${item}" is not COLUMN=VALUE; write e.g. --where split=test (several values: --where "lang=en|ko")`, command);
    }
    if (/[!<>]$/.test(column) === false && item.slice(at + 1).startsWith("=")) {
      throw new UsageError(`${command}: --where "${item}": write one "=", as in --where ${column}=${item.slice(at + 2)}`, command);
    }
    const operator = /[!<>]$/.test(column) ? `${column.slice(-1)}=` : undefined;
    if (operator !== undefined) {
      // "model!=x" would look for a column "model!", and "turn==1" for the value "=1": say what --where can do instead.
      throw new UsageError(
        `${command}: --where "${item}": ${operator} is not supported; --where keeps the rows whose column holds one of the values given, written COLUMN=VALUE ` +
          `(several: --where "lang=en|ko"; for all but one value, list the others)`,
        command,
      );
    }
    return { column: canonicalName(column) ?? column, values: item.slice(at + 1).split("|").map((v) => v.trim().normalize("NFC")) };
  });
}

/**
 * A cell as `--where` compares it with a condition's values: its text, in
 * Unicode's composed form (NFC), as the values are: "Français" typed on a
 * keyboard matches the same word a tool wrote decomposed (e + combining
 * accent), which looks the same in every listing of the values.
 */
export function whereText(value: unknown): string {
  return (cellText(value) ?? "").normalize("NFC");
}

/**
 * Which of a condition's values a cell holds (the first), or undefined: a
 * text cell matches a value written the same; a number cell (a column of
 * numbers is read as numbers) also matches a value that reads as the same
 * number (`turn=1.0` and `turn=1e0` match 1). A text cell is never matched
 * by number: `id=7` does not match "007", nor `version=1.10` "1.1".
 *
 * @example
 * const match = valueMatcher({ column: "turn", values: ["1.0", "two"] });
 * [match(1), match("two"), match("1")]; // ["1.0", "two", undefined]
 */
export function valueMatcher(condition: RowCondition): (cell: unknown) => string | undefined {
  const byText = new Map(condition.values.map((v) => [v, v] as const));
  const byNumber = new Map<number, string>();
  for (const v of condition.values) {
    const n = parseNumberText(v);
    if (n !== undefined && Number.isFinite(n) && !byNumber.has(n)) byNumber.set(n, v);
  }
  return (cell) => (typeof cell === "number" ? (byNumber.get(cell) ?? byText.get(whereText(cell))) : byText.get(whereText(cell)));
}

/** The columns the conditions read, to load beside what the command needs. */
export function conditionColumns(conditions: readonly RowCondition[]): string[] {
  return conditions.map((c) => c.column);
}

/** The conditions as the user wrote them, for headings: `split=test, lang=ko`. */
export function describeConditions(conditions: readonly RowCondition[]): string {
  return conditions.map((c) => `${c.column}=${c.values.join("|")}`).join(", ");
}

/**
 * The rows of `table` that meet every condition, in their order; the table
 * itself when there are none. A column the table lacks, or no row left, is a
 * usage error that names the column and the values it does hold.
 */
export function rowsWhere(command: string, file: string, table: Table, conditions: readonly RowCondition[]): Table {
  return conditions.length === 0 ? table : rowsKept(command, file, table, conditions).table;
}

/**
 * {@link rowsWhere}, with the row of `table` that each kept row was (in order): what a second
 * read of the same file needs to find them again.
 */
export function rowsKept(command: string, file: string, table: Table, conditions: readonly RowCondition[]): { table: Table; rows: number[] } {
  if (conditions.length === 0) return { table, rows: Array.from({ length: table.rowCount }, (_, i) => i) };
  let keep = Array.from({ length: table.rowCount }, (_, i) => i);
  for (const condition of conditions) {
    const column = getColumn(table, condition.column);
    if (column === undefined) throw unknownColumn(command, file, condition.column, table.columns.map((c) => c.name));
    // Each cell matched once: which value it holds, for the rows kept and for a value no row holds.
    const matches = column.values.map(valueMatcher(condition));
    const text = (i: number) => whereText(column.values[i]);
    const matched = new Set(matches.filter((m): m is string => m !== undefined));
    // The column's texts are read only for the message, when a value is missing.
    const absent = valueNoRowHolds(command, file, condition, matched, (function* () {
      for (const value of column.values) yield whereText(value);
    })());
    if (absent !== undefined) throw absent;
    const kept = keep.filter((i) => matches[i] !== undefined);
    if (kept.length === 0) {
      const seen = [...new Set(keep.map(text))].slice(0, 12).map((v) => (v === "" ? '""' : v));
      throw new UsageError(
        `${command}: no row of ${file} has ${condition.column}=${condition.values.join("|")}${conditions.length > 1 ? " (with the conditions before it)" : ""}; ` +
          `its values there are: ${seen.join(", ")}`,
        command,
      );
    }
    keep = kept;
  }
  return {
    table: tableRows(table, keep),
    rows: keep,
  };
}

/**
 * The rows of `table` that meet every condition, as indices in order: for a
 * table read a chunk at a time, where a chunk may hold none. A column the
 * table lacks holds "" in every row.
 *
 * @example
 * rowsMeeting(chunk, [{ column: "model", values: ["gpt-4o"] }]); // [0, 3, 6, …]
 */
export function rowsMeeting(table: Table, conditions: readonly RowCondition[]): number[] {
  const tests = conditions.map((c) => ({ values: getColumn(table, c.column)?.values, match: valueMatcher(c) }));
  const rows: number[] = [];
  for (let i = 0; i < table.rowCount; i++) {
    if (tests.every((t) => t.match(t.values === undefined ? "" : t.values[i]) !== undefined)) rows.push(i);
  }
  return rows;
}

/**
 * The usage error for conditions that no row of a whole file met, or that
 * name a column it lacks: the column, and the file's columns or the values
 * it holds there (`seen`, a few per column).
 */
export function noRowMeets(command: string, file: string, conditions: readonly RowCondition[], columns: readonly string[], seen: ReadonlyMap<string, ReadonlySet<string>>): UsageError {
  const missing = conditions.find((c) => !columns.includes(c.column));
  if (missing !== undefined) return unknownColumn(command, file, missing.column, columns);
  const values = conditions.map((c) => `${c.column}: ${[...(seen.get(c.column) ?? [])].map((v) => (v === "" ? '""' : v)).join(", ")}`);
  return new UsageError(`${command}: no row of ${file} has ${describeConditions(conditions)}; its values are: ${values.join("; ")}`, command);
}

/**
 * The usage error for a value of `condition` that no row's column holds
 * (`matched`: the condition's values some row matched, see
 * {@link valueMatcher}; `shown`: texts of the column, a few of which the
 * message lists) — one of several values given as V1|V2, likely misspelt,
 * would otherwise be dropped without a word — else undefined.
 */
export function valueNoRowHolds(command: string, file: string, condition: RowCondition, matched: ReadonlySet<string>, shown: Iterable<string>): UsageError | undefined {
  const absent = condition.values.filter((v) => !matched.has(v));
  if (absent.length === 0 || absent.length === condition.values.length) return undefined;
  const held = new Set(shown);
  const some = [...held].slice(0, 12).map((v) => (v === "" ? '""' : v));
  return new UsageError(
    `${command}: no row of ${file} has ${condition.column}=${absent.join("|")} (of --where ${condition.column}=${condition.values.join("|")}); ` +
      `its values there are: ${some.join(", ")}${held.size > some.length ? ", …" : ""}; fix the value or leave it out`,
    command,
  );
}

/** The usage error for a `--where` column the file lacks, naming its columns. */
export function unknownColumn(command: string, file: string, column: string, columns: readonly string[]): UsageError {
  return new UsageError(`${command}: --where names column "${column}", which ${file} does not have; its columns are: ${columns.join(", ")}`, command);
}
