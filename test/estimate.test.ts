/**
 * Cost before you pay: `estimate` and `evalframe score --dry-run` make no
 * call, and their token counts come within 15% of what a real run against
 * the fake server then reports (the server counts tokens as OpenAI does,
 * with code written apart from evalframe's; it answers like a model, with
 * the offline judge's statements and verdicts).
 */
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { parseCsv } from "../src/dataset/csv";
import { estimate, formatEstimate, type CostEstimate } from "../src/frame/estimate";
import { score } from "../src/frame/score";
import { createJudge } from "../src/judge/create";
import { answerTask } from "../src/judge/offline/answer";
import { encodingForModel, tokenCounter } from "../src/judge/tokens";
import { answerCorrectness } from "../src/metrics/answer-correctness/metric";
import { predictStatements } from "../src/metrics/answer-correctness/plan";
import { multimodalRelevance } from "../src/metrics/multimodal-relevance/metric";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI, type ChatContext } from "./support/fake-openai";
import { tempDir, writeText } from "./support/files";
import { openAITokens } from "./support/openai-tokens";
import { requestData } from "./support/scripted-judge";
import { conformToSchema, requestSchema } from "./support/schema-conform";
import { writeSampleHead } from "./support/sample";

const SAMPLE = path.join(__dirname, "..", "data", "qa-models.csv");
const IMAGES = path.join(__dirname, "..", "data", "images");

/**
 * A model's answers: the offline judge's statements and verdicts for the
 * request's data, written as the request's JSON Schema asks (a verdict alone
 * where the schema has no reason; a reason cut at its `maxLength`).
 */
function modelLike(ctx: ChatContext): object {
  const data = requestData(ctx) as { question: string; text?: string; answer?: string[]; reference?: string[] };
  const reply =
    typeof data.text === "string"
      ? answerTask({ kind: "extract_statements", question: data.question, text: data.text })
      : answerTask({ kind: "classify_statements", question: data.question, response: data.answer!, reference: data.reference! });
  return conformToSchema(reply, requestSchema(ctx.body)) as object;
}

const fake = useFakeOpenAI(() => ({ tokenizer: openAITokens, chat: modelLike }));

function within(estimated: number, measured: number, share: number, what: string): void {
  const off = Math.abs(estimated - measured) / measured;
  assert.ok(off <= share, `${what}: estimated ${estimated}, measured ${measured} (${(off * 100).toFixed(1)}% off, more than ${share * 100}%)`);
}

/** The estimate's prompt tokens, and all its tokens, within 15% of what the server counted in the run. */
function tokensWithin15Percent(estimated: CostEstimate, measured: ReturnType<typeof fake.server.totalUsage>): void {
  within(estimated.promptTokens, measured.chatPromptTokens, 0.15, "prompt tokens");
  within(
    estimated.promptTokens + estimated.completionTokens + estimated.embeddingTokens,
    measured.chatPromptTokens + measured.chatCompletionTokens + measured.embeddingTokens,
    0.15,
    "all tokens",
  );
}

describe("token counting", () => {
  it("uses each OpenAI model's encoding, and says when a model is not OpenAI's", () => {
    assert.deepEqual(encodingForModel("gpt-4o-mini"), { encoding: "o200k_base", exact: true });
    assert.deepEqual(encodingForModel("openai/gpt-4.1-nano"), { encoding: "o200k_base", exact: true });
    assert.deepEqual(encodingForModel("text-embedding-3-small"), { encoding: "cl100k_base", exact: true });
    assert.deepEqual(encodingForModel("gpt-4-turbo"), { encoding: "cl100k_base", exact: true });
    assert.deepEqual(encodingForModel("llama3.1:8b"), { encoding: "o200k_base", exact: false });
  });

  it("counts a chat prompt as the API does: content, role, 3 per message, 3 for the reply", () => {
    const tokens = tokenCounter("gpt-4o-mini");
    assert.equal(tokens.text("hello world"), 2);
    assert.equal(tokens.text("<|endoftext|>") > 1, true, "special-token text in user data is ordinary text");
    const messages = [
      { role: "system" as const, content: "hello world" },
      { role: "user" as const, content: [{ type: "text" as const, text: "hello world" }, { type: "image_url" as const, image_url: { url: "", detail: "low" as const } }] },
    ];
    assert.equal(tokens.chat(messages), openAITokens.chat(messages));
    assert.equal(tokens.chat(messages), 3 + (3 + 1 + 2) + (3 + 1 + 2 + 85));
  });

  it("predicts statements from sentences and joined clauses", () => {
    assert.deepEqual(predictStatements("Paris is the capital of France, and it is on the Seine. It has 2 million people!"), [
      "Paris is the capital of France",
      "it is on the Seine.",
      "It has 2 million people!",
    ]);
    assert.deepEqual(predictStatements("  "), []);
  });
});

