/**
 * A run stopped after recording an upload but before its batch was created
 * looks for the batch among the organisation's batches when resumed. That
 * list is newest first and can hold years of batches: the search stops at
 * the batches created before the upload, instead of reading every page.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync, writeFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { answerCorrectness, scoreBatch } from "../src/index";
import { batchJudge, batchRows as rows, batchRunKilledAfterSubmitting, submittedLines } from "./support/batch-rows";
import { useFakeOpenAI } from "./support/fake-openai";
import { records } from "./support/frames";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 1 } }));

/** Old batches of the organisation, listed after the fake's own: 40 pages of 100, created in 2020. */
const OLD_PAGES = 40;
let listPages = 0;
let proxy: Server;
let proxyUrl = "";

before(async () => {
  // Passes everything to the fake server, but lists the fake's batches followed by pages of old ones.
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const target = new URL(req.url ?? "/", "http://x");
        if (req.method === "GET" && target.pathname === "/v1/batches") {
          listPages++;
          const after = target.searchParams.get("after");
          let data: { id: string; created_at?: number; input_file_id?: string; status?: string }[];
          if (after === null) data = ((await (await fetch(`${url()}/batches`)).json()) as { data: { id: string }[] }).data;
          else {
            const page = after.startsWith("old_") ? Number(after.split("_")[1]) + 1 : 0;
            data = page >= OLD_PAGES ? [] : Array.from({ length: 100 }, (_, i) => ({ id: `old_${page}_${i}`, object: "batch", status: "completed", input_file_id: `file-old-${page}-${i}`, created_at: 1_577_836_800 - page * 1000 - i }));
          }
          const more = after === null || (data.length > 0 && data[0]!.id.startsWith("old_") && Number(data[0]!.id.split("_")[1]) < OLD_PAGES - 1);
          const last = data.at(-1)?.id ?? "old_-1_0";
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify({ object: "list", data, first_id: data[0]?.id ?? null, last_id: after === null ? "old_-1_0" : last, has_more: more }));
          return;
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers[k] = v;
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const reply = await fetch(`${url()}${target.pathname.replace(/^\/v1/, "")}${target.search}`, { method: req.method ?? "GET", headers, ...(body && req.method !== "GET" ? { body } : {}) });
        res.statusCode = reply.status;
        res.setHeader("content-type", reply.headers.get("content-type") ?? "application/json");
        res.end(Buffer.from(await reply.arrayBuffer()));
      })().catch((error: unknown) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { message: String(error) } }));
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
});

after(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

describe("a run stopped between recording an upload and creating its batch", () => {
  it("looks for the batch among those created since the upload only, then creates it from the same upload", { timeout: 60_000 }, async () => {
    const data = rows(6);
    server.options.batches = { pollsToComplete: 1_000_000 };
    const { cacheDir, batchDir, stateFile } = await batchRunKilledAfterSubmitting(proxyUrl, data);
    // As if the stop came before the chat batch's creation reached the server: the upload is recorded, no batch.
    const state = JSON.parse(readFileSync(stateFile, "utf8")) as { batches: { batchId: string; status: string; endpoint: string; inputFileId: string }[] };
    const chat = state.batches.find((b) => b.endpoint === "/v1/chat/completions")!;
    server.batchApi.batches.delete(chat.batchId);
    server.batchApi.created.splice(server.batchApi.created.indexOf(chat.batchId), 1);
    chat.batchId = "";
    chat.status = "uploaded";
    writeFileSync(stateFile, JSON.stringify(state));
    server.options.batches = { pollsToComplete: 1 };
    listPages = 0;
    const logs: string[] = [];
    const out = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(proxyUrl, cacheDir), batchDir, pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.ok(records(out).every((r) => r["answer_correctness_error"] === ""), logs.join("\n"));
    assert.ok(listPages >= 1 && listPages <= 2, `${listPages} pages of the batch list read:\n${logs.join("\n")}`);
    const inputs = server.batchApi.created.map((id) => server.batchApi.batches.get(id)!.input_file_id);
    assert.ok(inputs.includes(chat.inputFileId), "the batch was created from the recorded upload");
    const lines = submittedLines(server);
    assert.equal(new Set(lines.map((l) => l.custom_id)).size, lines.length, "no line submitted twice");
  });
});
