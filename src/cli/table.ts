/**
 * Tables for the command line: aligned plain text (from the display layer)
 * and rows ready for JSON.
 */

export { formatTable, type TextTableOptions } from "../display/text-table";
export { frameRecords } from "../dataset/frame-like";
