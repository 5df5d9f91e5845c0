/**
 * Structured replies: how a request asks for JSON of a given shape, and how a
 * reply is read and checked.
 */
import type { ChatMessage, StructuredRequest } from "./types";
import { withoutBom } from "../dataset/file-text";
import { shortened } from "../display/words";

/**
 * How the server is asked for JSON: strict json_schema; strict json_schema
 * without string-length limits (for servers that refuse `maxLength`);
 * json_object with the schema in the prompt; or, for a server that refuses
 * both (LM Studio with a model it cannot constrain), no `response_format`
 * at all and the schema in the prompt (`prompt`).
 */
export type StructuredMode = "json_schema" | "json_schema_no_length" | "json_object" | "prompt";

/** A copy of a JSON Schema without `maxLength` and `minLength` anywhere. */
export function withoutLengthLimits(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutLengthLimits);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key !== "maxLength" && key !== "minLength") out[key] = withoutLengthLimits(value);
  }
  return out;
}

/** The `response_format` body field for a request; undefined in `prompt` mode (none is sent). */
export function responseFormat<T>(request: StructuredRequest<T>, mode: StructuredMode): Record<string, unknown> | undefined {
  if (mode === "prompt") return undefined;
  if (mode === "json_object") return { type: "json_object" };
  const { $schema: _ignored, ...schema } = request.jsonSchema;
  return { type: "json_schema", json_schema: { name: request.schemaName, strict: true, schema: mode === "json_schema" ? schema : withoutLengthLimits(schema) } };
}

/**
 * The messages to send. In json_object mode the schema goes into the system
 * prompt, since the server will not enforce it.
 */
export function messagesFor<T>(request: StructuredRequest<T>, mode: StructuredMode): ChatMessage[] {
  if (mode !== "json_object" && mode !== "prompt") return request.messages;
  const { $schema: _ignored, ...schema } = request.jsonSchema;
  const instruction = `Reply with one JSON object and nothing else. It must match this JSON Schema:\n${JSON.stringify(schema)}`;
  const [first, ...rest] = request.messages;
  if (first?.role === "system" && typeof first.content === "string") {
    return [{ role: "system", content: `${first.content}\n\n${instruction}` }, ...rest];
  }
  return [{ role: "system", content: instruction }, ...request.messages];
}

/** A short, single-line excerpt of a reply for error messages. */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return shortened(flat, max + 1);
}

/** Outcome of reading a reply. */
export type ReadReply<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Reasoning blocks at the start of a reply (`<think>…</think>`, `<thinking>`, `<reasoning>`), one or more. */
const LEADING_REASONING = /^\s*(?:<(think|thinking|reasoning)>[\s\S]*?<\/\1>\s*)+/i;
/**
 * Only the end of a reasoning block, before a reply that starts like JSON or
 * a fence: the chat template opened the block in the prompt (DeepSeek-R1's does).
 */
