/**
 * RFC 4180 CSV reading and writing, written by us because danfojs' own
 * `toCSV` does no quoting and its reader guesses types from 20 rows.
 */
import { withoutBom } from "./file-text";
import { shortened } from "../display/words";

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
  /**
   * Read the file as separated by semicolons when its header line holds
   * semicolons and no comma (Excel's "CSV" in many locales: a header with no
   * comma could only be one column named "a;b;c"). Default false.
   */
  semicolonsIfHeaderHasThem?: boolean;
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
  const parser = new CsvStreamParser(options);
  const records = [...parser.push(text), ...parser.end()];
  const header = parser.header!;
  return parser.headerEscapes ? { header, records, headerEscapes: parser.headerEscapes } : { header, records };
}

function checkDelimiter(delimiter: string): string {
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === "\n" || delimiter === "\r") {
    throw new Error(`CSV delimiter must be one character other than a quote or line break, got ${JSON.stringify(delimiter)}`);
  }
  return delimiter;
}

/**
 * The header's names, refused when one is empty or repeated. Unnamed
 * columns at the end are not part of it (a spreadsheet's export often
 * carries a few, empty, past the last column used): the records' fields
 * there must be empty, and are dropped (see {@link bodyRecords}).
 */
function checkHeader(head: CsvRecord, file: string): string[] {
  let named = head.fields.length;
  while (named > 0 && head.fields[named - 1]!.trim() === "") named--;
  if (named === 0) throw new MalformedFileError(file, head.line, "the header row names no column; give every column a name");
  const header = head.fields.slice(0, named);
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
  return header;
}

/**
 * The records after the header: blank lines dropped (unless the file has one
 * column), each with the header's field count, or with `width` fields (the
 * header's, unnamed columns at its end included) whose fields past the named
 * ones are empty, and are dropped.
 */
function bodyRecords(records: CsvRecord[], header: readonly string[], width: number, delimiter: string, file: string): CsvRecord[] {
  // A blank line is no record (in a one-column file it is an empty value).
  const body = width > 1 ? records.filter((r) => !(r.fields.length === 1 && r.fields[0] === "")) : records;
  for (const record of body) {
    if (record.fields.length === width && width > header.length) {
      const extra = record.fields.findIndex((field, i) => i >= header.length && field.trim() !== "");
      if (extra >= 0) {
        const value = record.fields[extra]!;
        throw new MalformedFileError(
          file,
          record.line,
          `this record has a value in column ${extra + 1} (${JSON.stringify(shortened(value, 30))}), which the header gives no name; name that column in the header`,
        );
      }
      record.fields.length = header.length;
      continue;
    }
    if (record.fields.length !== header.length) {
      const unnamed = width > header.length ? ` (and ${width - header.length} unnamed, empty ${width - header.length === 1 ? "column" : "columns"} after them)` : "";
      throw new MalformedFileError(
        file,
        record.line,
        `this record has ${record.fields.length} fields but the header has ${header.length}${unnamed}; ` +
          `quote fields that contain "${delimiter}" or line breaks`,
      );
    }
  }
  return body;
}

/**
 * CSV read piece by piece, for files too large to hold as one text: push
 * text as it arrives, get the records it completes (the unfinished last one
 * waits for the next piece), then `end()`. Same rules and messages as
 * {@link parseCsv}; the header comes first, as `header`.
 */
export class CsvStreamParser {
  /** The header's names, once its record is complete. */
  header: string[] | undefined;
  /** The header's unquoted escapes (see {@link CsvRecord.unquotedEscapes}). */
  headerEscapes: number[] | undefined;
  /** The header's fields, unnamed ones at its end included. */
  private width = 0;
  private rest = "";
  /** Pieces waiting behind an unfinished record that is longer than they are. */
  private waiting: string[] = [];
  private waitingLength = 0;
  private line = 1;
  private started = false;
  private delimiter: string;
  private readonly detectSemicolons: boolean;
  /** True when the header line held semicolons and no comma, so the file is read as separated by semicolons. */
  readSemicolons = false;

  constructor(
    options: ParseCsvOptions = {},
    private readonly file = options.file ?? "<text>",
  ) {
    this.delimiter = checkDelimiter(options.delimiter ?? ",");
    this.detectSemicolons = options.semicolonsIfHeaderHasThem === true && this.delimiter === ",";
  }

  /** Records completed by this piece of text (after the header). */
  push(text: string): CsvRecord[] {
    // An unfinished record is scanned again from its start with the next text. A record far
    // longer than the pieces (a base64 image in a cell) waits until the text behind it is as
    // long as itself, so it is scanned a few times, not once per piece.
    this.waiting.push(text);
    this.waitingLength += text.length;
    if (this.waitingLength < this.rest.length) return [];
    return this.parse(this.takeWaiting(), false);
  }

  /** The last records, at the end of the text. */
  end(): CsvRecord[] {
    const records = this.parse(this.takeWaiting(), true);
    if (this.header === undefined) throw new MalformedFileError(this.file, 1, "the file is empty; expected a header row with column names");
    return records;
  }