describe("estimate", () => {
  it("makes no call, and comes within 15% of the tokens a real run then reports; a rerun is estimated free", async () => {
    const cacheDir = tempDir();
    const judge = createJudge({ judge: "openai", apiKey: "sk-estimate-test-0000", baseURL: fake.url(), cacheDir, concurrency: 8 });
    // 15 of the sample's 42 questions, each answered by its 3 models: enough for the estimate's averages, a third of the time.
    const input = writeSampleHead(tempDir(), 15);
    const before = await estimate(input, [answerCorrectness()], { judge });
    assert.equal(before.rows, 45);
    assert.equal(fake.server.requests.length, 0, "an estimate sends nothing");

    await score(input, [answerCorrectness()], { judge, quiet: true, progress: false });
    const measured = fake.server.totalUsage();
    assert.equal(before.chatCalls, measured.chatResponses, "the planned chat calls are the calls made");
    assert.equal(before.embeddingRequests, measured.embeddingResponses);
    tokensWithin15Percent(before, measured);
    assert.ok(before.costUSD !== null && before.costUSD > 0);
    assert.equal(before.batchCostUSD, before.costUSD / 2);
    assert.ok(before.stages.find((s) => s.stage === "classifying")!.predicted > 0, "classification prompts are predicted before statements exist");

    fake.server.reset();
    const rerun = await estimate(input, [answerCorrectness()], { judge });
    assert.equal(fake.server.requests.length, 0);
    assert.equal(rerun.cachedChatCalls, rerun.chatCalls, "every call of a rerun is in the cache");
    assert.equal(rerun.cachedEmbeddingTexts, rerun.embeddingTexts);
    assert.equal(rerun.costUSD, 0);
    assert.equal(rerun.stages.reduce((a, s) => a + s.predicted, 0), 0, "with the statements cached, classification prompts are exact");
  });

  it("comes within 15% of the tokens a real run reports with a reason asked before each verdict too", async () => {
    const judge = createJudge({ judge: "openai", apiKey: "sk-estimate-test-0000", baseURL: fake.url(), cacheDir: tempDir(), concurrency: 8 });
    const input = writeSampleHead(tempDir(), 15);
    const withReasons = await estimate(input, [answerCorrectness({ reasons: true })], { judge });
    const without = await estimate(input, [answerCorrectness()], { judge });
    assert.ok(withReasons.completionTokens > 1.3 * without.completionTokens, `reasons are estimated to cost reply tokens: ${withReasons.completionTokens} against ${without.completionTokens}`);
    await score(input, [answerCorrectness({ reasons: true })], { judge, quiet: true, progress: false });
    const measured = fake.server.totalUsage();
    tokensWithin15Percent(withReasons, measured);
  });

  it("prices images by detail without loading them, and bounds the time by the rate limit given", async () => {
    const dir = tempDir();
    const file = writeText(
      dir,
      "mm.jsonl",
      [
        { user_input: "Which quarter sold most?", response: "Q3", retrieved_contexts: ["https://example.com/chart.png", "Sales peaked in Q3."] },
        { user_input: "What colour is the logo?", response: "Blue", retrieved_contexts: ["logo.png"] },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
    // A local image that is there (one that is not would be refused before its call, and not priced).
    copyFileSync(path.join(IMAGES, "stop-sign.png"), path.join(dir, "logo.png"));
    const judge = createJudge({ judge: "openai", apiKey: "sk-estimate-test-0000", baseURL: fake.url(), cache: false });
    const low = await estimate(file, [multimodalRelevance({ detail: "low", imageRoot: dir })], { judge, requestsPerMinute: 1 });
    const high = await estimate(file, [multimodalRelevance({ imageRoot: dir })], { judge });
    assert.equal(fake.server.requests.length, 0, "no image was fetched and no call made");
    assert.equal(low.chatCalls, 2);
    assert.equal(high.promptTokens - low.promptTokens, 2 * (765 - 85), "two images, priced at auto vs low detail");
    assert.equal(low.timeBoundBy, "requests per minute");
    assert.equal(low.timeMs, 2 * 60_000);
    assert.match(formatEstimate(low), /judging relevance\s+2\s+0/);
  });

  it("prices an OpenAI judge asked for before any key is set (nothing is sent), and says which model", async () => {
    const keys = ["EVALFRAME_API_KEY", "OPENAI_API_KEY", "EVALFRAME_BASE_URL", "OPENAI_BASE_URL", "EVALFRAME_JUDGE"];
    const saved = keys.map((k) => [k, process.env[k]] as const);
    for (const k of keys) delete process.env[k];
    try {
      const e = await estimate(SAMPLE, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: { judge: "openai", model: "gpt-4o-mini" } });
      assert.equal(e.paid, true);
      assert.equal(e.judge, "gpt-4o-mini @ api.openai.com");
      assert.ok(e.costUSD !== null && e.costUSD > 0 && e.promptTokens > 0);
      assert.equal(e.chatCalls, 6 + 16, "6 reference batches, 124 answers 8 to a call");
      // Without asking for an OpenAI judge, no key still means the offline judge.
      assert.equal((await estimate(SAMPLE, [answerCorrectness()], { judge: {} })).paid, false);
    } finally {
      for (const [k, v] of saved) if (v !== undefined) process.env[k] = v;
    }
  });

  it("with the offline judge: the calls, and no cost", async () => {
    const e = await estimate(SAMPLE, [answerCorrectness()], { judge: createJudge({ judge: "offline" }) });
    assert.equal(e.paid, false);
    assert.equal(e.costUSD, 0);
    assert.equal(e.promptTokens, 0);
    assert.ok(e.chatCalls > 126);
    const text = formatEstimate(e);
    assert.match(text, /answers locally: no tokens, no cost\. To see what a model would cost, estimate with the openai judge \(--judge openai/);
    // Its calls by stage, and no "cached" column: a local judge has no cache to hit.
    assert.match(text, /^stage +calls\nextracting statements +\d+\nclassifying +\d+\nembedding +1$/m);
    assert.ok(!text.includes("cached"));
  });
});

describe("evalframe score --dry-run", () => {
  it("prints the estimate, sends nothing and writes nothing", async () => {
    const dir = tempDir();
    const out = path.join(dir, "scored.csv");
    const run = await runCliCaptured(["score", SAMPLE, "--dry-run", "--out", out, "--judge", "openai", "--base-url", fake.url(), "--cache-dir", path.join(dir, "cache"), "--tpm", "20000"]);
    assert.equal(run.code, 0, run.err);
    assert.equal(fake.server.requests.length, 0);
    assert.equal(existsSync(out), false, "a dry run writes no table");
    assert.match(run.out, /Estimate for 126 rows \(answer_correctness\) with gpt-4o-mini @ 127\.0\.0\.1:\d+; nothing was sent\./);
    assert.match(run.out, /extracting statements\s+166\s+0/);
    assert.match(run.out, /Cost: ~\$0\.\d+ at list price, ~\$0\.\d+ with --batch \(half price\)\./);
    assert.match(run.out, /Time: ~\d+ min \d+ s \(bound by tokens per minute/);
    assert.match(run.out, /gpt-4o-mini o200k_base/);
  });

  it("says on stderr that a gate and the outputs of the same command are not checked or written, so a CI job reading exit 0 is not misled", async () => {
    const dir = tempDir();
    const gated = await runCliCaptured(["score", SAMPLE, "--dry-run", "--judge", "offline", "--fail-under", "0.99", "--out", path.join(dir, "s.csv"), "--summary-json", path.join(dir, "s.json")]);
    assert.equal(gated.code, 0, gated.err);
    assert.match(gated.err, /^evalframe: --dry-run scores nothing: --fail-under is not checked; --out, --summary-json are not written$/m);
    assert.deepEqual(readdirSync(dir), [], "nothing was written");
    const plain = await runCliCaptured(["score", SAMPLE, "--dry-run", "--judge", "offline"]);
    assert.equal(plain.code, 0, plain.err);
    assert.doesNotMatch(plain.err, /scores nothing/, "a dry run given nothing it skips says nothing more");
  });

  it("prices --judge openai with no key set, while a real run still asks for the key", async () => {
    const env = { HOME: tempDir() };
    const run = await runCliCaptured(["score", SAMPLE, "--dry-run", "--judge", "openai"], env);
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /with gpt-4o-mini @ api\.openai\.com; nothing was sent\./);
    assert.match(run.out, /Cost: ~\$0\.\d+ at list price/);
    assert.doesNotMatch(run.out + run.err, /no-key-set/, "the placeholder key is never shown");
    const real = await runCliCaptured(["score", SAMPLE, "--out", path.join(tempDir(), "x.csv"), "--judge", "openai"], env);
    assert.equal(real.code, 2);
    assert.match(real.err, /--judge openai needs OPENAI_API_KEY/);
  });

  it("lists the cheaper layouts of answer correctness, each with what the library estimates for it and what it gives up", async () => {
    const dir = tempDir();
    const judge = ["--judge", "openai", "--base-url", fake.url(), "--cache-dir", path.join(dir, "cache")];
    const options = { judge: { judge: "openai" as const, baseURL: fake.url(), apiKey: "x", cacheDir: path.join(dir, "cache") } };
    const tokens = async (flags: Parameters<typeof answerCorrectness>[0]) => {
      const e = await estimate(SAMPLE, [answerCorrectness(flags)], options);
      return { perRow: Math.round((e.promptTokens + e.completionTokens + e.embeddingTokens) / e.rows), cost: e.costUSD! };
    };
    const perRow = (l: string | undefined) => Number(/(\d[\d,]*) tokens\/row/.exec(l ?? "")?.[1]?.replace(/,/g, ""));
    const share = (l: string | undefined) => Number(/\(([\d.]+)×\)/.exec(l ?? "")?.[1]);
    type Offer = readonly [string, Parameters<typeof answerCorrectness>[0], RegExp];
    const offers = async (given: string[], asked: Parameters<typeof answerCorrectness>[0], expected: readonly Offer[]) => {
      const run = await runCliCaptured(["score", SAMPLE, "--dry-run", ...judge, ...given]);
      assert.equal(run.code, 0, run.err);
      assert.equal(fake.server.requests.length, 0, "the other layouts are estimated without a call too");
      const section = run.out.slice(run.out.indexOf("Cheaper ways to score answer correctness"));
      assert.ok(section.length < run.out.length, run.out);
      const lines = section.split("\n").slice(2).filter((l) => l.trim() !== "");
      assert.deepEqual(lines.map((l) => l.trim().split(/\s{2,}/)[0]), expected.map(([flags]) => flags), `the offers, in order, for ${given.join(" ") || "the defaults"}`);
      const line = (flags: string) => section.split("\n").find((l) => l.trimStart().startsWith(`${flags}  `));
      const own = await tokens(asked);
      assert.equal(perRow(line("this run")), own.perRow);
      for (const [flags, layout, givesUp] of expected) {
        const l = line(flags);
        const cost = await tokens(layout);
        assert.equal(perRow(l), cost.perRow, flags);
        assert.equal(share(l), Number((cost.cost / own.cost).toFixed(2)), flags);
        assert.ok(share(l) < 1, `${flags} is cheaper`);
        assert.match(l!, givesUp);
      }
    };
    // The default: Ragas' layout, verdicts without reasons.
    await offers([], {}, [
      ["--layout fused", { layout: "fused", answersPerCall: 1 }, /gives up Ragas' own layout/],
      ["--layout fused --answers-per-call 8", { layout: "fused", answersPerCall: 8 }, /gives up each answer judged alone/],
    ]);
    // With a reason before each verdict, dropping the reasons is offered too, as the flag that does it.
    await offers(["--reasons"], { reasons: true }, [
      ["--layout fused --reasons", { layout: "fused", answersPerCall: 1, reasons: true }, /gives up Ragas' own layout/],
      ["--no-reasons", { reasons: false }, /gives up the reason behind each verdict/],
      ["--layout fused --answers-per-call 8 --reasons", { layout: "fused", answersPerCall: 8, reasons: true }, /gives up each answer judged alone/],
      ["--layout fused --answers-per-call 8 --no-reasons", { layout: "fused", answersPerCall: 8, reasons: false }, /gives up Ragas' layout, each answer judged alone and the reasons/],
    ]);
    const both = await runCliCaptured(["score", SAMPLE, "--dry-run", ...judge, "--reasons", "--no-reasons"]);
    assert.equal(both.code, 2);
    assert.match(both.err, /--reasons and --no-reasons contradict each other/);
    // The cheapest layout asked for: nothing cheaper to offer. The offline judge costs nothing: no offer.
    const cheapest = await runCliCaptured(["score", SAMPLE, "--dry-run", ...judge, "--layout", "fused", "--answers-per-call", "8"]);
    assert.equal(cheapest.code, 0, cheapest.err);
    assert.doesNotMatch(cheapest.out, /Cheaper ways/);
    const offline = await runCliCaptured(["score", SAMPLE, "--dry-run", "--judge", "offline"]);
    assert.doesNotMatch(offline.out, /Cheaper ways/);
  });

  it("multimodal relevance: rows whose images will be refused are named once and not counted as calls; the offline judge's image rows neither", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "images"));
    for (const file of ["bar-chart.png", "stop-sign.png"]) copyFileSync(path.join(IMAGES, file), path.join(dir, "images", file));
    writeFileSync(path.join(dir, "images", "notes.png"), "not an image at all");
    const contexts = [
      ["images/stop-sign.png", "A road sign."], // row 0: fine
      ["A passage.", "images/missing.png"], // row 1: no such file (context 2)
      ["~/images/stop-sign.png"], // row 2: "~" is not expanded
      ["images/notes.png"], // row 3: not an image, whatever the name says
      ["images/bar-chart.png"], // row 4: too big for --max-image-bytes 3000 (3,426 bytes)
      ["images/stop-sign.png"], // row 5: fine (821 bytes)
      ["Only text here."], // row 6: fine, no image
    ];
    const lines = ["user_input,response,retrieved_contexts", ...contexts.map((c, i) => `Q${i}?,A${i}.,"${JSON.stringify(c).replace(/"/g, '""')}"`)];
    const input = path.join(dir, "mm.csv");
    writeFileSync(input, `${lines.join("\n")}\n`);
    const judge = ["--judge", "openai", "--base-url", fake.url(), "--no-cache", "--metrics", "multimodal_relevance", "--max-image-bytes", "3000"];
    const run = await runCliCaptured(["score", input, "--dry-run", ...judge]);
    assert.equal(run.code, 0, run.err);
    assert.equal(fake.server.requests.length, 0);
    const failing = run.out.split("\n").filter((l) => l.includes("will fail before any call"));
    assert.equal(failing.length, 1, run.out);
    assert.match(failing[0]!, /^4 rows will fail before any call, and are not counted below: row 1 context 2: images\/missing\.png: no such file: .*missing\.png .*; row 2 context 1: ~\/images\/stop-sign\.png: .*starts with "~", which is not expanded.*; row 3 context 1: images\/notes\.png: the bytes are not a PNG, JPEG, GIF, WebP or BMP image.*; and 1 more$/);
    assert.match(run.out, /judging relevance\s+3\s+0/, "3 calls: rows 0, 5 and 6");
    // The same rows fail in a run, and those only: the estimate told the truth.
    const out = path.join(dir, "scored.csv");
    const real = await runCliCaptured(["score", input, "--out", out, "--no-progress", ...judge], { OPENAI_API_KEY: "sk-estimate-test-0000" });
    assert.ok(existsSync(out), real.err);
    const { header, records } = parseCsv(readFileSync(out, "utf8"));
    const refused = records.map((r) => (r.fields[header.indexOf("multimodal_relevance_error")] ?? "").startsWith("image refused"));
    assert.deepEqual(refused, [false, true, true, true, true, false, false]);
    // The offline judge cannot see images: every image row fails, only the text row is a call.
    const offline = await runCliCaptured(["score", input, "--dry-run", "--judge", "offline", "--metrics", "multimodal_relevance"]);
    assert.equal(offline.code, 0, offline.err);
    assert.match(offline.out, /^6 rows will fail before any call, and are not counted below: row 0 context 1: images\/stop-sign\.png: the offline \(approximate\) judge cannot see images; /m);
    assert.match(offline.out, /judging relevance\s+1$/m);
  });

  it("refuses a bad --rpm in flag words", async () => {
    const run = await runCliCaptured(["score", SAMPLE, "--dry-run", "--rpm", "0"]);
    assert.equal(run.code, 2);
    assert.match(run.err, /--rpm/);
  });
});
