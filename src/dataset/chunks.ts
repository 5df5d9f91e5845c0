/**
 * Reading a data file a chunk of rows at a time, so that a large file is
 * never held whole: CSV, TSV and JSONL are read as a stream (1 MB at a time);
 * a JSON array is read whole, then handed out in chunks. Same rules, checks
 * and messages as `loadDataset`, rows numbered by their line in the file.
 */
import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { CsvStreamParser, type CsvRecord } from "./csv";
import { parseJsonl } from "./jsonl";
import { cannotRead, csvDelimiter, csvRawTable, formatOf, jsonRows, notUtf8, readText, type LoadDatasetOptions } from "./load";
import { rawFromRecords, type RawTable } from "./raw";

/** Bytes read from the file at a time. */
const PIECE_BYTES = 1 << 20;

/**
 * The text of a file, piece by piece: whole UTF-8 characters only (a
 * character cut at a piece's end waits for the next), bytes that are not
 * UTF-8 read as U+FFFD and reported once, naming the line (see `notUtf8`).
 */
async function* textPieces(file: string, options: LoadDatasetOptions): AsyncGenerator<string> {
  let carry = Buffer.alloc(0);
  let lines = 1;
  let reported = false;
  const decode = (bytes: Buffer): string => {
    const text = bytes.toString("utf8");
    if (!reported && !isUtf8(bytes)) {
      reported = true;
      notUtf8(file, lines + countLines(text.slice(0, text.indexOf("\uFFFD") + 1)), options);
    }
    lines += countLines(text);
    return text;
  };
  const stream = createReadStream(file, { highWaterMark: PIECE_BYTES });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      const cut = wholeCharacters(bytes);
      carry = Buffer.from(bytes.subarray(cut));
      if (cut > 0) yield decode(bytes.subarray(0, cut));
    }
  } catch (error) {
    throw cannotRead(file, error);
  }
  if (carry.length > 0) yield decode(carry);
}

function countLines(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) n++;
  return n;
}

/** Where the last, possibly unfinished, UTF-8 character of `bytes` starts (bytes.length when it is whole). */
function wholeCharacters(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/**
 * The rows of a data file as raw tables of at most `chunkRows` rows each, in
 * order (the first chunk has the header's columns even when the file has no
 * rows). Columns are as the file names them (aliases are not applied here).
 *
 * @throws {MalformedFileError} naming the line, as `loadDataset` does.
 */
export async function* readRawChunks(file: string, options: LoadDatasetOptions, chunkRows: number): AsyncGenerator<RawTable> {
  const format = formatOf(file, options);
  if (format === "json") {
    const rows = jsonRows(await readText(file, options), file);
    for (let at = 0; at === 0 || at < rows.length; at += chunkRows) yield rawFromRecords(rows.slice(at, at + chunkRows));
    return;
  }
  if (format === "jsonl") {
    yield* jsonlChunks(file, options, chunkRows);
    return;
  }
  const parser = new CsvStreamParser({ delimiter: csvDelimiter(format, options) }, file);
  let pending: CsvRecord[] = [];
  let sent = false;
  const take = (): RawTable => {
    sent = true;
    const chunk = pending.slice(0, chunkRows);
    pending = pending.slice(chunkRows);
    return csvRawTable([...parser.header!], parser.headerEscapes, chunk, options);
  };
  for await (const text of textPieces(file, options)) {
    for (const record of parser.push(text)) pending.push(record);
    while (pending.length >= chunkRows) yield take();
  }
  for (const record of parser.end()) pending.push(record);
  while (pending.length > 0 || !sent) yield take();
}

async function* jsonlChunks(file: string, options: LoadDatasetOptions, chunkRows: number): AsyncGenerator<RawTable> {
  let partial = "";
  let lines: string[] = [];
  let filled = 0;
  let firstLine = 1;
  let sent = false;
  let started = false;
  const take = (): RawTable => {
    sent = true;
    const { records, lines: numbers } = parseJsonl(lines.join("\n"), file, firstLine);
    firstLine += lines.length;
    lines = [];
    filled = 0;
    return rawFromRecords(records, numbers);
  };
  for await (let text of textPieces(file, options)) {
    if (!started) {
      started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const parts = (partial + text).split(/\r?\n/);
    partial = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      if (line.trim() !== "") filled++;
      if (filled >= chunkRows) yield take();
    }
  }
  if (partial !== "") {
    lines.push(partial);
    if (partial.trim() !== "") filled++;
  }
  if (filled > 0 || !sent) yield take();
}
