/**
 * Counting tokens as OpenAI's models do, for estimates made before any call:
 * the model's BPE encoding (js-tiktoken, loaded on first use), the fixed
 * tokens each chat message adds, and the price of an image part.
 */
import type { ChatMessage } from "./types";

/** A BPE encoding of OpenAI's models. */
export type EncodingName = "o200k_base" | "cl100k_base";

/** Counts tokens of texts and chat prompts for one model. */
export interface TokenCounter {
  /** The encoding used. */
  readonly encoding: EncodingName;
  /** True when the model is an OpenAI model known to use this encoding; false for any other model (the count is then an approximation). */
  readonly exact: boolean;
  /** Tokens of a text. */
  text(text: string): number;
  /** Prompt tokens of a chat request: each message's content and role, the tokens every message adds, and the reply's priming. */
  chat(messages: readonly ChatMessage[]): number;
}

/** Tokens one chat message adds besides its content and role (OpenAI's chat format). */
export const TOKENS_PER_MESSAGE = 3;
/** Tokens that prime the assistant's reply, once per request. */
export const TOKENS_PER_REPLY = 3;
/** An image part at detail "low": a fixed price. */
export const LOW_DETAIL_IMAGE_TOKENS = 85;
/**
 * An image part at detail "high" or "auto" whose size is not known before it
 * is loaded: the price of a 1024 × 1024 image (four 512-px tiles at 170
 * tokens, plus 85). Larger images cost more, smaller ones less.
 */
export const ASSUMED_IMAGE_TOKENS = 765;

/**
 * The encoding of an OpenAI model, by name (a provider prefix such as
 * `openai/` is ignored), and whether the name is one OpenAI documents.
 * Other models (llama3.1, a custom Azure deployment name) get o200k_base as
 * an approximation: their own tokenizers differ by a few percent to a few tens.
 *
 * @example
 * encodingForModel("gpt-4o-mini")            // { encoding: "o200k_base", exact: true }
 * encodingForModel("text-embedding-3-small") // { encoding: "cl100k_base", exact: true }
 * encodingForModel("llama3.1")               // { encoding: "o200k_base", exact: false }
 */
export function encodingForModel(model: string): { encoding: EncodingName; exact: boolean } {
  const name = model.toLowerCase().split("/").pop() ?? "";
  if (/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4)/.test(name)) return { encoding: "o200k_base", exact: true };
  if (/^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada-002)/.test(name)) return { encoding: "cl100k_base", exact: true };
  return { encoding: "o200k_base", exact: false };
}

interface Encoder {
  encode(text: string, allowedSpecial?: "all" | string[], disallowedSpecial?: "all" | string[]): number[];
}

const encoders = new Map<EncodingName, Encoder>();

/** The encoder of an encoding, loaded once (the ranks are a few MB of JavaScript, so only when an estimate asks). */
function encoder(name: EncodingName): Encoder {
  let e = encoders.get(name);
  if (!e) {
    const { Tiktoken } = require("js-tiktoken/lite") as { Tiktoken: new (ranks: unknown) => Encoder };
    // The CommonJS build exports the ranks themselves; an ES-module interop may wrap them in `default`.
    const ranks = (name === "o200k_base" ? require("js-tiktoken/ranks/o200k_base") : require("js-tiktoken/ranks/cl100k_base")) as { default?: unknown };
    e = new Tiktoken(ranks.default ?? ranks);
    encoders.set(name, e);
  }
  return e;
}

/**
 * A token counter for a model (see {@link encodingForModel}).
 *
 * @example
 * const tokens = tokenCounter("gpt-4o-mini");
 * tokens.text("Paris is the capital of France."); // 7
 * tokens.chat([{ role: "user", content: "Hi" }]); // 3 + 1 + 1 + 3 = 8
 */
export function tokenCounter(model: string): TokenCounter {
  const { encoding, exact } = encodingForModel(model);
  const enc = encoder(encoding);
  // Special-token text in user data ("<|endoftext|>") is counted as ordinary text, as the API does.
  const text = (s: string): number => (s === "" ? 0 : enc.encode(s, [], []).length);
  return {
    encoding,
    exact,
    text,
    chat(messages) {
      let total = TOKENS_PER_REPLY;
      for (const message of messages) {
        total += TOKENS_PER_MESSAGE + text(message.role);
        if (typeof message.content === "string") {
          total += text(message.content);
          continue;
        }
        for (const part of message.content) {
          if (part.type === "text") total += text(part.text);
          else total += part.image_url.detail === "low" ? LOW_DETAIL_IMAGE_TOKENS : ASSUMED_IMAGE_TOKENS;
        }
      }
      return total;
    },
  };
}
