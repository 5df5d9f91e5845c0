/**
 * The judge's vocabulary: chat messages, the typed tasks metrics ask for, and
 * structured requests. Kept free of zod and openai types so that the public
 * `.d.ts` stays readable by the TypeScript that tslab ships.
 */

/** Who speaks in a chat message. */
export type ChatRole = "system" | "user" | "assistant";

/** A part of a multimodal message: text, or an image as a URL (we always send data URIs). */
export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "low" | "high" | "auto" } };

/** One chat message, in the OpenAI wire format. */
export interface ChatMessage {
  role: ChatRole;
  content: string | ChatContentPart[];
}

/** A context item as the relevance task sees it: text, or an image the judge must look at. */
export type RelevanceContext = { type: "text"; text: string } | { type: "image"; source: string; dataUri: string };

/**
 * What a metric asks the judge, as typed data. LLM judges read the request's
 * messages; the offline judge reads this.
 */
export type JudgeTask =
  | { kind: "extract_statements"; question: string; text: string }
  | { kind: "classify_statements"; question: string; response: readonly string[]; reference: readonly string[] }
  | { kind: "relevance"; question: string; response: string; contexts: readonly RelevanceContext[] }
  | { kind: "custom"; name: string };

/** Reply of `extract_statements`: the text's standalone claims, in its language. */
export interface StatementsReply {
  statements: string[];
}

/** Verdict on one response statement; the n-th verdict of a reply judges the n-th statement. */
export interface ResponseVerdict {
  reason: string;
  verdict: "TP" | "FP";
}

/** Verdict on one reference statement: covered by the response, or missed (FN); in statement order. */
export interface ReferenceVerdict {
  reason: string;
  verdict: "covered" | "FN";
}

/** Reply of `classify_statements`: one verdict per statement on each side, in statement order. */
export interface ClassificationReply {
  response: ResponseVerdict[];
  reference: ReferenceVerdict[];
}

/** Reply of `relevance`. */
export interface RelevanceReply {
  relevant: boolean;
  reason: string;
}

/** Outcome of checking a reply against its schema. */
export type SchemaCheck<T> = { success: true; data: T } | { success: false; error: { message: string } };

/** The part of a zod schema the judge needs: `safeParse`. Any zod schema fits. */
export interface ReplySchema<T> {
  safeParse(value: unknown): SchemaCheck<T>;
}

/** A request for a JSON reply of a known shape. */
export interface StructuredRequest<T> {
  /** The typed task (what the offline judge reads). */
  task: JudgeTask;
  /** Version of the prompt; part of the cache key. */
  promptVersion: string;
  /** The prompt an LLM judge reads. */
  messages: ChatMessage[];
  /** Name of the reply schema (letters, digits, `_`), sent with json_schema. */
  schemaName: string;
  /** JSON Schema of the reply, sent as `response_format.json_schema.schema` (strict). */
  jsonSchema: Record<string, unknown>;
  /** Validates and types the reply. */
  schema: ReplySchema<T>;
  /** Checks that a schema cannot express (e.g. one verdict per statement); returns a problem or undefined. */
  check?: (value: T) => string | undefined;
  /** Chat model for this request instead of the judge's default (e.g. a vision model). */
  model?: string;
  /**
   * How judges that answer from data instead of a model (the offline judge,
   * the labels judge) build this request's reply from simpler requests they
   * know: `answer` answers and checks one of them as they answer any request.
   * A metric's own task kinds need it to run offline.
   */
  compose?: (answer: <R>(request: StructuredRequest<R>) => Promise<R>) => Promise<T>;
  /**
   * The smaller requests a reply also answers, each with its part of the
   * reply (e.g. each answer of a batched call). A judge with a cache stores
   * every part under its own request's key when it stores the reply, so that
   * a later run finds each part without the others.
   */
  parts?: (reply: T) => RequestPart[];
}

/** One part of a reply: the request it answers alone, and its reply. */
export interface RequestPart {
  request: StructuredRequest<unknown>;
  reply: unknown;
}

/** Raised when a request fails for good (after retries): its row fails with this message. */
export class JudgeError extends Error {
  /** HTTP status of the last attempt, when there was one. */
  readonly status: number | undefined;
  /** Whether more attempts could have helped (429/5xx/timeouts). */
  readonly retryable: boolean;

  constructor(message: string, options: { status?: number; retryable?: boolean } = {}) {
    super(message);
    this.name = "JudgeError";
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }
}
