/**
 * `evalframe/display`: tables for people — HTML tables in a notebook, aligned
 * text on a terminal, how a DataFrame prints, and the tslab handle.
 *
 * @example
 * import { tableHTML, inNotebook } from "evalframe/display";
 */
export { tableHTML, showTable } from "./table";
export type { TableHTMLOptions } from "./table";
export { formatTable } from "./text-table";
export type { TextTableOptions } from "./text-table";
export { escapeHtml, displayNumber } from "./html";
export { inNotebook } from "./tslab";
export type { NotebookDisplay } from "./tslab";
export { installDataFrameDisplay } from "./frame-display";
