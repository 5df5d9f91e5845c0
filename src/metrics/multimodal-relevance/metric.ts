/**
 * Multimodal relevance (docs/architecture.md, "The metrics' arithmetic"): one
 * vision-LLM call per row says whether
 * the answer is in line with the retrieved contexts — text passages, image
 * URLs, local image files and data URIs — giving 1 or 0 with a reason.
 */
import type { Cell } from "../../dataset/table";
import { classifyContext, describeSource } from "../../context/items";
import { ImageLoader, type ImageLoadOptions } from "../../context/loader";
import type { Judge } from "../../judge/judge";
import type { RelevanceContext } from "../../judge/types";
import type { StagePlan } from "../../judge/progress";
import type { EvalRow, Metric, MetricColumn, MetricRunContext, PlanContext, PlannedCall } from "../metric";
import { imageCount, planRelevance, RELEVANCE_STAGE, relevanceCallCounts, unusableContexts } from "./plan";
import { relevanceRequest, type ImageDetail, type RelevanceRequestOptions } from "./prompts";
import { DEFAULT_IMAGE_DETAIL, MULTIMODAL_RELEVANCE_COLUMNS as COLUMNS } from "./columns";
import { errorText } from "../../display/words";
import { mapWithLimit } from "../rows";
import { DEFAULT_MAX_IMAGES_PER_ROW, DEFAULT_MAX_ROW_IMAGE_BYTES } from "../../context/limits";
import { IMAGE_DETAILS, optionNamed } from "../../context/option-names";

/** Bytes for messages, exact, with MiB from one MiB on: "43,306,000 bytes (41.3 MiB)". */
function megabytes(bytes: number): string {
  const exact = `${bytes.toLocaleString("en-US")} bytes`;
  // Exact bytes always: "32.0 MiB, more than 32.0 MiB" says nothing at the limit.
  return bytes >= 1024 * 1024 ? `${exact} (${(bytes / 1024 / 1024).toFixed(1)} MiB)` : exact;
}

/** Options of {@link multimodalRelevance}. */
export interface MultimodalRelevanceOptions extends ImageLoadOptions {
  /** Judge for this metric (default: the run's judge). Its `visionModel` answers. */
  judge?: Judge;
  /** Vision model for this metric instead of the judge's `visionModel`. */
  model?: string;
  /** Most images in one row; a row with more fails (none is dropped silently). Default 16. */
  maxImagesPerRow?: number;
  /** Image detail asked of the model; default "auto". */
  detail?: ImageDetail;
  /** A loader to share between runs (by default each run has its own, so each image is loaded once per run). */
  imageLoader?: ImageLoader;
  /**
   * Most bytes of images one request may carry (after BMP conversion, before
   * base64), default 32 MiB: a row over it fails before anything is sent
   * (OpenAI takes at most 50 MB a request, and base64 adds a third).
   */
  maxRowImageBytes?: number;
}

export { DEFAULT_MAX_ROW_IMAGE_BYTES } from "../../context/limits";

/**
 * Rows judged at once: their images are loaded just before their request
 * (so memory and open files follow this, not the table), and while one
 * window's requests are answered the next rows' images load.
 */
function rowsAtOnce(judge: Judge): number {
  return Math.max(16, 2 * (judge.concurrency ?? 0));
}

/** One row's multimodal relevance. */
export interface MultimodalRelevanceResult {
  index: number;
  /** 1 (in line with the contexts) or 0; NaN when the row failed. */
  score: number;
  reason: string;
  error: string;
  judge: string;
}

class MultimodalRelevance implements Metric<MultimodalRelevanceResult> {
  readonly name = COLUMNS.score;
  readonly requiredColumns = ["user_input", "response", "retrieved_contexts"] as const;
  readonly judge: Judge | undefined;
  private readonly maxImagesPerRow: number;
  private readonly maxRowImageBytes: number;

  constructor(private readonly options: MultimodalRelevanceOptions) {
    this.judge = options.judge;
    this.maxImagesPerRow = options.maxImagesPerRow ?? DEFAULT_MAX_IMAGES_PER_ROW;
    this.maxRowImageBytes = options.maxRowImageBytes ?? DEFAULT_MAX_ROW_IMAGE_BYTES;
    if (!Number.isInteger(this.maxImagesPerRow) || this.maxImagesPerRow < 0) {
      throw new RangeError(`maxImagesPerRow must be a whole number ≥ 0, got ${options.maxImagesPerRow}`);
    }
    if (!Number.isInteger(this.maxRowImageBytes) || this.maxRowImageBytes < 1) {
      throw new RangeError(`maxRowImageBytes must be a whole number of bytes ≥ 1, got ${options.maxRowImageBytes}`);
    }
    if (options.detail !== undefined && !(IMAGE_DETAILS as readonly string[]).includes(options.detail)) {
      throw new RangeError(`detail must be "low", "high" or "auto", got ${JSON.stringify(options.detail)}`);
    }
    if (!options.imageLoader) new ImageLoader(options); // checks the loading options now, not on the first row
  }

  columns(): MetricColumn[] {
    return [
      { name: COLUMNS.score, type: "number" },
      { name: COLUMNS.reason, type: "string" },
      { name: COLUMNS.error, type: "string" },
      { name: COLUMNS.judge, type: "string" },
      { name: COLUMNS.imageDetail, type: "string" },
    ];
  }

  cells(r: MultimodalRelevanceResult): Record<string, Cell> {
    return { [COLUMNS.score]: r.score, [COLUMNS.reason]: r.reason, [COLUMNS.error]: r.error, [COLUMNS.judge]: r.judge, [COLUMNS.imageDetail]: this.options.detail ?? DEFAULT_IMAGE_DETAIL };
  }

