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
  lines.push(...embeddingLines([...collector.pendingTexts], collector.embeddingModel, batchSize));
  return lines;
}

/** Embeddings request lines for `texts`, `batchSize` texts a line, each named by its texts. */
export function embeddingLines(texts: readonly string[], model: string, batchSize: number): BatchRequestLine[] {
  const lines: BatchRequestLine[] = [];
  for (let i = 0; i < texts.length; i += batchSize) {
    const chunk = texts.slice(i, i + batchSize);
    const id = createHash("sha256").update(JSON.stringify(chunk)).digest("hex");
    lines.push({
      custom_id: `emb-batch-${id}`,
      method: "POST",
      url: "/v1/embeddings",
      body: { model, input: chunk, encoding_format: "float" },
    });
  }
  return lines;
}

/** A batch output or error file, read: its lines, and those that could not be read (with why). */
export interface ResultFile {
  lines: BatchResultLine[];
  /** "<source>, line 7: not valid JSON (cut off?)", one per line not read. */
  unreadable: string[];
}

/**
 * Reads a batch output or error file. A line that is not a JSON object with
 * a `custom_id` (cut off by a runner that stopped, say) is not read and is
 * named in `unreadable` by its line number; the other lines are read, so that
 * one bad line does not throw away the replies of the whole batch (its
 * request then has no result, and is retried or failed as one that did not
 * run).
 */
export function parseResultLines(text: string, source: string): ResultFile {
  const lines: BatchResultLine[] = [];
  const unreadable: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      unreadable.push(`${source}, line ${i + 1}: not valid JSON (cut off?)`);
      return;
    }
    const v = value as Partial<BatchResultLine> | null;
    if (!v || typeof v !== "object" || typeof v.custom_id !== "string") {
      unreadable.push(`${source}, line ${i + 1}: no custom_id`);
      return;
    }
    const response = typeof v.response === "object" && v.response !== null ? v.response : null;
    const error = typeof v.error === "object" && v.error !== null ? v.error : null;
    lines.push({ custom_id: v.custom_id, response, error });
  });
  return { lines, unreadable };
}

/** Reads request lines back from a batch input file this module wrote; a line that is not one is skipped. */
export function parseRequestLines(text: string): BatchRequestLine[] {
  const lines: BatchRequestLine[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    try {
      const v = JSON.parse(line) as Partial<BatchRequestLine> | null;
      if (v && typeof v.custom_id === "string" && (v.url === "/v1/chat/completions" || v.url === "/v1/embeddings") && typeof v.body === "object" && v.body !== null) {
        if (v.url === "/v1/embeddings" && !Array.isArray(v.body["input"])) continue;
        lines.push({ custom_id: v.custom_id, method: "POST", url: v.url, body: v.body });
      }
    } catch {
      // Not a line of ours (the copy edited): its requests are submitted again.
    }
  }
  return lines;
}
