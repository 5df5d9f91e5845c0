/**
 * Plays an offline batch runner (like vLLM's OpenAI-compatible batch runner):
 * reads Batch API request JSONL and writes output JSONL in OpenAI's format,
 * answering with the scripted answer-correctness judge. A separate program
 * on purpose: it shares nothing with evalframe but the file format.
 *   node --require tsx/cjs test/support/offline-runner.ts requests.jsonl results.jsonl
 */
import { readFileSync, writeFileSync } from "node:fs";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./scripted-judge";

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error("usage: offline-runner requests.jsonl results.jsonl");
const lines = readFileSync(input, "utf8").split("\n").filter((l) => l.trim() !== "");
const results = lines.map((text, i) => {
  const line = JSON.parse(text) as { custom_id: string; url: string; body: { model: string; input?: string[]; messages?: { role: string; content: unknown }[] } };
  let body: unknown;
  if (line.url === "/v1/embeddings") {
    body = { object: "list", model: line.body.model, data: (line.body.input ?? []).map((t, index) => ({ object: "embedding", index, embedding: scriptedEmbedding(t) })), usage: { prompt_tokens: 1, total_tokens: 1 } };
  } else {
    const content = JSON.stringify(scriptedAnswerCorrectness({ model: line.body.model, messages: line.body.messages ?? [], body: line.body, seq: i }));
    body = { id: `cmpl-${i}`, object: "chat.completion", model: line.body.model, choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } };
  }
  return JSON.stringify({ id: `vllm-${i}`, custom_id: line.custom_id, response: { status_code: 200, request_id: `r-${i}`, body }, error: null });
});
writeFileSync(output, results.join("\n") + "\n");
console.log(`answered ${results.length} lines`);
