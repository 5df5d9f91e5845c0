/**
 * `loadDataset`: one entry point for CSV, JSONL and JSON files, row objects and
 * DataFrames, giving a DataFrame with canonical column names and typed columns.
 */
import { FixableError } from "./fix-hint";
import { readText, textPieces, warner, withoutBom } from "./file-text";
import * as path from "node:path";
import type { DataFrame } from "danfojs-node";
import { isDataFrame, rawFromDataFrame } from "./frame-like";
import { CANONICAL_COLUMNS, canonicalName, INPUT_ERROR_COLUMN, type CanonicalColumn, type ColumnType } from "./columns";
import { CsvStreamParser, unescapeFormula, type CsvRecord } from "./csv";
import { parseJsonl } from "./jsonl";
import { RepeatedFields } from "./repeated-fields";
import { rawFromRecords, typeRawTable, type RawTable, type Records } from "./raw";
import { getColumn, rowAndLine, RowProblems, type Table } from "./table";
import { PaddedKeys } from "./padded-keys";
import { IdQuestions } from "./id-questions";
import { canonicalizeNames, MissingReadColumnError, requireColumns, separatorHint, validateRows, type RowPlace } from "./validate";

/** What {@link loadDataset} reads: a file path, row objects, or a danfojs DataFrame. */
export type DatasetSource = string | Records | DataFrame;

/** File formats {@link loadDataset} reads; by default chosen from the extension. */
export type DatasetFormat = "csv" | "tsv" | "jsonl" | "json";

/** Options for {@link loadDataset}. */
export interface LoadDatasetOptions {
  /** File format; default from the extension (.csv, .tsv, .jsonl/.ndjson, .json). */
  format?: DatasetFormat;
  /** CSV field separator; default `,` (tab for .tsv). */
  delimiter?: string;
  /** Canonical columns that must be present; default `["user_input", "response"]`. */
  required?: readonly CanonicalColumn[];
  /** Extra aliases, e.g. `{ gold: "reference" }` (names compared case-insensitively). */
  aliases?: Readonly<Record<string, CanonicalColumn>>;
  /** Force the type of some columns (others are decided from all their cells). */
  dtypes?: Readonly<Record<string, ColumnType>>;
  /**
   * Remove the `'` that `toCSV` puts before formula-like text; default true.
   * Only quoted fields are taken for `toCSV`'s escapes (it quotes every field
   * it escapes): an unquoted `'=…` or `'+…` is a person's own text and is
   * kept, unless the file has evalframe's own columns (`input_error`, a
   * metric's `_error` column), as files written before this rule do.
   */
  unescapeFormulas?: boolean;
  /**
   * Refuse a file that is not valid UTF-8 instead of reading its bad bytes
   * as U+FFFD with a warning naming the first such line; default false.
   */
  strict?: boolean;
  /**
   * Where to report rows with bad input (one line per load): a function, or
   * false for silence. Default `console.warn`.
   */
  warn?: false | ((message: string) => void);
  /**
   * Read only these columns (as the file names them, or by canonical name:
   * `"user_input"` keeps a `question` column), and `input_error`; the others
   * are left out as the file is read, so a large scored file's long columns
   * (`answer_correctness_statements`, the texts) cost no memory. Default: all.
   * A name the file has no column for is an error naming it and the
   * columns the file has.
   *
   * @example
   * await loadDataset("out/scored.csv", { columns: ["model", "answer_correctness", "answer_correctness_error"], required: [] });
   */
  columns?: readonly string[];
  /**
   * @internal With `columns`: read those of them the file has and leave the
   * others out without a word, instead of refusing the file (the command
   * line reads every metric's columns a file may have, and checks itself the
   * columns named by its flags). A file whose header is one column split by
   * another separator (semicolons) is still refused, naming the separator.
   * Default false.
   */
  columnsIfPresent?: boolean;
  /**
   * Rewrites each field of a CSV or TSV file as it is read, given the
   * column's name as the table will have it (`"response"` for an `answer`
   * column, an alias in `aliases` taken into account): keeps only the part of a long cell
   * that an analysis reads (`evalframe diff` keeps, of each statements cell,
   * how the row was scored; `evalframe report` keeps the whole cell only for
   * the rows it shows). `row` is the field's 0-based row in the table loaded.
   * Not applied to JSON, JSONL, rows or DataFrames.
   */
  cellText?: (column: string, text: string, row: number) => string;
}