const REASONING_END = /^[\s\S]*?<\/(?:think|thinking|reasoning)>\s*(?=[{[`])/i;

/**
 * A reply without the reasoning a reasoning model put before its answer
 * (Ollama and vLLM pass `<think>…</think>` on in the content); a reply that
 * starts like JSON is left as it is.
 *
 * @example
 * withoutReasoning('<think>Easy.</think>\n{"ok": true}') // '{"ok": true}'
 */
export function withoutReasoning(text: string): string {
  const block = LEADING_REASONING.exec(text);
  if (block) return text.slice(block[0].length);
  if (/^\s*[{[]/.test(text)) return text;
  const end = REASONING_END.exec(text);
  return end ? text.slice(end[0].length) : text;
}

/** ` (finish_reason "…": what it means)` for a reply with nothing to read; "" without one. */
function finishNote(finishReason: string | null | undefined): string {
  if (!finishReason) return "";
  const meaning: Record<string, string> = {
    content_filter: ": the server's content filter withheld the reply",
    length: ": the token limit was reached before any content",
    stop: "",
  };
  return ` (finish_reason "${finishReason}"${meaning[finishReason] ?? ""})`;
}

/**
 * Why a chat completion's first choice has nothing to read, or undefined
 * when it has content: no choice at all, a refusal (structured outputs), or
 * a message without content (said with its finish_reason, e.g.
 * content_filter or length).
 */
export function missingContent(choice: { message?: { content?: unknown; refusal?: unknown } | null; finish_reason?: unknown } | undefined): string | undefined {
  if (choice === undefined) return "the reply had no choices";
  const message = choice.message;
  if (typeof message?.content === "string") return undefined;
  if (typeof message?.refusal === "string" && message.refusal !== "") return `the model refused: "${excerpt(message.refusal)}"`;
  return `the reply's message had no content${finishNote(typeof choice.finish_reason === "string" ? choice.finish_reason : undefined)}`;
}

/**
 * Reads a reply's content as the request's JSON: skips a reasoning block
 * before it (see {@link withoutReasoning}), strips a Markdown code fence if
 * the model added one, parses, validates with the schema, then runs the
 * request's own check. `finishReason` "length" means the reply was cut off;
 * no content at all is said as such (see {@link missingContent}).
 */
export function readReply<T>(request: StructuredRequest<T>, content: string | null | undefined, finishReason: string | null | undefined): ReadReply<T> {
  if (typeof content !== "string") {
    return { ok: false, problem: missingContent({ message: { content: null }, finish_reason: finishReason ?? null })! };
  }
  if (finishReason === "length") {
    return { ok: false, problem: `the reply was cut off at the token limit (finish_reason "length"): "${excerpt(content)}"` };
  }
  if (content.trim() === "") return { ok: false, problem: `the reply's message was empty${finishNote(finishReason)}` };
  // What problems quote: the reply after its reasoning, which says nothing of what was wrong.
  const text = withoutReasoning(withoutBom(content));
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  const body = fenced ? fenced[1]! : text;
  const parsed = parseLenient(body);
  if (parsed === undefined) return { ok: false, problem: `the reply is not valid JSON: "${excerpt(text)}"` };
  return checkReply(request, parsed.value, text);
}

/**
 * Parses a model's JSON reply as it is, else the way local models write it
 * without a server that enforces the schema: one complete JSON object with
 * prose before or after it (or in a code fence among prose), and trailing
 * commas before a closing bracket. Undefined when no complete object is
 * there; the schema check that follows decides whether it is the answer.
 *
 * @example
 * parseLenient('{"a": [1, 2,],}\nHope this helps!') // { value: { a: [1, 2] } }
 */
export function parseLenient(text: string): { value: unknown } | undefined {
  const tryParse = (t: string): { value: unknown } | undefined => {
    try {
      return { value: JSON.parse(t) as unknown };
    } catch {
      return undefined;
    }
  };
  const whole = tryParse(text);
  if (whole) return whole;
  const lenient = (t: string): { value: unknown } | undefined => tryParse(t) ?? tryParse(withoutTrailingCommas(t));
  const inFence = /```(?:json)?\s*([\s\S]*?)\s*```/i.exec(text)?.[1];
  if (inFence !== undefined && /^[{[]/.test(inFence)) {
    const read = lenient(inFence);
    if (read) return read;
  }
  // Each "{" in turn (prose may hold braces of its own), up to a few.
  for (let start = text.indexOf("{"), tries = 0; start >= 0 && tries < 16; start = text.indexOf("{", start + 1), tries++) {
    const object = balancedFrom(text, start);
    if (object === undefined) return undefined; // nothing closes after here: cut off, or not JSON
    const read = lenient(object);
    if (read && typeof read.value === "object" && read.value !== null) return read;
  }
  return undefined;
}

/** The balanced `{…}` that starts at `start` (strings and their escapes respected), or undefined when it never closes. */
function balancedFrom(text: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}

/** JSON text without commas before a closing `}` or `]` (outside strings). */
function withoutTrailingCommas(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ",") {
      const next = /^\s*([}\]])/.exec(text.slice(i + 1));
      if (next) continue;
    }
    out += c;
  }
  return out;
}

/**
 * Checks a parsed reply against the request's schema, then runs the
 * request's own check. `text` is what problems quote (the raw reply).
 * Judges that answer with data (offline, labels) call this directly.
 */
export function checkReply<T>(request: StructuredRequest<T>, value: unknown, text = ""): ReadReply<T> {
  const checked = request.schema.safeParse(value);
  if (!checked.success) {
    return { ok: false, problem: `the reply does not match the ${request.schemaName} schema (${excerpt(checked.error.message, 200)}): "${excerpt(text || JSON.stringify(value))}"` };
  }
  const problem = request.check?.(checked.data);
  if (problem !== undefined) return { ok: false, problem: `${problem}: "${excerpt(text || JSON.stringify(value))}"` };
  return { ok: true, value: checked.data };
}

/** The follow-up turn that asks a model to fix an invalid reply. */
export function correctionMessages(previous: string, problem: string): ChatMessage[] {
  return [
    { role: "assistant", content: previous },
    {
      role: "user",
      content: `That reply cannot be used: ${problem}. Answer again with only the JSON object, complete and matching the schema.`,
    },
  ];
}
