/**
 * evalframe: judge LLM answers inside Jupyter notebooks.
 *
 * @example
 * import { loadDataset, toCSV } from "evalframe";
 * const df = await loadDataset("data/qa-models.csv");
 * await toCSV(df, "out/copy.csv");
 */
export { loadDataset, checkDataset, rowLabel } from "./dataset/load";
export type { DatasetSource, DatasetFormat, LoadDatasetOptions, CheckedDataset } from "./dataset/load";
export { toCSV, formatCsv } from "./dataset/export";
export type { CsvSource, ToCsvOptions } from "./dataset/export";
export { parseCsv, escapeFormula, unescapeFormula, MalformedFileError } from "./dataset/csv";
export type { CsvRecord, ParseCsvOptions, CsvWriteOptions } from "./dataset/csv";
export { parseJsonl } from "./dataset/jsonl";
export {
  CANONICAL_COLUMNS,
  COLUMN_ALIASES,
  KNOWN_COLUMN_TYPES,
  INPUT_ERROR_COLUMN,
  canonicalName,
} from "./dataset/columns";
export type { CanonicalColumn, ColumnType } from "./dataset/columns";
export { MissingColumnError, parseContexts } from "./dataset/validate";
export { toDataFrame, isDataFrame } from "./frame/dataframe";
export type { ToDataFrameOptions } from "./frame/dataframe";
export type { Records, ColumnData } from "./dataset/raw";
export type { Cell, Table, TableColumn } from "./dataset/table";
