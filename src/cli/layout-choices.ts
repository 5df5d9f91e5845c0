/**
 * `evalframe score --dry-run`: beside the run asked for, what the cheaper
 * ways of scoring answer correctness would cost on the same rows with the
 * same judge, and what each gives up, so that the trade is made before any
 * money is spent, not after.
 */
import type { CostEstimate } from "../frame/estimate";
import type { MetricFlags } from "../metrics/registry";
import { dollars } from "../display/words";

/** One other way to score answer correctness: its flags, and what it trades away. */
export interface LayoutChoice {
  /** What the flags change, over the flags already given. */
  change: Pick<MetricFlags, "layout" | "answersPerCall" | "reasons">;
  /** What it gives up against Ragas' way of asking (its layout, one answer a call, a reason per verdict when asked for). */
  givesUp: string;
}

/**
 * The cheaper ways to ask, from the least to the most given up. Each
 * keeps the run's own reasons setting unless it names one, so that on a
 * run without reasons (the default) two of them ask alike: the first is kept.
 */
const CHOICES: readonly LayoutChoice[] = [
  { change: { layout: "fused", answersPerCall: 1 }, givesUp: "Ragas' own layout (an answer split and judged in one call)" },
  { change: { reasons: false }, givesUp: "the reason behind each verdict" },
  { change: { layout: "fused", answersPerCall: 8 }, givesUp: "each answer judged alone (up to 8 in one call)" },
  { change: { layout: "fused", answersPerCall: 8, reasons: false }, givesUp: "Ragas' layout, each answer judged alone and the reasons" },
];

/**
 * The choices that differ from what `given` asks for (the flags the run
 * was given), each with the flags it would run with (the given ones, its
 * layout changed) and those flags as a user would write them.
 *
 * @example
 * layoutChoices({}).map((c) => c.flags); // [{ layout: "fused", answersPerCall: 1 }, { layout: "fused", answersPerCall: 8 }]
 * layoutChoices({ reasons: true }).length; // 4: fused, no reasons, 8 a call, 8 a call without reasons
 */
export function layoutChoices(given: MetricFlags): { choice: LayoutChoice; flags: MetricFlags; label: string }[] {
  const same = (a: MetricFlags, b: MetricFlags) =>
    (a.layout ?? "ragas") === (b.layout ?? "ragas") && (a.answersPerCall ?? 1) === (b.answersPerCall ?? 1) && (a.reasons ?? false) === (b.reasons ?? false);
  const kept: { choice: LayoutChoice; flags: MetricFlags; label: string }[] = [];
  for (const choice of CHOICES) {
    const flags = { ...given, ...choice.change };
    if (!same(flags, given) && !kept.some((k) => same(k.flags, flags))) kept.push({ choice, flags, label: layoutFlags(flags, given) });
  }
  return kept;
}

/**
 * The layout flags a run is given, as it would be written: `--layout fused
 * --answers-per-call 8 --reasons`; `--no-reasons` (the default) only where
 * the run asked for reasons and this choice drops them.
 */
function layoutFlags(flags: MetricFlags, given: MetricFlags): string {
  const words = [
    ...(flags.layout === "fused" ? ["--layout fused"] : []),
    ...((flags.answersPerCall ?? 1) > 1 ? [`--answers-per-call ${flags.answersPerCall}`] : []),
    ...(flags.reasons === true ? ["--reasons"] : given.reasons === true ? ["--no-reasons"] : []),
  ];
  return words.length === 0 ? "the default layout" : words.join(" ");
}

/**
 * The choices that cost less than the run asked for (in dollars, or in
 * tokens where the model has no price), as a few lines under the run's own
 * estimate: paid calls and tokens per row, and the whole run's cost against
 * this one's. Empty when none is cheaper.
 *
 * @example
 * formatLayoutChoices(asked, choices);
 * // Cheaper ways to score answer correctness (same rows and judge; the whole run at list price):
 * //   this run                             2.30 calls/row  967 tokens/row  ~$0.02
 * //   --layout fused                       1.03 calls/row  715 tokens/row  ~$0.02 (0.80×)  gives up Ragas' own layout …
 */
export function formatLayoutChoices(asked: CostEstimate, choices: readonly { choice: LayoutChoice; label: string; estimate: CostEstimate }[]): string {
  const tokens = (e: CostEstimate) => e.promptTokens + e.completionTokens + e.embeddingTokens;
  const priced = asked.costUSD !== null && choices.every((c) => c.estimate.costUSD !== null);
  const price = (e: CostEstimate) => (priced ? e.costUSD! : tokens(e));
  const cheaper = choices.filter((c) => price(c.estimate) < price(asked));
  if (cheaper.length === 0) return "";
  // Paid calls: a call the cache (or an identical call of the run) answers costs nothing.
  const perRow = (e: CostEstimate) => {
    const calls = asked.rows === 0 ? 0 : (e.chatCalls - e.cachedChatCalls) / asked.rows;
    return `${calls.toFixed(calls > 0 && calls < 0.1 ? 3 : 2)} calls/row`;
  };
  const tokensPerRow = (e: CostEstimate) => `${Math.round(tokens(e) / Math.max(1, asked.rows)).toLocaleString("en-US")} tokens/row`;
  const share = (e: CostEstimate) => (price(e) / price(asked)).toFixed(2);
  const all = [
    ["this run", perRow(asked), tokensPerRow(asked), priced ? `~${dollars(asked.costUSD!)}` : "", ""],
    ...cheaper.map(({ choice, label, estimate: e }) => [
      label,
      perRow(e),
      tokensPerRow(e),
      priced ? `~${dollars(e.costUSD!)} (${share(e)}×)` : `${share(e)}× the tokens`,
      `gives up ${choice.givesUp}`,
    ]),
  ];
  const widths = all[0]!.map((_, j) => Math.max(...all.map((r) => r[j]!.length)));
  const line = (cells: string[]) => `  ${cells.map((c, j) => (j === 1 || j === 2 ? c.padStart(widths[j]!) : c.padEnd(widths[j]!))).join("  ").trimEnd()}`;
  const heading = `Cheaper ways to score answer correctness (same rows and judge; ${priced ? "the whole run at list price" : "no price for the model: compared by tokens"}):`;
  return [heading, ...all.map(line)].join("\n");
}
