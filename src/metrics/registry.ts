/**
 * The metric registry: every metric evalframe knows, with what the rest of
 * the package reads about it — its columns, the input it needs, how its
 * scores read, and how the command line builds it. The CLI, `summarize`, the
 * report and the charts take metric names from here, so a new metric is one
 * module under `metrics/` plus one {@link registerMetric} line.
 *
 * This file and the definitions it lists import no metric implementation at
 * load time (each definition's `create` loads its metric when called), so
 * reading the registry stays cheap for `evalframe summarize`.
 */
import type { MetricDefinition } from "./definition";
import { ANSWER_CORRECTNESS } from "./answer-correctness/definition";
import { MULTIMODAL_RELEVANCE } from "./multimodal-relevance/definition";

export type { MetricDefinition, MetricFlags, PreferredChart, ScoringRecord } from "./definition";

const registry: MetricDefinition[] = [];
/** Every definition's score column then its extra score columns, in registry order; one live array. */
const scoreColumns: string[] = [];

function refreshScoreColumns(): void {
  scoreColumns.splice(0, scoreColumns.length, ...registry.flatMap((d) => [d.scoreColumn, ...d.extraScoreColumns]));
}

/**
 * Adds a metric to the registry (after those already there). Its name must be
 * new, lower-case words joined by `_`.
 *
 * @throws {Error} when a metric of that name is already registered, or the name is not snake_case.
 * @example
 * registerMetric({ name: "answer_length", label: "answer length", scoreColumn: "answer_length", ... });
 */
export function registerMetric(definition: MetricDefinition): void {
  if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(definition.name)) {
    throw new Error(`registerMetric: a metric's name is lower-case words joined by "_", got ${JSON.stringify(definition.name)}`);
  }
  if (registry.some((d) => d.name === definition.name)) throw new Error(`registerMetric: ${definition.name} is already registered`);
  registry.push(definition);
  refreshScoreColumns();
}

/**
 * Removes a metric from the registry (for tests that register their own);
 * true when it was there.
 *
 * @example
 * unregisterMetric("answer_length"); // true
 */
export function unregisterMetric(name: string): boolean {
  const at = registry.findIndex((d) => d.name === name);
  if (at < 0) return false;
  registry.splice(at, 1);
  refreshScoreColumns();
  return true;
}

/**
 * The definition of a registered metric, or undefined.
 *
 * @example
 * metricDefinition("multimodal_relevance")?.binary; // true
 */
export function metricDefinition(name: string): MetricDefinition | undefined {
  return registry.find((d) => d.name === name);
}

/**
 * Every registered definition, in registry order (answer correctness first).
 *
 * @example
 * metricDefinitions().map((d) => d.label); // ["answer correctness", "multimodal relevance"]
 */
export function metricDefinitions(): readonly MetricDefinition[] {
  return [...registry];
}

/**
 * The registered metrics' names, in registry order.
 *
 * @example
 * metricNames(); // ["answer_correctness", "multimodal_relevance"]
 */
export function metricNames(): string[] {
  return registry.map((d) => d.name);
}

/**
 * The score columns summarized when none is named: each metric's score column,
 * then its extra ones, in registry order. The array is live: it follows
 * {@link registerMetric} and {@link unregisterMetric}.
 *
 * @example
 * defaultScoreColumns(); // ["answer_correctness", "answer_correctness_continuous", "multimodal_relevance"]
 */
export function defaultScoreColumns(): readonly string[] {
  return scoreColumns;
}

/**
 * The definition a score column belongs to: the metric of that name, else the
 * one listing it as an extra score column (`answer_correctness_continuous` →
 * answer correctness).
 *
 * @example
 * definitionOfColumn("answer_correctness_continuous")?.name; // "answer_correctness"
 */
export function definitionOfColumn(column: string): MetricDefinition | undefined {
  return metricDefinition(column) ?? registry.find((d) => d.extraScoreColumns.includes(column));
}

registerMetric(ANSWER_CORRECTNESS);
registerMetric(MULTIMODAL_RELEVANCE);