  private takeWaiting(): string {
    const text = this.waiting.length === 1 ? this.waiting[0]! : this.waiting.join("");
    this.waiting = [];
    this.waitingLength = 0;
    return text;
  }

  private parse(text: string, final: boolean): CsvRecord[] {
    let buffer = this.rest + text;
    if (!this.started && buffer.length > 0) {
      this.started = true;
      buffer = withoutBom(buffer);
    }
    if (this.header === undefined && this.detectSemicolons) {
      // Decided on the header's whole first line (waiting for it when a piece ends inside it).
      const end = buffer.search(/[\r\n]/);
      if (end < 0 && !final) {
        this.rest = buffer;
        return [];
      }
      const first = end < 0 ? buffer : buffer.slice(0, end);
      // A line that ends inside a quoted name (an odd count of quotes) is not the whole header: it is not judged.
      const quotes = first.split('"').length - 1;
      if (first.includes(";") && !first.includes(",") && quotes % 2 === 0) {
        this.delimiter = ";";
        this.readSemicolons = true;
      }
    }
    const { records, restStart, restLine } = tokenize(buffer, this.delimiter, this.file, this.line, final);
    this.rest = buffer.slice(restStart);
    this.line = restLine;
    if (this.header === undefined) {
      const head = records.shift();
      if (head === undefined) return [];
      this.header = checkHeader(head, this.file);
      this.width = head.fields.length;
      this.headerEscapes = head.unquotedEscapes?.filter((i) => i < this.header!.length);
      if (this.headerEscapes?.length === 0) this.headerEscapes = undefined;
    }
    return bodyRecords(records, this.header, this.width, this.delimiter, this.file);
  }
}

/**
 * Records of `text`, its first line numbered `firstLine`. Unless `final`,
 * an unfinished last record (no line break after it yet, an open quote, a
 * lone CR) is not returned: `restStart` is where it begins, for the next call.
 */
function tokenize(text: string, delimiter: string, file: string, firstLine: number, final: boolean): { records: CsvRecord[]; restStart: number; restLine: number } {
  const records: CsvRecord[] = [];
  const delimiterCode = delimiter.charCodeAt(0);
  let fields: string[] = [];
  let field = "";
  let line = firstLine;
  let recordLine = firstLine;
  let recordStart = 0;
  let i = 0;
  const n = text.length;
  let atFieldStart = true;
  let quoted = false;
  let unquotedEscapes: number[] | undefined;
  // A record is pending once any character of it has been read.
  let pending = false;
  // Where the next line break at or after a quoted field's current position is (n when none is left).
  let nextBreak = -1;
  const breakFrom = (from: number): number => {
    const at = text.indexOf("\n", from);
    return at < 0 ? n : at;
  };

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
  const unfinished = () => ({ records, restStart: recordStart, restLine: recordLine });

  while (i < n) {
    const ch = text[i]!;
    if (!pending) {
      pending = true;
      recordLine = line;
      recordStart = i;
    }
    if (atFieldStart && ch === '"') {
      const openLine = line;
      i++;
      // The field is the text up to the closing quote (line breaks counted), each "" in it read as
      // one quote: taken in one piece, since a JSON cell has hundreds of "" and a string
      // concatenated from hundreds of pieces is slow to read.
      const start = i;
      let doubled = false;
      for (;;) {
        const quote = text.indexOf('"', i);
        const stop = quote < 0 ? n : quote;
        // Line breaks inside the field; the next one past it is remembered, not searched for again at every "".
        if (nextBreak < i) nextBreak = breakFrom(i);
        while (nextBreak < stop) {
          line++;
          nextBreak = breakFrom(nextBreak + 1);
        }
        i = stop;
        if (i >= n) {
          if (!final) return unfinished();
          throw new MalformedFileError(file, openLine, "a quoted field opened on this line is never closed");
        }
        if (i + 1 >= n && !final) return unfinished();
        if (text[i + 1] === '"') {
          doubled = true;
          i += 2;
          continue;
        }
        break;
      }
      const inside = text.slice(start, i);
      field += doubled ? inside.replaceAll('""', '"') : inside;
      i++;
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
      if (ch === "\r" && i + 1 >= n && !final) return unfinished();
      endRecord();
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
      line++;
      continue;
    }
    if (ch === '"') {
      throw new MalformedFileError(file, line, `a quote inside an unquoted field; quote the whole field and write the quote as ""`);
    }
    // An unquoted run: up to the next delimiter, line break or quote, taken in one piece.
    let end = i + 1;
    while (end < n) {
      const c = text.charCodeAt(end);
      if (c === delimiterCode || c === 0x0a || c === 0x0d || c === 0x22) break;
      end++;
    }
    field += text.slice(i, end);
    atFieldStart = false;
    i = end;
  }
  if (pending) {
    if (!final) return unfinished();
    endRecord();
  }
  return { records, restStart: n, restLine: line };
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