  failedCells(reason: string, judgeLabel: string): Record<string, Cell> {
    return this.cells({ index: -1, score: Number.NaN, reason: "", error: reason, judge: judgeLabel });
  }

  /** `judge`'s label for the vision model this metric asks (e.g. `gpt-4o @ api.openai.com`), not its chat model's. */
  labelOf(judge: Judge): string {
    return judge.labelFor?.(this.options.model ?? judge.visionModel) ?? judge.label;
  }

  planCalls(rows: readonly EvalRow[]): StagePlan[] {
    return relevanceCallCounts(rows, this.maxImagesPerRow);
  }

  plan(rows: readonly EvalRow[], context: PlanContext): Promise<PlannedCall[]> {
    const judge = this.judge ?? context.judge;
    // The loader's options, so that the plan refuses what the loader will (see refusalWithoutLoading).
    const options: RelevanceRequestOptions & { model: string; maxImagesPerRow: number; loading: ImageLoadOptions } = {
      model: this.options.model ?? judge.visionModel,
      maxImagesPerRow: this.maxImagesPerRow,
      loading: this.options,
    };
    if (this.options.detail) options.detail = this.options.detail;
    if (this.options.imageRoot !== undefined) options.imageRoot = this.options.imageRoot;
    return planRelevance(rows, { ...context, judge }, options);
  }

  async scoreRows(rows: readonly EvalRow[], context: MetricRunContext): Promise<MultimodalRelevanceResult[]> {
    const judge = context.judge; // this.judge when given, as the run holds it
    const loader = this.options.imageLoader ?? new ImageLoader(this.options);
    return mapWithLimit(rows, rowsAtOnce(judge), async (row) => {
      const result = await this.scoreRow(row, judge, loader, context);
      context.rowDone(result.error !== "");
      return result;
    });
  }

  private async scoreRow(row: EvalRow, judge: Judge, loader: ImageLoader, context: MetricRunContext): Promise<MultimodalRelevanceResult> {
    const label = this.labelOf(judge);
    const failed = (error: string): MultimodalRelevanceResult => ({ index: row.index, score: Number.NaN, reason: "", error, judge: label });
    const items = (row.retrieved_contexts ?? []).map(classifyContext);
    const unusable = unusableContexts(items);
    if (unusable !== undefined) return failed(unusable);
    const images = imageCount(row);
    if (images > this.maxImagesPerRow) {
      return failed(`the row has ${images} images, more than the ${this.maxImagesPerRow} allowed (${optionNamed("maxImagesPerRow")}); raise it or split the contexts`);
    }
    const loaded = await Promise.allSettled(
      items.map(async (item): Promise<RelevanceContext> => {
        if (item.kind === "text") return { type: "text", text: item.text };
        // A judge that does not look at images gets their sources only: nothing is fetched for it.
        if (judge.seesImages === false) return { type: "image", source: item.source, dataUri: "" };
        const image = await loader.load(item);
        return { type: "image", source: item.source, dataUri: image.dataUri };
      }),
    );
    const refused = loaded.flatMap((r, i) => (r.status === "rejected" ? [`context ${i + 1} (${describeSource((items[i] as { source: string }).source)}): ${(r.reason as Error).message}`] : []));
    if (refused.length > 0) {
      context.calls?.skip(RELEVANCE_STAGE);
      return failed(`image refused, nothing was sent: ${refused.join("; ")}`);
    }
    const contexts = loaded.map((r) => (r as PromiseFulfilledResult<RelevanceContext>).value);
    const imageBytes = contexts.reduce((sum, c) => sum + (c.type === "image" ? Math.floor(((c.dataUri.length - c.dataUri.indexOf(",") - 1) * 3) / 4) : 0), 0);
    if (imageBytes > this.maxRowImageBytes) {
      context.calls?.skip(RELEVANCE_STAGE);
      return failed(
        `the row's images come to ${megabytes(imageBytes)}, more than one request may carry (${megabytes(this.maxRowImageBytes)}: ${optionNamed("maxRowImageBytes")}); nothing was sent: split the contexts over rows, or send smaller images`,
      );
    }
    const requestOptions: RelevanceRequestOptions = { model: this.options.model ?? judge.visionModel };
    if (this.options.detail) requestOptions.detail = this.options.detail;
    if (this.options.imageRoot !== undefined) requestOptions.imageRoot = this.options.imageRoot;
    try {
      const asked = judge.complete(relevanceRequest(row.user_input, row.response, contexts, requestOptions), context.usage);
      const reply = await (context.calls ? context.calls.track(RELEVANCE_STAGE, asked) : asked);
      return { index: row.index, score: reply.relevant ? 1 : 0, reason: reply.reason, error: "", judge: label };
    } catch (error) {
      return failed(`relevance judgement failed: ${errorText(error)}`);
    }
  }
}

/**
 * The multimodal-relevance metric: a vision model reads the question, the
 * answer and every retrieved context (text, image URLs, local images, data
 * URIs — images are loaded safely, see `ImageLoader`) and says whether the
 * answer is in line with them: 1 or 0, with a reason.
 *
 * @example
 * const scored = await score(df, [multimodalRelevance({ imageRoot: "data" })]);
 * const online = await score(df, [multimodalRelevance({ detail: "low", maxImagesPerRow: 4 })]);
 */
export function multimodalRelevance(options: MultimodalRelevanceOptions = {}): Metric<MultimodalRelevanceResult> {
  return new MultimodalRelevance(options);
}