/** A dataset read and checked, before it becomes a DataFrame. */
export interface CheckedDataset {
  /** Typed columns with canonical names. */
  table: Table;
  /** Each row's input problem, "" when the row is fine. */
  errors: string[];
  /** Where the data came from, for messages. */
  source: string;
  /** 1-based line of each row in its file, when it came from a file. */
  lines?: number[];
}

const TEXT_COLUMNS: ReadonlySet<string> = new Set(["user_input", "response", "reference"]);

/** A file's format: the option, else its extension. */
export function formatOf(file: string, options: LoadDatasetOptions): DatasetFormat {
  if (options.format) return options.format;
  const ext = path.extname(file).toLowerCase();
  if (ext === ".csv") return "csv";
  if (ext === ".tsv" || ext === ".tab") return "tsv";
  if (ext === ".jsonl" || ext === ".ndjson") return "jsonl";
  if (ext === ".json") return "json";
  throw new FixableError(`cannot tell the format of "${file}" from its extension`, { api: 'pass { format: "csv" | "tsv" | "jsonl" | "json" }', cli: "give --format csv|tsv|jsonl|json" });
}

async function readRawFile(file: string, options: LoadDatasetOptions): Promise<RawTable> {
  const format = formatOf(file, options);
  if (format === "csv" || format === "tsv") return readCsvFile(file, format, options);
  const text = await readText(file, options);
  const raw = format === "jsonl" ? jsonlRawTable(text, file) : jsonRawTable(text, file);
  return keptColumns(raw, options, file);
}

/** The rows of a JSON file as a raw table; a row that is no object is an error naming the file and the row. */
function jsonRawTable(text: string, file: string): RawTable {
  try {
    return rawFromRecords(jsonRows(text, file));
  } catch (error) {
    if (error instanceof TypeError && /^row \d+ is not an object/.test(error.message)) throw new TypeError(`${file}: ${error.message} (rows count from 0)`);
    throw error;
  }
}

function jsonlRawTable(text: string, file: string): RawTable {
  const { records, lines } = parseJsonl(text, file);
  return rawFromRecords(records, lines);
}

/**
 * A CSV or TSV file read 64 KB at a time, only the columns `options.columns`
 * keeps, each field copied out of the file's text as it is read (or the
 * string kept for the same text earlier in its column) into its column: the
 * text itself is never held whole, nor the columns left out, nor a record
 * per row.
 */
async function readCsvFile(file: string, format: DatasetFormat, options: LoadDatasetOptions): Promise<RawTable> {
  const parser = csvParser(file, format, options);
  let kept: number[] | undefined;
  let columns: string[][] = [];
  const lines: number[] = [];
  // Whether a person's own unquoted "'=…" gets one more "'" (see csvRawTable).
  let ownEscapes = false;
  let rewrite: ((field: string, at: number, row: number) => string) | undefined;
  let repeated: RepeatedFields | undefined;
  let names: string[] = [];
  const take = (batch: readonly CsvRecord[]) => {
    if (kept === undefined) {
      const header = parser.header!;
      noteSemicolons(parser, file, options, true);
      kept = keptIndices(header, options, file);
      ownEscapes = escapesOwnFormulas(header, options);
      const read = keptRecord({ fields: header, line: 1, ...(parser.headerEscapes ? { unquotedEscapes: parser.headerEscapes } : {}) }, kept, -1, new RepeatedFields(kept.length, detached));
      if (ownEscapes) escapeOwnFormulas(read);
      names = options.unescapeFormulas === false ? read.fields : read.fields.map(unescapeFormula);
      const { cellText } = options;
      if (cellText) {
        // Each column by the name the table will give it (see canonicalizeNames).
        const tableNames = names.map((name) => canonicalName(name, options.aliases) ?? name);
        rewrite = (field, at, row) => cellText(tableNames[at]!, field, row);
      }
      repeated = new RepeatedFields(kept.length, detached);
      columns = kept.map(() => []);
    }
    for (const record of batch) {
      const read = keptRecord(record, kept, lines.length, repeated!, rewrite);
      if (ownEscapes) escapeOwnFormulas(read);
      for (let at = 0; at < read.fields.length; at++) columns[at]!.push(read.fields[at]!);
      lines.push(record.line);
    }
  };
  for await (const text of textPieces(file, options)) take(parser.push(text));
  take(parser.end());
  if (parser.readSemicolons) {
    // Such a file writes its numbers with decimal commas: a column of numbers alone reads them as numbers.
    columns = columns.map((values, j) => (options.dtypes?.[names[j]!] === "string" ? values : withDecimalPoints(values)));
  }
  return { names, columns, rowCount: lines.length, origin: "text", lines };
}

