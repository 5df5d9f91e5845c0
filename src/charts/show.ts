/** `show`: one call that puts a chart or a table in front of the user, wherever the code runs. */
import type { DataFrame } from "danfojs-node";
import { showTable } from "../display/table";
import { displayBundle, tslab } from "../display/tslab";
import { isDataFrame } from "../frame/dataframe";
import { toPNG } from "./render";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./spec";

/** The MIME type JupyterLab and VS Code render as an interactive Vega-Lite chart. */
export const VEGA_LITE_MIME = "application/vnd.vegalite.v5+json";

function titleOf(spec: VegaLiteSpec): string {
  const title = spec["title"];
  if (typeof title === "string") return title;
  if (title && typeof title === "object" && typeof (title as { text?: unknown }).text === "string") return (title as { text: string }).text;
  return "chart";
}

/** Options of {@link show}. */
export interface ShowOptions {
  /** Attach a PNG rendering to a chart's output (for viewers without Vega, e.g. GitHub); default true. */
  png?: boolean;
}

/**
 * A Vega-Lite spec written by hand, which need not name its `$schema`
 * (Vega-Lite 5 is assumed, the version the notebook's viewer draws).
 */
export type HandWrittenSpec = { $schema?: string } & Record<string, unknown>;

/**
 * Shows a chart or a table. In a tslab notebook a chart is displayed as
 * `application/vnd.vegalite.v5+json` (the spec object; JupyterLab and VS Code
 * draw it interactively) with a PNG of it in the same output, for viewers
 * that draw no Vega; a DataFrame as an HTML table. On a terminal a table is
 * printed, and a chart is named with a hint to save it. A spec of your own
 * without `$schema` is taken as Vega-Lite 5.
 *
 * @example
 * await show(scoreBox(scored));
 * await show(summarize(scored, { by: "model" }));
 * await show({ mark: "bar", data: { values: [{ model: "a", n: 3 }] }, encoding: { x: { field: "model", type: "nominal" }, y: { field: "n", type: "quantitative" } } });
 */
export async function show(item: VegaLiteSpec | HandWrittenSpec | DataFrame, options: ShowOptions = {}): Promise<void> {
  if (isDataFrame(item)) {
    showTable(item);
    return;
  }
  const spec: VegaLiteSpec = typeof item.$schema === "string" ? (item as VegaLiteSpec) : { $schema: VEGA_LITE_SCHEMA, ...item };
  if (!tslab()) {
    console.log(`[chart: ${titleOf(spec)}] — in a notebook show() draws it; on a terminal use saveChart(spec, "chart.png")`);
    return;
  }
  const bundle: Record<string, unknown> = { [VEGA_LITE_MIME]: spec, "text/plain": `<chart: ${titleOf(spec)}>` };
  if (options.png !== false) bundle["image/png"] = (await toPNG(spec, { scale: 1.5 })).toString("base64");
  if (!displayBundle(bundle)) tslab()!.display.raw(VEGA_LITE_MIME, spec as unknown as string);
}
