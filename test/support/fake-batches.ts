/**
 * The OpenAI Files and Batches APIs, faked for the fake server: uploads
 * (multipart), batches that take a few polls to complete, run their lines
 * through the server's chat and embeddings scripts, and can partly fail or
 * expire. Mounted by `FakeOpenAI` through its `batches` option.
 */

/** How fake batches behave. */
export interface FakeBatchOptions {
  /** Status polls (retrieves) before a batch completes; default 2. */
  pollsToComplete?: number;
  /** Lines answered with an error (they go to the error file). */
  failLine?: (customId: string, url: string) => boolean;
  /** When true, batches expire instead of completing: only the first half of their lines ran. */
  expire?: boolean;
  /** When true, a batch is created but the reply to its creation never comes (a client stopped in between). */
  hangAfterCreate?: boolean;
  /** Rewrites an output line's JSON text (the n-th line of the output file, from 0), e.g. to cut it off as a runner that stopped would. */
  outputLine?: (text: string, n: number) => string;
  /** When set, batches end this way instead of completing (as `expire` does): only the first half of their lines ran; the rest are in the error file as the real API writes them. */
  endAs?: "expired" | "cancelled";
  /** The Batch API's limits on one input file (OpenAI: 50,000 requests, 200 MB); a batch over them fails validation, with `errors.data`, and runs nothing. */
  maxLines?: number;
  maxBytes?: number;
  /** Most texts to embed over all the lines of one embeddings batch (OpenAI: 50,000). */
  maxEmbeddingInputs?: number;
  /** When set, every batch fails validation with this error in `errors.data` (nothing runs). */
  failWith?: { code: string; message: string; line?: number };
  /** When true, output and error files are gone once written (404, as for a file past its expiry). */
  outputGone?: boolean;
  /** How many status polls (retrieves) are answered 503, as a server having a bad moment does, before they are answered again. */
  failPolls?: number;
  /** When true, a batch creation is refused with 429 "enqueued token limit" while another batch is not finished, as a small organisation limit does. */
  refuseCreatesWhileRunning?: boolean;
  /** How many batch creations are refused with 429 "enqueued token limit" before they are accepted. */
  refuseCreates?: number;
}

/** One uploaded file. */
interface StoredFile {
  id: string;
  purpose: string;
  content: string;
}

/** One batch. */
interface StoredBatch {
  id: string;
  endpoint: string;
  input_file_id: string;
  status: string;
  polls: number;
  output_file_id: string | null;
  error_file_id: string | null;
  request_counts: { total: number; completed: number; failed: number };
  errors?: { object: "list"; data: { code: string; message: string; line?: number | null; param?: string | null }[] } | null;
}

/** The chat and embeddings scripts batches run their lines through. */
export interface BatchScripts {
  chat: (body: { model: string; messages: { role: string; content: unknown }[] }) => string;
  embed: (text: string, model: string) => number[];
}

/** A reply of the fake Files/Batches API. */
export interface FakeReply {
  status: number;
  body: unknown;
  /** Plain text (file content) instead of JSON. */
  text?: string;
}

/** Texts to embed over the embeddings lines of a batch input file. */
function embeddingInputs(content: string): number {
  return content
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { url: string; body: { input?: unknown } })
    .reduce((n, l) => n + (l.url === "/v1/embeddings" && Array.isArray(l.body.input) ? l.body.input.length : 0), 0);
}

function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** The Files and Batches endpoints of the fake server, with everything they stored. */
export class FakeBatchApi {
  readonly files = new Map<string, StoredFile>();
  readonly batches = new Map<string, StoredBatch>();
  /** Batches created, in order (a resumed run must not add one). */
  readonly created: string[] = [];
  /** Batch creations refused with 429. */
  refusedCreates = 0;
  private seq = 0;

  constructor(
    public options: FakeBatchOptions,
    private readonly scripts: BatchScripts,
  ) {}

