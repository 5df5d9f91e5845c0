/**
 * RFC 4180 CSV reading and writing, written by us because danfojs' own
 * `toCSV` does no quoting and its reader guesses types from 20 rows.
 */

/** Raised when a CSV or JSONL file cannot be parsed; `line` is 1-based. */
export class MalformedFileError extends Error {
  /** 1-based physical line of the file where the problem is. */
  readonly line: number;
  /** The file (or "<text>") the problem is in. */
  readonly file: string;

  constructor(file: string, line: number, problem: string) {
    super(`${file}, line ${line}: ${problem}`);
    this.name = "MalformedFileError";
    this.file = file;
    this.line = line;
  }
}

/** One parsed record with the 1-based line where it starts. */
export interface CsvRecord {
  fields: string[];
  line: number;
  /**
   * Indices of fields written without quotes that look escaped by
   * {@link escapeFormula} (`'=…`, `'+…`): evalframe's export quotes every
   * field it escapes, so these are a person's own text. Absent when none.
   */
  unquotedEscapes?: number[];
}

/** Options for {@link parseCsv}. */
export interface ParseCsvOptions {
  /** Field separator; default `,`. */
  delimiter?: string;
  /** Name used in error messages; default `<text>`. */
  file?: string;
}

/**
 * Parses CSV text per RFC 4180: quoted fields may hold the delimiter, `""` and
 * line breaks; CRLF and LF both end a record; a UTF-8 BOM is skipped; a final
 * line break does not start an empty record, nor does a blank line in a file
 * of two or more columns. The first record is returned as
 * the header, the rest as records with their starting line (and the
 * header's unquoted escapes, as {@link CsvRecord.unquotedEscapes}).
 *
 * @throws {MalformedFileError} on an unclosed quote, a stray quote inside an
 *   unquoted field, text after a closing quote, a record whose field count
 *   differs from the header's, a duplicate or empty header, or an empty file.
 * @example
 * parseCsv('a,b\n1,"x, ""y"""\n').records[0].fields // ["1", 'x, "y"']
 */
export function parseCsv(text: string, options: ParseCsvOptions = {}): { header: string[]; records: CsvRecord[]; headerEscapes?: number[] } {
  const delimiter = options.delimiter ?? ",";
  const file = options.file ?? "<text>";
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === "\n" || delimiter === "\r") {
    throw new Error(`CSV delimiter must be one character other than a quote or line break, got ${JSON.stringify(delimiter)}`);
  }
  const records = tokenize(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, delimiter, file);
  const head = records.shift();
  if (head === undefined) throw new MalformedFileError(file, 1, "the file is empty; expected a header row with column names");
  const header = head.fields;
  const seen = new Map<string, number>();
  header.forEach((name, i) => {
    if (name.trim() === "") {
      throw new MalformedFileError(file, head.line, `column ${i + 1} of the header has no name; give every column a name`);
    }
    const first = seen.get(name);
    if (first !== undefined) {
      throw new MalformedFileError(file, head.line, `the header names column "${name}" twice (columns ${first + 1} and ${i + 1}); rename one`);
    }
    seen.set(name, i);
  });
  // A blank line is no record (in a one-column file it is an empty value).
  const body = header.length > 1 ? records.filter((r) => !(r.fields.length === 1 && r.fields[0] === "")) : records;
  for (const record of body) {
    if (record.fields.length !== header.length) {
      throw new MalformedFileError(
        file,
        record.line,
        `this record has ${record.fields.length} fields but the header has ${header.length}; ` +
          `quote fields that contain "${delimiter}" or line breaks`,
      );
    }
  }
  return head.unquotedEscapes ? { header, records: body, headerEscapes: head.unquotedEscapes } : { header, records: body };
}