/** A number as a spreadsheet writes it with a decimal comma ("0,75", "-3,5"), or a whole number. */
const COMMA_NUMBER = /^\s*[+-]?\d+(,\d+)?\s*$/;

/**
 * A column's fields with decimal commas read as points, when every field is
 * blank or such a number and one has a comma ("0,75" → "0.75"); else the
 * fields as they are (a column of text keeps its commas).
 *
 * @example
 * withDecimalPoints(["0,5", "1", ""]); // ["0.5", "1", ""]
 * withDecimalPoints(["0,5", "yes"]);   // ["0,5", "yes"]
 */
export function withDecimalPoints(values: string[]): string[] {
  let comma = false;
  for (const v of values) {
    if (v.trim() === "") continue;
    if (!COMMA_NUMBER.test(v)) return values;
    comma ||= v.includes(",");
  }
  return comma ? values.map((v) => v.replace(",", ".")) : values;
}

/**
 * Indices of the columns read: all, or those `options.columns` names (as the
 * file names them, or by canonical name), and input_error.
 *
 * @throws {MissingReadColumnError} when `options.columns` names a column `header` lacks (unless `columnsIfPresent`).
 * @throws {FixableError} when none is found because the header is one column split by another separator (semicolons).
 */
function keptIndices(header: readonly string[], options: LoadDatasetOptions, source: string): number[] {
  if (options.columns === undefined) return header.map((_, j) => j);
  const wanted = new Set([...options.columns, INPUT_ERROR_COLUMN]);
  // Each column as the file names it and by its canonical name, either of which `columns` may give.
  const known = header.map((name) => [name, canonicalName(unescapeFormula(name), options.aliases)] as const);
  const kept = known.flatMap(([name, canonical], j) => (wanted.has(name) || (canonical !== undefined && wanted.has(canonical)) ? [j] : []));
  if (options.columnsIfPresent !== true) {
    const has = new Set(known.flatMap(([name, canonical]) => (canonical === undefined ? [name] : [name, canonical])));
    const missing = [...new Set(options.columns)].filter((name) => !has.has(name));
    if (missing.length > 0) throw new MissingReadColumnError(missing, header.map(unescapeFormula), source);
  }
  // Read only the columns present, a header that is one column split by semicolons (Excel's CSV in many
  // locales) gives none, and the file must be saved again, not analysed as having no scores.
  if (kept.length === 0) refuseSplitHeader(header.map(unescapeFormula), source);
  return kept;
}

/**
 * @internal Refuses a file whose header (`names`, as the table names its
 * columns) is one column holding column names split by another separator
 * than the reader's (semicolons, as Excel writes CSV in many locales; tabs;
 * bars), naming the separator and how to save the file; else does nothing.
 * Used where the columns read are chosen (none found), and by the commands
 * that read a whole file (`evalframe report`, `chart`, `calibrate`).
 *
 * @throws {FixableError} when `names` is such a header.
 */
export function refuseSplitHeader(names: readonly string[], source: string): void {
  const resave = separatorHint(names);
  if (resave === undefined) return;
  const problem = `${source}: the file has no column to read; the columns found are "${names[0]!}"`;
  throw new FixableError(problem, { api: resave, cli: resave });
}

/** A raw table with only the columns `options.columns` names (see {@link keptIndices}). */
function keptColumns(raw: RawTable, options: LoadDatasetOptions, source: string): RawTable {
  if (options.columns === undefined) return raw;
  const kept = keptIndices(raw.names, options, source);
  return { ...raw, names: kept.map((j) => raw.names[j]!), columns: kept.map((j) => raw.columns[j]!) };
}

/**
 * A record with the kept fields only, each a copy (see {@link detached}) or the string kept for the
 * same text earlier in its column (see {@link RepeatedFields}), its escapes renumbered.
 */
function keptRecord(record: CsvRecord, kept: readonly number[], row: number, repeated: RepeatedFields, rewrite?: (field: string, at: number, row: number) => string): CsvRecord {
  const fields = kept.map((j, at) => repeated.field(at, rewrite ? rewrite(record.fields[j]!, at, row) : record.fields[j]!));
  const escapes = record.unquotedEscapes?.flatMap((j) => {
    const at = kept.indexOf(j);
    return at < 0 ? [] : [at];
  });
  return escapes !== undefined && escapes.length > 0 ? { fields, line: record.line, unquotedEscapes: escapes } : { fields, line: record.line };
}

