/**
 * `evalframe/dataset`: reading and writing tables below the DataFrame API —
 * CSV and JSON Lines parsing, CSV's formula escaping, the canonical columns
 * and their aliases, row checks.
 *
 * @example
 * import { parseCsv, COLUMN_ALIASES } from "evalframe/dataset";
 */
export { checkDataset, loadTable, rowLabel } from "./load";
export type { DatasetSource, DatasetFormat, LoadDatasetOptions, CheckedDataset } from "./load";
export { toCSV, formatCsv } from "./export";
export type { CsvSource, ToCsvOptions } from "./export";
export { parseCsv, escapeFormula, unescapeFormula, MalformedFileError } from "./csv";
export type { CsvRecord, ParseCsvOptions, CsvWriteOptions } from "./csv";
export { parseJsonl } from "./jsonl";
export { CANONICAL_COLUMNS, COLUMN_ALIASES, KNOWN_COLUMN_TYPES, INPUT_ERROR_COLUMN, canonicalName } from "./columns";
export type { CanonicalColumn, ColumnType } from "./columns";
export { MissingColumnError, MissingReadColumnError, parseContexts } from "./validate";
export { isDataFrame, isTable, readFrame, frameRecords } from "./frame-like";
export type { FrameInput } from "./frame-like";
export { FixableError } from "./fix-hint";
export type { CliWorded } from "./fix-hint";
export type { Records, ColumnData } from "./raw";
export type { Cell, Table, TableColumn } from "./table";
