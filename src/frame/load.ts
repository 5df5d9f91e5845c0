/**
 * `loadDataset`: a file, row objects or a DataFrame in, a DataFrame with
 * canonical column names and typed columns out (the reading and checking
 * are the dataset layer's: `loadTable`).
 */
import type { DataFrame } from "danfojs-node";
import { loadTable, type DatasetSource, type LoadDatasetOptions } from "../dataset/load";
import { tableToDataFrame } from "./dataframe";

/**
 * Loads an evaluation table into a danfojs DataFrame.
 *
 * Accepts a CSV file (RFC 4180: quoted fields may hold commas, quotes and line
 * breaks), a TSV, JSONL or JSON file, an array of row objects, or a DataFrame.
 * Column aliases become the canonical names (`question` → `user_input`,
 * `answer` → `response`, `ground_truth` → `reference`, `contexts` →
 * `retrieved_contexts`, …) in place. Every column is typed from all of its
 * cells; `id`, `model` and the text columns are always text.
 *
 * Bad input fails only its row: the frame then gets an `input_error` column
 * saying, per row, which column is wrong and how to fix it, and one warning
 * line is printed. A clean table gets no extra column, so a clean CSV written
 * back with `toCSV` is byte-for-byte the file that was read.
 *
 * @throws {MissingColumnError} when a required column is missing (the message lists the columns found).
 * @throws {MissingReadColumnError} when `columns` names a column the file lacks (the message lists the columns found).
 * @throws {MalformedFileError} when a file cannot be parsed (the message names the line).
 * @example
 * const df = await loadDataset("data/qa-models.csv");
 * df.head().print();
 * // a DataFrame you already have, with your own column names:
 * const df2 = await loadDataset(myFrame, { aliases: { gold: "reference" } });
 */
export async function loadDataset(source: DatasetSource, options: LoadDatasetOptions = {}): Promise<DataFrame> {
  return tableToDataFrame(await loadTable(source, options));
}