/**
 * A copy of a field that does not keep the text it was cut from alive: V8
 * keeps the whole piece of file text behind any slice of 13 characters or
 * more, and stores a text with a character past U+00FF (one Korean answer
 * is enough) at two bytes per character, slices included. A copy of a
 * Latin-1 field takes one byte per character.
 */
function detached(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, "utf8").toString("utf8");
}

/**
 * The rows of a JSON file: an array of row objects. A leading UTF-8 BOM is
 * skipped (as the CSV and JSONL readers do); a syntax error names its line
 * and column.
 */
export function jsonRows(text: string, file: string): Records {
  const body = withoutBom(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw jsonSyntaxError(body, file, error);
  }
  if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array of row objects, got ${jsonKind(parsed)}${notAnArrayFix(parsed)}`);
  const bad = parsed.findIndex((item) => typeof item !== "object" || item === null || Array.isArray(item));
  if (bad >= 0) {
    // Said as loadDataset says it of rows read whole; here for a file read in chunks too (evalframe score).
    throw new TypeError(`${file}: row ${bad} is not an object with named fields; every row must be like { "question": "…", "answer": "…" } (rows count from 0)`);
  }
  return parsed as Records;
}

/** What a JSON value is, for messages: "a number", "an array", "one object (keys: id, model)". */
function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") {
    const keys = Object.keys(value);
    return `one object (keys: ${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", …" : ""})`;
  }
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}

/** How to fix a JSON file that is not an array: the array a key holds at the top level, else brackets around the rows. */
function notAnArrayFix(value: unknown): string {
  if (typeof value !== "object" || value === null) return "";
  const holder = Object.entries(value).find(([, v]) => Array.isArray(v) && v.length > 0 && v.every((item) => typeof item === "object" && item !== null && !Array.isArray(item)));
  if (holder !== undefined) return `; its "${holder[0]}" holds the rows: make that array the whole file`;
  return "; put the rows in [ … ], or write one object per line as JSON Lines (.jsonl)";
}

/** A sticky JSON number, for {@link jsonErrorOffset}. */
const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Where the first JSON syntax error of `text` is (a character offset), or
 * undefined when none is found: Node's own message gives no offset for an
 * unexpected token.
 */
function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw new SyntaxError(String(i));
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const string = () => {
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 0x5c) {
        const next = text[i + 1];
        if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (next !== undefined && next !== "u" && '"\\/bfnrt'.includes(next)) i += 2;
        else {
          i++;
          fail();
        }
      } else i++;
    }
    fail();
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      for (;;) {
        if (close === "}") {
          space();
          if (text[i] !== '"') fail();
          string();
          space();
          if (text[i] !== ":") fail();
          i++;
        }
        value();
        space();
        if (text[i] === ",") i++;
        else if (text[i] === close) {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '"') return string();
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    JSON_NUMBER.lastIndex = i;
    if (JSON_NUMBER.exec(text) === null) fail();
    i = JSON_NUMBER.lastIndex;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    return error instanceof SyntaxError ? Number(error.message) : undefined; // a RangeError: nested too deep to look
  }
}

/** The error for JSON that does not parse: `file, line L, column C: not valid JSON (what Node says, without its offset or quote)`. */
function jsonSyntaxError(text: string, file: string, error: unknown): Error {
  const message = (error as Error).message;
  const reason = message
    .replace(/ in JSON at position \d+.*$/s, "")
    .replace(/ at position \d+.*$/s, "")
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, "");
  const given = /at position (\d+)/.exec(message);
  const offset = given !== null ? Number(given[1]) : jsonErrorOffset(text);
  if (offset === undefined) return new Error(`${file}: not valid JSON (${reason})`);
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return new Error(`${file}, line ${line}, column ${column}: not valid JSON (${reason})`);
}

/** The field separator of a CSV or TSV file. */
function csvDelimiter(format: DatasetFormat, options: LoadDatasetOptions): string {
  return options.delimiter ?? (format === "tsv" ? "\t" : ",");
}

/**
 * The parser of a CSV or TSV file: with no delimiter given, a CSV whose
 * header line holds semicolons and no comma is read as separated by
 * semicolons (Excel's CSV in many locales), said once through `warn`.
 */
export function csvParser(file: string, format: DatasetFormat, options: LoadDatasetOptions): CsvStreamParser {
  return new CsvStreamParser({ delimiter: csvDelimiter(format, options), semicolonsIfHeaderHasThem: format === "csv" && options.delimiter === undefined }, file);
}

/**
 * Says once, through `options.warn`, that `parser` read its file as
 * separated by semicolons; `decimalCommas`: whether the read takes a column
 * of numbers written with decimal commas as numbers (a whole file's read
 * does; one a chunk at a time cannot see the whole column, and keeps them).
 */
export function noteSemicolons(parser: CsvStreamParser, file: string, options: LoadDatasetOptions, decimalCommas: boolean): void {
  const warn = warner(options);
  if (!parser.readSemicolons || warn === undefined) return;
  warn(
    `${file}: read as separated by semicolons (its header has semicolons and no comma, as Excel writes CSV in many locales); ` +
      (decimalCommas ? "a column of numbers written with decimal commas (0,8) is read as numbers" : "a number written with a decimal comma (0,8) stays text: write 0.8"),
  );
}

/**
 * The raw table of CSV records under their header. With formula unescaping
 * on, a person's own unquoted "'=…" gets one more "'" (which the unescape
 * takes off again), unless the header shows evalframe wrote the file.
 */
export function csvRawTable(header: string[], headerEscapes: number[] | undefined, records: CsvRecord[], options: LoadDatasetOptions, fileHeader: readonly string[] = header): RawTable {
  if (escapesOwnFormulas(fileHeader, options)) {
    for (const record of [{ fields: header, unquotedEscapes: headerEscapes }, ...records]) escapeOwnFormulas(record);
  }
  return {
    names: options.unescapeFormulas === false ? header : header.map(unescapeFormula),
    columns: header.map((_, j) => records.map((r) => r.fields[j])),
    rowCount: records.length,
    origin: "text",
    lines: records.map((r) => r.line),
  };
}

/** Columns only evalframe writes: a file with one was written by `toCSV`, whatever its quoting. */
const EVALFRAME_COLUMN = /^(?:input_error|answer_correctness_error|multimodal_relevance_error)$/;

/** Whether a person's own unquoted "'=…" in a file with this header gets one more "'": formulas are unescaped, and evalframe did not write the file. */
function escapesOwnFormulas(fileHeader: readonly string[], options: LoadDatasetOptions): boolean {
  return options.unescapeFormulas !== false && !fileHeader.some((name) => EVALFRAME_COLUMN.test(name));
}

/** Gives each of a record's unquoted "'=…" fields one more "'", which the unescape takes off again (see {@link escapesOwnFormulas}). */
function escapeOwnFormulas(record: { fields: string[]; unquotedEscapes?: readonly number[] | undefined }): void {
  for (const j of record.unquotedEscapes ?? []) record.fields[j] = `'${record.fields[j]!}`;
}

