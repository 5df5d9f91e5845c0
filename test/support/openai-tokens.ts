/**
 * Token counts as OpenAI's API reports them, for the fake server's usage
 * fields: o200k_base (the gpt-4o family's encoding) for text; for a chat
 * prompt, each message's role and content plus 3 tokens per message and 3
 * that prime the reply (OpenAI's published counting rule); an image part
 * costs 85 tokens at detail "low", else 765 (a 1024-px square image). The
 * chat rule is written apart from evalframe's own counter, so that a test
 * compares two counts. Text goes through the same o200k table evalframe
 * loads (js-tiktoken's, special-token text as ordinary text): a second copy
 * would give the same numbers and cost 1.3 s of CPU to build.
 */
import { tokenCounter } from "../../src/judge/tokens";

let text: ((s: string) => number) | undefined;

function textTokens(s: string): number {
  text ??= tokenCounter("gpt-4o").text;
  return text(s);
}

function chatTokens(messages: any[]): number {
  let total = 3;
  for (const message of messages) {
    total += 3 + textTokens(String(message.role));
    const content = message.content;
    if (typeof content === "string") total += textTokens(content);
    else for (const part of content as any[]) total += part.type === "text" ? textTokens(part.text) : part.image_url?.detail === "low" ? 85 : 765;
  }
  return total;
}

/** The fake server's `tokenizer` option with OpenAI's counts. */
export const openAITokens = { text: textTokens, chat: chatTokens };
