/**
 * Cost per answer: N questions × M models of answer-correctness rows judged
 * against the same fake server in each layout, which counts tokens as OpenAI
 * does (o200k_base, its per-message rule) and shapes the scripted judge's
 * replies to each request's JSON Schema as an enforcing server does (key
 * order, `maxLength`). Prints, per layout: chat calls, prompt and completion
 * tokens per row, embedding tokens per row, and the cost of 1,000 rows at
 * gpt-4o-mini and text-embedding-3-small list prices.
 *
 * Two shapes of data: bench/data.ts's synthetic rows (long references) and
 * the bundled sample data/qa-models.csv (short answers).
 *
 * Layouts: ours (the default and fused, each without reasons, the default,
 * and with them: `reasons: true`), the Ragas layout (3 chat + 2 embedding
 * calls per row, our prompts, a reason per verdict as Ragas asks) and a
 * one-call peer layout (bench/peer-layout.ts).
 */
import * as path from "node:path";
import { frameRecords, loadDataset } from "../src/index";
import { DEFAULT_PRICES } from "../src/judge/usage";
import type { AnswerCorrectnessLayout } from "../src/metrics/answer-correctness/metric";
import { classifyRequest, statementsRequest } from "../src/metrics/answer-correctness/prompts";
import { openAITokens } from "../test/support/openai-tokens";
import type { ChatContext, FakeOpenAI } from "../test/support/fake-openai";
import { promptKind, requestData, scriptedAnswerCorrectness, scriptedEmbedding } from "../test/support/scripted-judge";
import { conformToSchema, requestSchema } from "../test/support/schema-conform";
import { qaRows, type QaRow } from "./data";
import { peerRequest, scriptedPeerReply } from "./peer-layout";
import { benchJudge, figure, round, scoreRows, withServer, withTempDir, type BenchResult } from "./support";

/** What the server saw of one layout's run, per row. */
interface LayoutCost {
  layout: string;
  chatPerRow: number;
  embeddingRequests: number;
  promptPerRow: number;
  completionPerRow: number;
  embeddingPerRow: number;
  /** USD per 1,000 rows: chat at gpt-4o-mini, embeddings at text-embedding-3-small list prices. */
  usdPer1000: number;
  /** Completion tokens per row by reply schema: what the judge had to write, and for what. */
  completionByKind: Record<string, number>;
}

/** Completion tokens of the current layout's replies, by reply schema (statements, verdicts, …). */
let completionByKind = new Map<string, number>();

function chat(ctx: ChatContext): object {
  const kind = promptKind(ctx.body) ?? "other";
  const reply = kind === "peer_choice" ? (conformToSchema(scriptedPeerReply(requestData(ctx)), requestSchema(ctx.body)) as object) : scriptedAnswerCorrectness(ctx);
  count(kind, reply);
  if (kind === "verdicts") {
    // What the same verdicts would cost with the shortest reason a model could write ("R1"); with and without reasons are measured.
    const { response, reference } = reply as { response: Array<{ verdict: string } | string>; reference: Array<{ verdict: string } | string> };
    if (response.every((v) => typeof v === "object")) {
      const r1 = (side: Array<{ verdict: string } | string>, letter: string) => side.map((v, i) => ({ reason: `${letter}${i + 1}`, verdict: (v as { verdict: string }).verdict }));
      count("verdicts, reasons 'R1'", { response: r1(response, "R"), reference: r1(reference, "A") });
    }
  }
  return reply;
}

/** Adds a reply's completion tokens (as the server counts them) to `kind`. */
function count(kind: string, reply: object): void {
  completionByKind.set(kind, (completionByKind.get(kind) ?? 0) + openAITokens.text(JSON.stringify(reply)));
}

function costOf(layout: string, server: FakeOpenAI, rows: number): LayoutCost {
  const u = server.totalUsage();
  const chatPrice = DEFAULT_PRICES["gpt-4o-mini"]!;
  const embeddingPrice = DEFAULT_PRICES["text-embedding-3-small"]!;
  const usd = (u.chatPromptTokens * chatPrice.input + u.chatCompletionTokens * chatPrice.output + u.embeddingTokens * embeddingPrice.input) / 1e6;
  return {
    layout,
    chatPerRow: server.chatRequests().length / rows,
    embeddingRequests: server.embeddingRequests().length,
    promptPerRow: u.chatPromptTokens / rows,
    completionPerRow: u.chatCompletionTokens / rows,
    embeddingPerRow: u.embeddingTokens / rows,
    usdPer1000: (usd / rows) * 1000,
    completionByKind: Object.fromEntries([...completionByKind].map(([kind, tokens]) => [kind, tokens / rows])),
  };
}

/**
 * Ragas' layout: per row two extractions, one classification, two embedding
 * calls; nothing shared (a judge per row, so that no two rows' identical
 * requests are merged in flight).
 */
async function ragasLayout(url: string, rows: readonly QaRow[]): Promise<void> {
  await Promise.all(
    rows.map(async (r) => {
      const judge = benchJudge(url, { cache: false });
      const [answer, reference] = await Promise.all([judge.complete(statementsRequest(r.user_input, r.response)), judge.complete(statementsRequest(r.user_input, r.reference))]);
      if (answer.statements.length > 0 && reference.statements.length > 0) {
        await judge.complete(classifyRequest(r.user_input, answer.statements, reference.statements, { reasons: true }));
      }
      await judge.embed([r.reference === "" ? " " : r.reference]);
      await judge.embed([r.response === "" ? " " : r.response]);
    }),
  );
}