  /** Every request line of the batches created, in order, parsed. */
  createdLines(): { custom_id: string; url: string; body: Record<string, unknown> }[] {
    return this.created.flatMap((id) =>
      this.files
        .get(this.batches.get(id)!.input_file_id)!
        .content.split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as { custom_id: string; url: string; body: Record<string, unknown> }),
    );
  }

  /** Forgets every file and batch. */
  clear(): void {
    this.files.clear();
    this.batches.clear();
    this.created.length = 0;
    this.refusedCreates = 0;
  }

  /** Handles a Files/Batches request; undefined when the path is not one of them. */
  async handle(method: string, path: string, contentType: string, raw: string): Promise<FakeReply | undefined> {
    if (method === "POST" && path === "/v1/files") {
      const form = await new Request("http://fake/v1/files", { method: "POST", headers: { "content-type": contentType }, body: raw }).formData();
      const file = form.get("file");
      if (!file || typeof file === "string") return { status: 400, body: { error: { message: "no file in the upload" } } };
      const id = `file-${++this.seq}`;
      this.files.set(id, { id, purpose: String(form.get("purpose") ?? ""), content: await file.text() });
      return { status: 200, body: { id, object: "file", purpose: form.get("purpose"), bytes: file.size, filename: file.name } };
    }
    const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (method === "GET" && content) {
      const file = this.files.get(content[1]!);
      if (file && this.options.outputGone && file.purpose === "batch_output") return { status: 404, body: { error: { message: `No such File object: ${file.id}`, type: "invalid_request_error" } } };
      return file ? { status: 200, body: null, text: file.content } : { status: 404, body: { error: { message: "no such file" } } };
    }
    if (method === "POST" && path === "/v1/batches") {
      const body = JSON.parse(raw) as { input_file_id: string; endpoint: string };
      const input = this.files.get(body.input_file_id);
      if (!input) return { status: 400, body: { error: { message: `no file ${body.input_file_id}` } } };
      const busy = this.options.refuseCreatesWhileRunning === true && [...this.batches.values()].some((b) => !["completed", "expired", "failed", "cancelled"].includes(b.status));
      if (busy || (this.options.refuseCreates ?? 0) > 0) {
        if (!busy) this.options.refuseCreates!--;
        this.refusedCreates++;
        return { status: 429, body: { error: { message: "Enqueued token limit reached for fake-model in organization org-fake. Limit: 90,000 enqueued tokens. Please try again once some in_progress batches have been completed.", type: "invalid_request_error", code: "token_limit_exceeded" } } };
      }
      const id = `batch_${++this.seq}`;
      const total = input.content.split("\n").filter((l) => l.trim() !== "").length;
      const batch: StoredBatch = { id, endpoint: body.endpoint, input_file_id: body.input_file_id, status: "validating", polls: 0, output_file_id: null, error_file_id: null, request_counts: { total, completed: 0, failed: 0 } };
      this.batches.set(id, batch);
      this.created.push(id);
      if (this.options.hangAfterCreate) return new Promise<FakeReply>(() => undefined);
      return { status: 200, body: { object: "batch", ...batch } };
    }
    if (method === "GET" && path === "/v1/batches") {
      const data = [...this.batches.values()].reverse().map((b) => ({ object: "batch", ...b }));
      return { status: 200, body: { object: "list", data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false } };
    }
    const one = /^\/v1\/batches\/([^/]+)$/.exec(path);
    if (method === "GET" && one) {
      if ((this.options.failPolls ?? 0) > 0) {
        this.options.failPolls!--;
        return { status: 503, body: { error: { message: "The server is overloaded or not ready yet.", type: "server_error" } } };
      }
      const batch = this.batches.get(one[1]!);
      if (!batch) return { status: 404, body: { error: { message: "no such batch" } } };
      this.advance(batch);
      return { status: 200, body: { object: "batch", ...batch } };
    }
    return undefined;
  }

  private advance(batch: StoredBatch): void {
    if (["completed", "expired", "failed", "cancelled"].includes(batch.status)) return;
    batch.polls++;
    const input = this.files.get(batch.input_file_id)!.content;
    const count = input.split("\n").filter((l) => l.trim() !== "").length;
    const invalid =
      this.options.failWith ??
      (this.options.maxLines !== undefined && count > this.options.maxLines
        ? { code: "too_many_requests", message: `The batch input file has ${count} requests, more than the ${this.options.maxLines} allowed.` }
        : this.options.maxBytes !== undefined && Buffer.byteLength(input) > this.options.maxBytes
          ? { code: "file_too_large", message: `The batch input file is larger than the ${this.options.maxBytes} bytes allowed.` }
          : this.options.maxEmbeddingInputs !== undefined && embeddingInputs(input) > this.options.maxEmbeddingInputs
            ? { code: "too_many_embedding_inputs", message: `The batch has more than the ${this.options.maxEmbeddingInputs} embedding inputs allowed.` }
            : undefined);
    if (invalid) {
      batch.status = "failed";
      batch.errors = { object: "list", data: [{ code: invalid.code, message: invalid.message, line: invalid.line ?? null, param: null }] };
      return;
    }
    const needed = this.options.pollsToComplete ?? 2;
    if (batch.polls < needed) {
      batch.status = batch.polls === 1 ? "validating" : "in_progress";
      return;
    }
    const lines = this.files
      .get(batch.input_file_id)!
      .content.split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { custom_id: string; url: string; body: Record<string, unknown> });
    const ending = this.options.endAs ?? (this.options.expire ? "expired" : undefined);
    const run = ending ? lines.slice(0, Math.floor(lines.length / 2)) : lines;
    const outputs: string[] = [];
    const errors: string[] = [];
    for (const line of run) {
      const requestId = `req_${++this.seq}`;
      if (this.options.failLine?.(line.custom_id, line.url)) {
        errors.push(JSON.stringify({ id: `batch_req_${this.seq}`, custom_id: line.custom_id, response: { status_code: 500, request_id: requestId, body: { error: { message: "fake batch line failure" } } }, error: null }));
        continue;
      }
      outputs.push(JSON.stringify({ id: `batch_req_${this.seq}`, custom_id: line.custom_id, response: { status_code: 200, request_id: requestId, body: this.answer(line.url, line.body) }, error: null }));
    }
    if (this.options.endAs) {
      const code = this.options.endAs === "expired" ? "batch_expired" : "batch_cancelled";
      for (const line of lines.slice(run.length)) {
        errors.push(JSON.stringify({ id: `batch_req_${++this.seq}`, custom_id: line.custom_id, response: null, error: { code, message: `This request could not be executed before the batch was ${this.options.endAs}.` } }));
      }
    }
    const rewrite = this.options.outputLine;
    batch.output_file_id = this.store(rewrite ? outputs.map((text, n) => rewrite(text, n)) : outputs);
    batch.error_file_id = errors.length > 0 ? this.store(errors) : null;
    batch.request_counts = { total: lines.length, completed: outputs.length, failed: errors.length };
    batch.status = ending ?? "completed";
  }

  private store(lines: string[]): string {
    const id = `file-${++this.seq}`;
    this.files.set(id, { id, purpose: "batch_output", content: lines.map((l) => `${l}\n`).join("") });
    return id;
  }

  private answer(url: string, body: Record<string, unknown>): unknown {
    if (url === "/v1/embeddings") {
      const input = body["input"] as string[];
      return {
        object: "list",
        model: body["model"],
        data: input.map((text, index) => ({ object: "embedding", index, embedding: this.scripts.embed(text, String(body["model"])) })),
        usage: { prompt_tokens: input.reduce((n, t) => n + tokens(t), 0), total_tokens: input.reduce((n, t) => n + tokens(t), 0) },
      };
    }
    const request = body as { model: string; messages: { role: string; content: unknown }[] };
    const content = this.scripts.chat(request);
    const prompt = request.messages.reduce((n, m) => n + tokens(typeof m.content === "string" ? m.content : JSON.stringify(m.content)), 0);
    return {
      id: `chatcmpl-batch-${this.seq}`,
      object: "chat.completion",
      model: request.model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: prompt, completion_tokens: tokens(content), total_tokens: prompt + tokens(content) },
    };
  }
}
