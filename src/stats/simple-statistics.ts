/**
 * The part of simple-statistics the statistics use, loaded from its CommonJS
 * build (its own typings are ESM-only, which TypeScript 5.0 cannot import
 * from CommonJS).
 */

/** The part of simple-statistics we use (its own typings are ESM-only, which TypeScript 5.0 cannot import from CommonJS). */
export interface SimpleStatistics {
  mean(x: number[]): number;
  sampleStandardDeviation(x: number[]): number;
  quantileSorted(sorted: number[], p: number): number;
  sampleCorrelation(x: number[], y: number[]): number;
}

/** simple-statistics' CommonJS build (its "require" export), typed by {@link SimpleStatistics}. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const ss = require("simple-statistics") as SimpleStatistics;
