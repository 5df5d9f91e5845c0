/**
 * The calls multimodal relevance makes, known before any is made: one per
 * row, for progress and for a cost estimate. Images are not loaded for an
 * estimate: each image part is priced by its detail (see `tokenCounter`).
 */
import { bareBase64Image, classifyContext, describeSource, packedImageSources, type ContextItem } from "../../context/items";
import { refusalWithoutLoading, type ImageItem, type ImageLoadOptions } from "../../context/loader";
import type { StagePlan } from "../../judge/progress";
import type { RelevanceContext } from "../../judge/types";
import type { EvalRow, PlanContext, PlannedCall } from "../metric";
import { relevanceRequest, type RelevanceRequestOptions } from "./prompts";

/** The stage of multimodal relevance, as progress shows it. */
export const RELEVANCE_STAGE = "judging relevance";

/** A reason of the length the prompt asks for ("one or two sentences that point at the context used"). */
const TYPICAL_REPLY = JSON.stringify({ relevant: true, reason: "Context 2, the bar chart, shows Q3 as the highest quarter, as the answer says." });

/** The number of image contexts of a row. */
export function imageCount(row: EvalRow): number {
  return (row.retrieved_contexts ?? []).filter((c) => classifyContext(c).kind !== "text").length;
}

/** The strings of a text context that is itself a JSON list of strings (`["a.png", "text"]` inside the list), or undefined. */
function nestedList(text: string): string[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("[") || !trimmed.endsWith("]")) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every((v) => typeof v === "string") ? (parsed as string[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a row's contexts cannot be judged as they are written, or undefined:
 * none, or only blank ones; or a text context that is nothing but several
 * image paths or URLs in one string (a cell written one per line, or with
 * commas or semicolons, instead of as a JSON list), whose images would
 * otherwise never be sent while the row got a verdict as if they had been.
 */
export function unusableContexts(items: readonly ContextItem[]): string | undefined {
  if (items.every((item) => item.kind === "text" && item.text.trim() === "")) {
    return `${items.length === 0 ? "no retrieved contexts" : "every retrieved context is blank"}: relevance is judged against them; give "retrieved_contexts" a JSON list of passages, image paths or URLs`;
  }
  for (const [i, item] of items.entries()) {
    if (item.kind !== "text") continue;
    const bare = bareBase64Image(item.text);
    if (bare !== undefined) {
      return (
        `context ${i + 1} is a ${bare.toUpperCase()} image in base64 without "data:image/${bare};base64," in front, so it would be sent as text ` +
        `(${item.text.length.toLocaleString("en-US")} characters of letters), not as an image; write it as data:image/${bare};base64,${item.text.trim().slice(0, 12)}…`
      );
    }
    const nested = nestedList(item.text);
    // Only a list that holds an image: a context may be JSON data of its own (a tool's output), judged as text.
    if (nested !== undefined && nested.some((entry) => classifyContext(entry).kind !== "text")) {
      return `context ${i + 1} is itself a JSON list of ${nested.length} (the list was written as JSON twice?), which would be judged as one passage of text; write "retrieved_contexts" as one JSON list of strings, e.g. ${describeSource(JSON.stringify(nested.slice(0, 2).map((source) => describeSource(source))))}`;
    }
    const sources = packedImageSources(item.text);
    if (sources === undefined) continue;
    // Each source as messages show it (a URL's query, which may hold a token, is left out), at most three.
    const shown = sources.slice(0, 3).map((source) => describeSource(source));
    const list = `[${shown.map((source) => JSON.stringify(source)).join(", ")}${sources.length > 3 ? ", …" : ""}]`;
    return (
      `context ${i + 1} is ${sources.length} image paths or URLs in one string, which would be judged as text, without its images; ` +
      `write "retrieved_contexts" as a JSON list with one item each: ${list}`
    );
  }
  return undefined;
}

/**
 * Whether a row is put to the judge: it has contexts to judge the answer
 * against (see {@link unusableContexts}), and its images are within the
 * limit (any other row fails without a call).
 */
export function asksJudge(row: EvalRow, maxImagesPerRow: number): boolean {
  return unusableContexts((row.retrieved_contexts ?? []).map(classifyContext)) === undefined && imageCount(row) <= maxImagesPerRow;
}

/** One call per row put to the judge (see {@link asksJudge}). */
export function relevanceCallCounts(rows: readonly EvalRow[], maxImagesPerRow: number): StagePlan[] {
  return [{ stage: RELEVANCE_STAGE, calls: rows.filter((row) => asksJudge(row, maxImagesPerRow)).length }];
}

/**
 * Why a row will fail before its call, or undefined: under the offline judge,
 * any image (it cannot see them); under a judge that sees images, the first
 * image the loader will refuse, found without loading it
 * (`refusalWithoutLoading`: a local file's path, kind, size and type).
 * `refusals` holds each source's answer, so an image many rows name is looked at once.
 */
async function failureBeforeCall(row: EvalRow, context: PlanContext, loading: ImageLoadOptions, refusals: Map<string, Promise<string | undefined>>): Promise<string | undefined> {
  const items = (row.retrieved_contexts ?? []).map(classifyContext);
  for (const [i, item] of items.entries()) {
    if (item.kind === "text") continue;
    const where = `context ${i + 1}: ${describeSource(item.source)}`;
    if (context.judge.kind === "offline") return `${where}: the ${context.judge.label} judge cannot see images`;
    // A judge that does not look at images (hand labels) is given their sources only: nothing is loaded for it.
    if (context.judge.seesImages === false) return undefined;
    let refusal = refusals.get(item.source);
    if (refusal === undefined) refusals.set(item.source, (refusal = refusalWithoutLoading(item as ImageItem, loading)));
    const why = await refusal;
    if (why !== undefined) return `${where}: ${why}`;
  }
  return undefined;
}

/**
 * Every relevance call for `rows`: exact for rows with text contexts only;
 * with images, the request holds each image as an unloaded part (its bytes
 * are not read for an estimate), so it is marked predicted and taken as not
 * cached (the cache key holds the image's bytes). A row that will fail before
 * its call (see `failureBeforeCall`: a refused image, or any image for the
 * offline judge) is given no call and told to `context.willFail`.
 */
export async function planRelevance(
  rows: readonly EvalRow[],
  context: PlanContext,
  options: RelevanceRequestOptions & { model: string; maxImagesPerRow: number; loading?: ImageLoadOptions },
): Promise<PlannedCall[]> {
  const calls: PlannedCall[] = [];
  const refusals = new Map<string, Promise<string | undefined>>();
  for (const row of rows) {
    // Each context read once for the checks and the request (asksJudge's checks, on these items).
    const items = (row.retrieved_contexts ?? []).map(classifyContext);
    const unusable = unusableContexts(items);
    if (unusable !== undefined) {
      context.willFail?.(row, unusable);
      continue;
    }
    if (items.filter((item) => item.kind !== "text").length > options.maxImagesPerRow) continue;
    const failure = await failureBeforeCall(row, context, { ...(options.loading ?? {}), ...(options.imageRoot !== undefined ? { imageRoot: options.imageRoot } : {}) }, refusals);
    if (failure !== undefined) {
      context.willFail?.(row, failure);
      continue;
    }
    const contexts = items.map((item): RelevanceContext => (item.kind === "text" ? { type: "text", text: item.text } : { type: "image", source: item.source, dataUri: "" }));
    const requestOptions: RelevanceRequestOptions = { model: options.model };
    if (options.detail) requestOptions.detail = options.detail;
    if (options.imageRoot !== undefined) requestOptions.imageRoot = options.imageRoot;
    const request = relevanceRequest(row.user_input, row.response, contexts, requestOptions);
    const predicted = contexts.some((c) => c.type === "image");
    const cached = !predicted && (await context.cachedReply(request)) !== undefined;
    calls.push({ kind: "chat", stage: RELEVANCE_STAGE, request, predicted, cached, replyTokens: (tokens) => tokens(TYPICAL_REPLY) });
  }
  return calls;
}