function describeSource(source: DatasetSource): string {
  if (typeof source === "string") return source;
  return isDataFrame(source) ? "DataFrame" : "rows";
}

/**
 * Reads and checks a dataset without building a DataFrame: the typed table
 * with canonical names, and each row's input problem. Metrics use this.
 */
export async function checkDataset(source: DatasetSource, options: LoadDatasetOptions = {}): Promise<CheckedDataset> {
  checkLoadOptions(options);
  const name = describeSource(source);
  let raw: RawTable;
  if (typeof source === "string") raw = await readRawFile(source, options);
  else if (isDataFrame(source)) raw = keptColumns(rawFromDataFrame(source), options, name);
  else if (Array.isArray(source)) raw = keptColumns(rawFromRecords(source), options, name);
  else throw new TypeError("loadDataset takes a file path, an array of row objects or a danfojs DataFrame");
  return checkRawTable(raw, name, options);
}

const COLUMN_TYPES: readonly ColumnType[] = ["string", "number", "boolean"];

/**
 * Refuses `dtypes` and `aliases` that name no type or no column evalframe
 * reads (code without types, or options parsed from JSON, can pass
 * anything): an unknown type failed deep inside danfojs, an unknown alias
 * target was ignored.
 */
function checkLoadOptions(options: LoadDatasetOptions): void {
  for (const [column, type] of Object.entries(options.dtypes ?? {})) {
    if (!COLUMN_TYPES.includes(type)) {
      throw new RangeError(`loadDataset: dtypes["${column}"] is ${JSON.stringify(type)}; a column's type is "string", "number" or "boolean"`);
    }
  }
  for (const [alias, column] of Object.entries(options.aliases ?? {})) {
    if (!CANONICAL_COLUMNS.includes(column)) {
      throw new RangeError(`loadDataset: aliases["${alias}"] is ${JSON.stringify(column)}, not a column evalframe reads; an alias names one of ${CANONICAL_COLUMNS.join(", ")}`);
    }
  }
}

