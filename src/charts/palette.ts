/**
 * The colours of every chart, chosen to read for the 1 man in 12 with
 * red–green colour blindness: Okabe–Ito for models, blue–orange for
 * outcomes and diverging scales, viridis for sequential ones. Red against
 * green never carries meaning; outcomes also differ by lightness, position,
 * shape and text labels. test/colour-vision.test.ts checks the distances
 * under a simulated deuteranopia.
 */
import { toLab } from "./colour-vision";

/**
 * The model colours: the eight colours of Okabe & Ito, "Color Universal
 * Design" (2002/2008), ordered so that the first ones are the furthest apart
 * for normal, deuteranopic and protanopic eyes (blue, orange, bluish green,
 * sky blue, vermillion, reddish purple), with yellow (faint on white) and
 * black last. Under a simulated deuteranopia every pair stays at least
 * ΔE₀₀ 11 apart, the first four at least 22.
 *
 * @example
 * setModelColors({ mine: MODEL_PALETTE[0]!, theirs: MODEL_PALETTE[1]! });
 */
export const MODEL_PALETTE: readonly string[] = ["#0072B2", "#E69F00", "#009E73", "#56B4E9", "#D55E00", "#CC79A7", "#F0E442", "#000000"];

/**
 * Point shapes given to models in charts where models share one plot (the
 * scatter, the threshold sweep), so that a model is told by shape as well as
 * colour. Seven shapes against eight colours: the 9th model reuses the first
 * colour but not the first shape, and (colour, shape) pairs repeat only after
 * 56 models.
 *
 * @example
 * MODEL_SHAPES[0] // "circle", the first model's shape
 */
export const MODEL_SHAPES: readonly string[] = ["circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "triangle-right"];

/**
 * Outcome colours of a comparison of two models: first better (dark blue),
 * tie (grey), second better (orange), in that order left to right in
 * every chart, with text labels.
 *
 * @example
 * OUTCOME_COLORS.first // "#0072B2"
 */
export const OUTCOME_COLORS = { first: "#0072B2", tie: "#BBBBBB", second: "#E69F00" } as const;

/**
 * Statement verdict colours: TP (dark blue), FP (orange), FN (light grey),
 * three clearly different lightnesses, always stacked in that order and labelled.
 *
 * @example
 * VERDICT_COLORS.FP // "#E69F00"
 */
export const VERDICT_COLORS = { TP: "#0072B2", FP: "#E69F00", FN: "#DDDDDD" } as const;

/**
 * The Vega scheme of diverging colour scales (scores around a middle, differences around zero).
 *
 * @example
 * { field: "score", type: "quantitative", scale: { scheme: DIVERGING_SCHEME, domainMid: 0.5 } }
 */
export const DIVERGING_SCHEME = "blueorange";

/**
 * The Vega scheme of sequential colour scales (counts, densities).
 *
 * @example
 * { field: "count", type: "quantitative", scale: { scheme: SEQUENTIAL_SCHEME } }
 */
export const SEQUENTIAL_SCHEME = "viridis";

/**
 * Black or white, whichever reads better on a fill colour (white on fills
 * darker than L* 55).
 *
 * @example
 * textColorOn("#0072B2") // "white"
 * textColorOn("#DDDDDD") // "black"
 */
export function textColorOn(fill: string): "black" | "white" {
  return toLab(fill)[0] < 55 ? "white" : "black";
}