function tokenize(text: string, delimiter: string, file: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const n = text.length;
  let atFieldStart = true;
  let quoted = false;
  let unquotedEscapes: number[] | undefined;
  // A record is pending once any character of it has been read.
  let pending = false;

  const endField = (): void => {
    if (!quoted && field.charCodeAt(0) === 0x27 && FORMULA_TRIGGER.test(field.slice(1))) (unquotedEscapes ??= []).push(fields.length);
    fields.push(field);
    field = "";
    atFieldStart = true;
    quoted = false;
  };
  const endRecord = (): void => {
    endField();
    records.push(unquotedEscapes ? { fields, line: recordLine, unquotedEscapes } : { fields, line: recordLine });
    fields = [];
    unquotedEscapes = undefined;
    pending = false;
  };

  while (i < n) {
    const ch = text[i]!;
    if (!pending) {
      pending = true;
      recordLine = line;
    }
    if (atFieldStart && ch === '"') {
      const openLine = line;
      i++;
      for (;;) {
        if (i >= n) throw new MalformedFileError(file, openLine, "a quoted field opened on this line is never closed");
        const c = text[i]!;
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (c === "\n") line++;
        field += c;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== delimiter && next !== "\n" && next !== "\r") {
        throw new MalformedFileError(file, line, `unexpected text after a closing quote; inside a quoted field write a quote as ""`);
      }
      atFieldStart = false;
      quoted = true;
      continue;
    }
    if (ch === delimiter) {
      endField();
      i++;
      continue;
    }
    if (ch === "\r" || ch === "\n") {
      endRecord();
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
      line++;
      continue;
    }
    if (ch === '"') {
      throw new MalformedFileError(file, line, `a quote inside an unquoted field; quote the whole field and write the quote as ""`);
    }
    field += ch;
    atFieldStart = false;
    i++;
  }
  if (pending) endRecord();
  return records;
}

/** Options for {@link formatCsv} and `toCSV`. */
export interface CsvWriteOptions {
  /** Record separator; default `"\n"`. Use `"\r\n"` for strict RFC 4180. */
  lineEnding?: "\n" | "\r\n";
  /** Start the file with a UTF-8 byte order mark so Excel reads it as UTF-8; default false. */
  bom?: boolean;
  /**
   * Prefix text cells that start with `=`, `+`, `-`, `@`, tab, CR or LF with `'`
   * so spreadsheets do not run them as formulas; default true. Numbers are never touched.
   * `loadDataset` removes the prefix again when it reads the file.
   */
  escapeFormulas?: boolean;
  /** Field separator; default `,`. */
  delimiter?: string;
}

const FORMULA_TRIGGER = /^'*[=+\-@\t\r\n]/;

/**
 * Makes a text cell safe to open in a spreadsheet: a value starting with a
 * formula trigger (`=`, `+`, `-`, `@`, tab, CR, LF), or with apostrophes
 * followed by one, gets one more leading `'`. {@link unescapeFormula} undoes it
 * exactly, so the pair is lossless. `toCSV` writes such a field in quotes,
 * which is how `loadDataset` tells its escapes from a person's own `'=…`.
 *
 * @example
 * escapeFormula("=SUM(A1:A3)") // "'=SUM(A1:A3)"
 * escapeFormula("plain")       // "plain"
 */
export function escapeFormula(value: string): string {
  return FORMULA_TRIGGER.test(value) ? `'${value}` : value;
}

/**
 * Inverse of {@link escapeFormula}.
 *
 * @example
 * unescapeFormula("'=SUM(A1:A3)") // "=SUM(A1:A3)"
 * unescapeFormula("'quoted")      // "'quoted" (not something we escaped)
 */
export function unescapeFormula(value: string): string {
  return value.startsWith("'") && FORMULA_TRIGGER.test(value.slice(1)) ? value.slice(1) : value;
}

/**
 * Quotes one already-formatted field when it holds the delimiter, a quote or a
 * line break (RFC 4180), doubling inner quotes.
 */
export function quoteCsvField(text: string, delimiter = ","): string {
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
