/**
 * Work: what scoring N questions × M models costs in calls and tokens, per
 * row, with our layout (reference statements extracted once per question,
 * embeddings batched over unique texts, the disk cache) against Ragas' layout
 * (3 chat calls and 2 embedding calls per row, no sharing) on the same data
 * and with the same prompts. Then a rerun on the full cache, which must send
 * nothing. Counts come from the fake server (what it received and answered).
 */
import { classifyRequest, statementsRequest } from "../src/metrics/answer-correctness/prompts";
import { sentences } from "../test/support/scripted-judge";
import type { FakeOpenAI } from "../test/support/fake-openai";
import { qaRows, type QaRow } from "./data";
import { benchJudge, figure, round, scoreRows, scriptedServer, uniqueEmbeddingTexts, withServer, withTempDir, type BenchResult } from "./support";

/** What the server saw of one run. */
interface Work {
  chat: number;
  embeddingRequests: number;
  promptTokens: number;
  completionTokens: number;
  embeddingTokens: number;
}

function workOf(server: FakeOpenAI): Work {
  const u = server.totalUsage();
  return {
    chat: server.chatRequests().length,
    embeddingRequests: server.embeddingRequests().length,
    promptTokens: u.chatPromptTokens,
    completionTokens: u.chatCompletionTokens,
    embeddingTokens: u.embeddingTokens,
  };
}

/**
 * Ragas' layout on the same rows: per row, extract the answer's statements,
 * extract the reference's statements, classify, embed the reference, embed
 * the answer; nothing shared, nothing cached. Rows of one model run together
 * (so no two identical requests are in flight at once and none is merged).
 */
async function ragasLayout(url: string, rows: readonly QaRow[], models: number): Promise<void> {
  const judge = benchJudge(url, { cache: false, concurrency: 16 });
  for (let m = 0; m < models; m++) {
    const mine = rows.filter((r) => r.model === `model-${m + 1}`);
    await Promise.all(
      mine.map(async (r) => {
        const [answer, reference] = await Promise.all([
          judge.complete(statementsRequest(r.user_input, r.response)),
          judge.complete(statementsRequest(r.user_input, r.reference)),
        ]);
        await judge.complete(classifyRequest(r.user_input, answer.statements, reference.statements, { reasons: true }));
        await judge.embed([r.reference === "" ? " " : r.reference]);
        await judge.embed([r.response === "" ? " " : r.response]);
      }),
    );
  }
}

/** Work per row for `questions` questions and M = 1, 3, 5 models. */
export async function benchWork(questions = 200): Promise<BenchResult> {
  const figures = [];
  const notes: string[] = [];
  for (const models of [1, 3, 5]) {
    const rows = qaRows(questions, models, 100 + models);
    const n = rows.length;
    const unique = uniqueEmbeddingTexts(rows);
    const empty = rows.filter((r) => sentences(r.response).length === 0).length;
    const result = await withServer(scriptedServer(), async (server, url) =>
      withTempDir(async (dir) => {
        const first = await scoreRows(rows, benchJudge(url, { cacheDir: dir }));
        const ours = workOf(server);
        const bodies = server.chatRequests().map((r) => JSON.stringify(r.body));
        const repeats = bodies.length - new Set(bodies).size;
        const failed = (first.scored.column("answer_correctness_error").values as string[]).filter((e) => e !== "").length;
        if (failed > 0) throw new Error(`work: ${failed} rows failed`);
        server.reset();
        const rerun = await scoreRows(rows, benchJudge(url, { cacheDir: dir }));
        const cached = workOf(server);
        server.reset();
        await ragasLayout(url, rows, models);
        const ragas = workOf(server);
        return { ours, cached, ragas, repeats, rerunMs: rerun.ms, firstMs: first.ms };
      }),
    );
    const { ours, ragas, cached } = result;
    const bound = questions + 2 * questions * models;
    const batches = Math.ceil(unique / 256);
    const tag = `N=${questions} M=${models} (${n} rows)`;
    const pair = (a: number, b: number, digits = 0) => `${round(a / n, digits).toLocaleString("en-US")} / ${round(b / n, digits).toLocaleString("en-US")} = ${round(a / b, 2)}×`;
    const resent = cached.chat + cached.embeddingRequests;
    figures.push(
      figure(`${tag}: chat calls/row, ours / Ragas layout`, pair(ours.chat, ragas.chat, 3), "calls", `ours ≤ (N+2NM)/NM = ${round(bound / n, 3)}`, ours.chat <= bound),
      figure(`${tag}: embedding requests, ours / Ragas layout`, `${ours.embeddingRequests} / ${ragas.embeddingRequests}`, "requests", `ours = ⌈${unique} texts/256⌉ = ${batches}`, ours.embeddingRequests === batches),
      figure(`${tag}: prompt tokens/row, ours / Ragas layout`, pair(ours.promptTokens, ragas.promptTokens), "tokens"),
      figure(`${tag}: completion tokens/row, ours / Ragas layout`, pair(ours.completionTokens, ragas.completionTokens), "tokens"),
      figure(`${tag}: embedding tokens/row, ours / Ragas layout`, pair(ours.embeddingTokens, ragas.embeddingTokens), "tokens"),
      figure(`${tag}: chat requests repeating one already sent`, result.repeats, "requests"),
      figure(`${tag}: HTTP requests on a fully cached rerun`, resent, "requests", "= 0", resent === 0),
    );
    notes.push(
      `work ${tag}: ${n} rows (${empty} empty answers), ${unique} unique texts; ours ${ours.chat} chat + ${ours.embeddingRequests} embedding requests ` +
        `(${ours.promptTokens + ours.completionTokens + ours.embeddingTokens} tokens) in ${round(result.firstMs)} ms; ` +
        `Ragas layout ${ragas.chat} chat + ${ragas.embeddingRequests} embedding requests (${ragas.promptTokens + ragas.completionTokens + ragas.embeddingTokens} tokens); ` +
        `cached rerun ${round(result.rerunMs)} ms.`,
    );
  }
  notes.push(
    "work: the Ragas layout is run with our prompts (Ragas' own prompts differ in length), so token ratios compare layouts, not prompts.",
    "work: 'repeating one already sent' counts chat requests whose body equals an earlier one (e.g. two models giving the same answer): " +
      "identical requests started together are not merged while the cache lookup is pending, so each is paid.",
  );
  return { name: "work", figures, notes };
}
