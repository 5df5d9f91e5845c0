/**
 * Reading a data file a chunk of rows at a time, so that a large file is
 * never held whole: CSV, TSV and JSONL are read as a stream (64 KB at a time);
 * a JSON array is read whole, then handed out in chunks. Same rules, checks
 * and messages as `loadDataset`, rows numbered by their line in the file.
 */
import type { CsvRecord } from "./csv";
import { parseJsonl } from "./jsonl";
import { readText, textPieces, withoutBom } from "./file-text";
import { csvParser, csvRawTable, formatOf, jsonRows, noteSemicolons, type LoadDatasetOptions } from "./load";
import { rawFromRecords, type RawTable } from "./raw";

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
  const parser = csvParser(file, format, options);
  let pending: CsvRecord[] = [];
  let sent = false;
  const take = (): RawTable => {
    if (!sent) noteSemicolons(parser, file, options, false);
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
      text = withoutBom(text);
    }
    // Only a piece with a line break ends lines: a line longer than many pieces (a base64
    // image) is gathered, not split again with every piece.
    const cut = text.lastIndexOf("\n");
    if (cut < 0) {
      partial += text;
      continue;
    }
    const parts = (partial + text.slice(0, cut + 1)).split(/\r?\n/);
    parts.pop();
    partial = text.slice(cut + 1);
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
