/**
 * What every chart shares: the Vega-Lite spec type, the v5 schema URL, a
 * fixed colour per model, and the cap on rows a spec may inline.
 */

/** A Vega-Lite spec as plain JSON (Vega-Lite 6 specs are v5-compatible). */
export interface VegaLiteSpec {
  $schema: string;
  [key: string]: unknown;
}

/** The schema every chart declares: JupyterLab and VS Code render this MIME type. */
export const VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";

/** The most data rows a spec inlines; larger inputs are aggregated first. */
export const MAX_INLINE_ROWS = 5000;

/** Tableau 10: distinct, colour-blind-aware, and readable on white. */
const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

const assigned = new Map<string, string>();

/**
 * The colour of a model in every chart of this process: the first model seen
 * gets the first palette colour, and so on; a model keeps its colour for
 * good. `setModelColors` fixes colours by hand.
 *
 * @example
 * modelColor("atlas-pro") // "#4e79a7", in every chart
 */
export function modelColor(model: string): string {
  let colour = assigned.get(model);
  if (colour === undefined) {
    const used = new Set(assigned.values());
    colour = PALETTE.find((c) => !used.has(c)) ?? PALETTE[assigned.size % PALETTE.length]!;
    assigned.set(model, colour);
  }
  return colour;
}

/**
 * Fixes the colours of some models (CSS colours), for every chart made after.
 *
 * @example
 * setModelColors({ "gpt-4o": "#10a37f", "claude": "#d97757" });
 */
export function setModelColors(colours: Readonly<Record<string, string>>): void {
  for (const [model, colour] of Object.entries(colours)) assigned.set(model, colour);
}

/** The `color` encoding of a chart coloured by model: same model, same colour, everywhere. */
export function modelColorEncoding(models: readonly string[], field = "model", title = "Model"): Record<string, unknown> {
  return {
    field,
    type: "nominal",
    title,
    scale: { domain: [...models], range: models.map(modelColor) },
  };
}

/** The common top of a spec: schema, title, sizing and a readable font. */
export function baseSpec(title: string, subtitle?: string): VegaLiteSpec {
  const spec: VegaLiteSpec = {
    $schema: VEGA_LITE_SCHEMA,
    title: subtitle ? { text: title, subtitle } : title,
    config: { font: "DejaVu Sans, Arial, sans-serif", view: { stroke: null } },
  };
  return spec;
}
