/**
 * Token counts as OpenAI's API reports them, for the fake server's usage
 * fields: o200k_base (the gpt-4o family's encoding) for text; for a chat
 * prompt, each message's role and content plus 3 tokens per message and 3
 * that prime the reply (OpenAI's published counting rule); an image part
 * costs 85 tokens at detail "low", else 765 (a 1024-px square image). Written
 * apart from evalframe's own counter, so that a test compares two counts.
 */
// js-tiktoken's types are ECMAScript-module types; its CommonJS build is what require() loads here.
const { Tiktoken } = require("js-tiktoken/lite") as { Tiktoken: new (ranks: unknown) => { encode(text: string, allowed: string[], disallowed: string[]): number[] } };
const ranks = require("js-tiktoken/ranks/o200k_base") as { default?: unknown };
const encoding = new Tiktoken(ranks.default ?? ranks);

function textTokens(text: string): number {
  return encoding.encode(text, [], []).length;
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
