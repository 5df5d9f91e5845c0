/**
 * What every chart shares: the Vega-Lite spec type, the v5 schema URL, a
 * fixed colour (and shape) per model, and the cap on rows a spec may inline.
 */
import { MODEL_PALETTE, MODEL_SHAPES } from "./palette";

/** A Vega-Lite spec as plain JSON (Vega-Lite 6 specs are v5-compatible). */
export interface VegaLiteSpec {
  $schema: string;
  [key: string]: unknown;
}

/** The schema every chart declares: JupyterLab and VS Code render this MIME type. */
export const VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";

/**
 * The outline of a point coloured by model: dark grey, so that every marker
 * stands out from the white background at WCAG's 3:1 for graphics whatever
 * its fill (Okabe–Ito's yellow is 1.2:1 on white, its orange 2.0:1).
 */
export const POINT_OUTLINE = { stroke: "#333333", strokeWidth: 0.8 } as const;

/** The most data rows a spec inlines; larger inputs are aggregated first. */
export const MAX_INLINE_ROWS = 5000;

/**
 * The most pairs of models a chart draws by default, one row each (60 rows
 * fill a tall page). With more models (12 and up), winTieLoss and
 * pairedDifferences draw each model against the best one instead and say so
 * in the subtitle; naming a baseline or the pairs draws those.
 */
export const MAX_PAIR_ROWS = 60;

const assigned = new Map<string, string>();
/** Every model in order of first use, for its shape (kept apart from `assigned` so hand-set colours keep a shape). */
const order = new Map<string, number>();

function indexOf(model: string): number {
  let i = order.get(model);
  if (i === undefined) {
    i = order.size;
    order.set(model, i);
  }
  return i;
}

/**
 * The colour of a model in every chart of this process, from
 * {@link MODEL_PALETTE} (Okabe–Ito): the first model seen gets the first
 * colour (blue), then orange, bluish green, sky blue, vermillion, reddish
 * purple, yellow, black; a model keeps its colour for good. Past eight models
 * the colours repeat, but never within one chart of up to eight models (see
 * {@link modelColors}; charts that overlay models tell them apart by shape as
 * well: {@link modelShape}). `setModelColors` fixes colours by hand.
 *
 * @example
 * modelColor("atlas-pro") // "#0072B2", in every chart
 */
export function modelColor(model: string): string {
  return modelColors([model])[0]!;
}

/**
 * The colours of the models one chart shows, in their order (see
 * {@link modelColor}). A model seen before keeps its colour; a new one gets a
 * colour that no other model of this chart has, and of those one that no
 * model has had yet if any is left. So up to eight models in one chart
 * always have eight colours, whatever other charts of the session showed
 * before (unless two of them got the same colour in charts before, when more
 * than eight models had been drawn).
 *
 * @example
 * modelColors(["atlas-pro", "swift-mini"]) // ["#0072B2", "#E69F00"]
 */
export function modelColors(models: readonly string[]): string[] {
  const inChart = new Set<string>();
  for (const model of models) {
    indexOf(model);
    const colour = assigned.get(model);
    if (colour !== undefined) inChart.add(colour);
  }
  return models.map((model) => {
    let colour = assigned.get(model);
    if (colour === undefined) {
      const used = new Set(assigned.values());
      // Past eight models, the palette over again from where it left off, skipping this chart's colours.
      const next = Array.from({ length: MODEL_PALETTE.length }, (_, k) => MODEL_PALETTE[(assigned.size + k) % MODEL_PALETTE.length]!);
      colour = MODEL_PALETTE.find((c) => !used.has(c)) ?? next.find((c) => !inChart.has(c)) ?? next[0]!;
      assigned.set(model, colour);
      inChart.add(colour);
    }
    return colour;
  });
}

/**
 * The point shape of a model in charts that overlay models (scatter,
 * threshold sweep), from {@link MODEL_SHAPES}, by order of first use: with
 * seven shapes and eight colours, no two of the first 56 models share both.
 *
 * @example
 * modelShape("atlas-pro") // "circle"
 */
export function modelShape(model: string): string {
  return MODEL_SHAPES[indexOf(model) % MODEL_SHAPES.length]!;
}

/**
 * Fixes the colours of some models (CSS colours), for every chart made after.
 * Keep them apart for colour-blind readers (test/colour-vision.test.ts shows
 * how to check with `colourDistance`).
 *
 * @example
 * setModelColors({ "gpt-4o": "#0072B2", "claude": "#D55E00" });
 */
export function setModelColors(colours: Readonly<Record<string, string>>): void {
  for (const [model, colour] of Object.entries(colours)) {
    indexOf(model);
    assigned.set(model, colour);
  }
}

/**
 * The `color` encoding of a chart coloured by model: same model, same colour, everywhere.
 *
 * @example
 * modelColorEncoding(["a", "b"]) // { field: "model", type: "nominal", title: "Model", scale: { domain: ["a", "b"], range: ["#0072B2", "#E69F00"] } }
 */
export function modelColorEncoding(models: readonly string[], field = "model", title = "Model"): Record<string, unknown> {
  return {
    field,
    type: "nominal",
    title,
    scale: { domain: [...models], range: modelColors(models) },
  };
}

/**
 * The `shape` encoding that goes with {@link modelColorEncoding} (same field
 * and title, so Vega-Lite draws one legend with both).
 *
 * @example
 * modelShapeEncoding(["a", "b"]) // { field: "model", …, scale: { domain: ["a", "b"], range: ["circle", "square"] } }
 */
export function modelShapeEncoding(models: readonly string[], field = "model", title = "Model"): Record<string, unknown> {
  modelColors(models);
  return { field, type: "nominal", title, scale: { domain: [...models], range: models.map(modelShape) } };
}

/**
 * The common top of a spec: schema, title, subtitle lines (empty ones left
 * out; e.g. what the marks mean, then the judge), a readable font, and a
 * `description` of the title and subtitle, which Vega gives the chart as its
 * accessible name (screen readers otherwise hear "Vega visualization").
 *
 * @example
 * baseSpec("Mean score", ["bars: 95% CI", undefined, "judge: hand-labelled"])
 */
export function baseSpec(title: string, subtitle?: string | readonly (string | undefined)[]): VegaLiteSpec {
  const lines = (typeof subtitle === "string" ? [subtitle] : (subtitle ?? [])).filter((l): l is string => typeof l === "string" && l !== "");
  const spec: VegaLiteSpec = {
    $schema: VEGA_LITE_SCHEMA,
    // What a screen reader announces for the chart (Vega sets it as the container's aria-label; without it, "Vega visualization").
    description: [title, ...lines].join("; "),
    title: lines.length === 0 ? title : { text: title, subtitle: lines.length === 1 ? lines[0] : lines },
    config: { font: "DejaVu Sans, Arial, sans-serif", view: { stroke: null } },
  };
  return spec;
}
