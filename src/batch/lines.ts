/**
 * Batch JSONL: the request lines we write (`custom_id`, `method`, `url`,
 * `body`) and the output/error lines the OpenAI Batch API (and vLLM's batch
 * runner) write back.
 */
import { createHash } from "node:crypto";
import { CollectingJudge } from "./collector";

/** The endpoints a batch can target. */
export type BatchEndpoint = "/v1/chat/completions" | "/v1/embeddings";

/** One request line of a batch input file. */
export interface BatchRequestLine {
  custom_id: string;
  method: "POST";
  url: BatchEndpoint;
  body: Record<string, unknown>;
}

/** One line of a batch output or error file, as far as we read it. */
export interface BatchResultLine {
  custom_id: string;
  response: { status_code: number; body: unknown } | null;
  error: { code?: string; message?: string } | null;
}

/** Request lines for what a collecting judge gathered: chats one per line, texts in lines of `batchSize`. */
export function requestLines(collector: CollectingJudge, batchSize: number): BatchRequestLine[] {
  const lines: BatchRequestLine[] = [...collector.pendingChats.values()].map((p) => ({
    custom_id: p.customId,
    method: "POST" as const,
    url: "/v1/chat/completions" as const,
    body: p.body,
  }));
  const texts = [...collector.pendingTexts];
  for (let i = 0; i < texts.length; i += batchSize) {
    const chunk = texts.slice(i, i + batchSize);
    const id = createHash("sha256").update(JSON.stringify(chunk)).digest("hex");
    lines.push({
      custom_id: `emb-batch-${id}`,
      method: "POST",
      url: "/v1/embeddings",
      body: { model: collector.embeddingModel, input: chunk, encoding_format: "float" },
    });
  }
  return lines;
}

/** JSONL text of lines. */
export function toJsonl(lines: readonly unknown[]): string {
  return lines.map((l) => JSON.stringify(l)).join("\n") + (lines.length > 0 ? "\n" : "");
}

/**
 * Reads a batch output or error file. Lines that are not JSON objects with a
 * `custom_id` are reported by line number.
 *
 * @throws {Error} naming the first bad line.
 */
export function parseResultLines(text: string, source: string): BatchResultLine[] {
  const out: BatchResultLine[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${source}, line ${i + 1}: not valid JSON`);
    }
    const v = value as Partial<BatchResultLine>;
    if (!v || typeof v !== "object" || typeof v.custom_id !== "string") throw new Error(`${source}, line ${i + 1}: no custom_id`);
    out.push({ custom_id: v.custom_id, response: v.response ?? null, error: v.error ?? null });
  });
  return out;
}