/**
 * {@link checkDataset} of a raw table read already (`name` is its source, for
 * messages); `part` places a part of a file read in parts, so that messages
 * name file rows and a repeat of an earlier part's (id, model) is found.
 */
export function checkRawTable(source: RawTable, name: string, options: LoadDatasetOptions = {}, part: Omit<RowPlace, "lines"> = {}): CheckedDataset {
  checkLoadOptions(options);
  const raw = canonicalizeNames(source, name, options.aliases);
  requireColumns(raw.names, options.required ?? ["user_input", "response"], name);
  const problems = new RowProblems();
  const typeOptions: Parameters<typeof typeRawTable>[2] = { textColumns: TEXT_COLUMNS };
  if (options.dtypes) typeOptions.dtypes = options.dtypes;
  if (raw.origin === "text" && options.unescapeFormulas !== false) typeOptions.unescape = unescapeFormula;
  const table = typeRawTable(raw, problems, typeOptions);
  validateRows(table, problems, { ...part, ...(raw.lines ? { lines: raw.lines } : {}) });
  // A table loaded before (a DataFrame from loadDataset) keeps the input errors found then: the bad
  // value itself may be gone (an object in a text column became its JSON text).
  const carried = getColumn(table, INPUT_ERROR_COLUMN);
  carried?.values.forEach((v, row) => {
    if (typeof v === "string" && v.trim() !== "" && !problems.message(row).includes(v)) problems.add(row, v);
  });
  const errors = Array.from({ length: table.rowCount }, (_, row) => problems.message(row));
  const checked: CheckedDataset = { table, errors, source: name };
  if (raw.lines) checked.lines = raw.lines;
  return checked;
}

/** The one warning about a table's rows with bad input, naming the first. */
export function badInputWarning(source: string, bad: number, rows: number, first: { row: number; line: number | undefined; message: string }): string {
  const others = bad > 1 ? ` (and ${bad - 1} more)` : "";
  return (
    `evalframe: ${source}: ${bad} of ${rows} rows have bad input and will not be scored; ` +
    `see column "${INPUT_ERROR_COLUMN}". First: ${rowAndLine(first.row, first.line)}: ${first.message}${others}`
  );
}

/** "row 5 (line 7)" for messages (see {@link rowAt}). */
export function rowLabel(row: number, lines?: readonly number[]): string {
  return rowAndLine(row, lines?.[row]);
}

/**
 * {@link checkDataset}, then the table as `loadDataset` gives it: the input's
 * columns, and an `input_error` column when a row has bad input (one warning
 * line is printed, unless `warn` is false; another when `id` or `model`
 * values differ only by spaces at their ends, and another when an `id` names
 * different questions in different rows); read from a file, it keeps the
 * line each row starts on (`lines`), which messages name beside the row. The
 * frame layer turns it into a DataFrame (the lines are left behind: a frame
 * can be filtered and sorted); the command line uses it as it is.
 */
export async function loadTable(source: DatasetSource, options: LoadDatasetOptions = {}): Promise<Table> {
  const checked = await checkDataset(source, options);
  const { table, errors } = checked;
  const bad = errors.flatMap((e, row) => (e === "" ? [] : [row]));
  const withoutOldErrors = table.columns.filter((c) => c.name !== INPUT_ERROR_COLUMN);
  const columns = bad.length > 0 ? [...withoutOldErrors, { name: INPUT_ERROR_COLUMN, type: "string" as const, values: errors }] : withoutOldErrors;
  const first = bad[0];
  const warn = warner(options);
  if (first !== undefined && warn !== undefined) {
    warn(badInputWarning(checked.source, bad.length, table.rowCount, { row: first, line: checked.lines?.[first], message: errors[first]! }));
  }
  if (warn !== undefined) {
    const padded = new PaddedKeys();
    padded.note(table, 0, checked.lines);
    const ids = new IdQuestions();
    ids.note(table, 0, checked.lines);
    for (const warning of [padded.warning(checked.source), ids.warning(checked.source)]) {
      if (warning !== undefined) warn(warning);
    }
  }
  const loaded: Table = { columns, rowCount: table.rowCount };
  if (checked.lines !== undefined) loaded.lines = checked.lines;
  return loaded;
}