/** The one-call peer layout: one request per row (a judge per row, nothing merged), no embeddings. */
async function peerLayout(url: string, rows: readonly QaRow[]): Promise<void> {
  await Promise.all(rows.map((r) => benchJudge(url, { cache: false }).complete(peerRequest(r.user_input, r.reference, r.response))));
}

/** Our layouts: scoreRows with a fresh cache, which must fail no row. */
function ours(layout: AnswerCorrectnessLayout, reasons = false, answersPerCall = 1): (url: string, rows: readonly QaRow[]) => Promise<void> {
  return async (url, rows) => {
    await withTempDir(async (dir) => {
      const run = await scoreRows(rows, benchJudge(url, { cacheDir: dir }), { layout, reasons, answersPerCall });
      const failed = (run.scored.column("answer_correctness_error").values as string[]).filter((e) => e !== "").length;
      if (failed > 0) throw new Error(`cost: ${failed} rows failed in the ${layout} layout`);
    });
  };
}

const LAYOUTS: Record<string, (url: string, rows: readonly QaRow[]) => Promise<void>> = {
  "evalframe default": ours("ragas"),
  "evalframe fused": ours("fused"),
  "default, reasons": ours("ragas", true),
  "fused, reasons": ours("fused", true),
  "fused, 3 answers/call": ours("fused", false, 3),
  "fused, 8 answers/call": ours("fused", false, 8),
  "fused, 8/call, reasons": ours("fused", true, 8),
  "Ragas layout": ragasLayout,
  "one-call peer": peerLayout,
};

/** The bundled sample (data/qa-models.csv): short answers, as most question-answering data has. */
async function sampleRows(): Promise<QaRow[]> {
  const records = frameRecords(await loadDataset(path.join(__dirname, "..", "data", "qa-models.csv")));
  return records.map((r) => ({ id: String(r["id"]), model: String(r["model"]), user_input: String(r["user_input"]), response: String(r["response"]), reference: String(r["reference"]) }));
}

/** Each layout's cost on `rows`, each against its own fresh fake server. */
async function layoutCosts(rows: readonly QaRow[]): Promise<LayoutCost[]> {
  const costs: LayoutCost[] = [];
  for (const [layout, run] of Object.entries(LAYOUTS)) {
    costs.push(
      await withServer({ chat, embed: scriptedEmbedding, tokenizer: openAITokens }, async (server, url) => {
        completionByKind = new Map();
        await run(url, rows);
        return costOf(layout, server, rows.length);
      }),
    );
  }
  return costs;
}

/**
 * Cost per row of each layout on two shapes of data: `questions` × `models`
 * synthetic rows (bench/data.ts: references of 2–5 long sentences) and the
 * bundled sample (short answers, 1–3 sentences).
 */
export async function benchCost(questions = 120, models = 3): Promise<BenchResult> {
  const shapes: Array<{ tag: string; about: string; rows: QaRow[] }> = [
    { tag: `N=${questions} M=${models}`, about: `bench/data.ts qaRows(${questions}, ${models})`, rows: qaRows(questions, models, 100 + models) },
    { tag: "sample", about: "data/qa-models.csv", rows: await sampleRows() },
  ];
  const figures: BenchResult["figures"] = [];
  const notes = [
    "cost: tokens counted by the fake server as OpenAI counts them (o200k_base); " +
      "replies are the scripted judge's, shaped to each request's JSON Schema (key order, maxLength) as an enforcing server shapes them. " +
      "Prices: gpt-4o-mini $0.15/$0.60 per 1M prompt/completion tokens, text-embedding-3-small $0.02 per 1M.",
    "cost: the schemas in response_format are not counted as prompt tokens (for no layout).",
  ];
  for (const { tag, about, rows } of shapes) {
    const costs = await layoutCosts(rows);
    figures.push(
      ...costs.flatMap((c) => [
        figure(`${tag} ${c.layout}: chat calls/row`, round(c.chatPerRow, 3), "calls"),
        figure(`${tag} ${c.layout}: prompt tokens/row`, round(c.promptPerRow, 1), "tokens"),
        figure(`${tag} ${c.layout}: completion tokens/row`, round(c.completionPerRow, 1), "tokens"),
        figure(`${tag} ${c.layout}: embedding tokens/row`, round(c.embeddingPerRow, 1), "tokens"),
        figure(`${tag} ${c.layout}: USD per 1,000 rows`, round(c.usdPer1000, 4), "USD"),
      ]),
    );
    notes.push(
      `cost [${tag}]: ${rows.length} rows, ${new Set(rows.map((r) => r.user_input)).size} questions × ${new Set(rows.map((r) => r.model)).size} models (${about})`,
      ...costs.map(
        (c) =>
          `cost [${tag}] ${c.layout.padEnd(19)} ${c.chatPerRow.toFixed(3)} chat calls/row, ${c.embeddingRequests} embedding requests, ` +
          `${c.promptPerRow.toFixed(1)} prompt + ${c.completionPerRow.toFixed(1)} completion + ${c.embeddingPerRow.toFixed(1)} embedding tokens/row, $${c.usdPer1000.toFixed(4)} per 1,000 rows; ` +
          `completion by reply: ${Object.entries(c.completionByKind).map(([kind, tokens]) => `${kind} ${tokens.toFixed(1)}`).join(", ")}`,
      ),
    );
  }
  return { name: "cost", figures, notes };
}
