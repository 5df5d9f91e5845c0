/**
 * Verdicts without reasons ([F]; the default since 2026-12-05, `reasons:
 * false`, `--no-reasons`): the judge is asked for each side's verdicts alone,
 * in both layouts; the scores and verdicts are the ones a run with reasons
 * (`reasons: true`, `--reasons`) gives, the replies are shorter, the cache
 * reads them back, and the reasons read "".
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, createJudge, estimate, explanation, score, type AnswerCorrectnessLayout, type JudgeOptions } from "../src/index";
import { runCliCaptured } from "./support/cli";
import { tempDir, writeText } from "./support/files";
import { useFakeOpenAI } from "./support/fake-openai";
import { records } from "./support/frames";
import { openAITokens } from "./support/openai-tokens";
import { promptKind, scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, tokenizer: openAITokens }));
const quiet = { progress: false as const, quiet: true };
const KEY = "sk-test-verdicts-only-0000000000";

function judgeFor(options: JudgeOptions = {}) {
  return createJudge({ judge: "openai", apiKey: KEY, baseURL: url(), model: "gpt-4o-mini", cache: false, quiet: true, retryBaseDelayMs: 1, ...options });
}

/** Two questions, three models: some statements shared with the reference, some wrong, one answer empty. */
const ROWS = [
  { id: "q1", model: "a", user_input: "Where is the Louvre?", response: "The Louvre is in Paris. The Louvre opened in 1793.", reference: "The Louvre is in Paris. The Louvre opened in 1793." },
  { id: "q1", model: "b", user_input: "Where is the Louvre?", response: "The Louvre is in Lyon. The Louvre opened in 1793.", reference: "The Louvre is in Paris. The Louvre opened in 1793." },
  { id: "q1", model: "c", user_input: "Where is the Louvre?", response: "", reference: "The Louvre is in Paris. The Louvre opened in 1793." },
  { id: "q2", model: "a", user_input: "When does water boil?", response: "Water boils at 100 °C at sea level.", reference: "Water boils at 100 °C at sea level. Water boils at 212 °F at sea level." },
  { id: "q2", model: "b", user_input: "When does water boil?", response: "Water boils at 90 °C at sea level. Water is wet.", reference: "Water boils at 100 °C at sea level. Water boils at 212 °F at sea level." },
  { id: "q2", model: "c", user_input: "When does water boil?", response: "Water boils at 212 °F at sea level.", reference: "Water boils at 100 °C at sea level. Water boils at 212 °F at sea level." },
];

const SCORES = ["answer_correctness", "answer_correctness_factual", "answer_correctness_semantic", "answer_correctness_tp", "answer_correctness_fp", "answer_correctness_fn", "answer_correctness_error"];

type Verdict = { statement: string; verdict: string; reason: string };
function details(row: Record<string, unknown>): { response: Verdict[]; reference: Verdict[] } {
  return JSON.parse(String(row["answer_correctness_statements"])) as { response: Verdict[]; reference: Verdict[] };
}

/** Scores and each statement's verdict, without the reasons. */
function outcome(rows: Record<string, unknown>[]) {
  return rows.map((r) => {
    const d = details(r);
    const sides = [d.response, d.reference].map((side) => side.map((v) => [v.statement, v.verdict]));
    return { ...Object.fromEntries(SCORES.map((c) => [c, r[c]])), sides };
  });
}

/** The requests that carry verdicts (classification, or split-and-classify), by the reply schema's name. */
function verdictRequests() {
  return server.chatRequests().filter((r) => ["verdicts", "statements_verdicts"].includes(promptKind(r.body) ?? ""));
}

/** `evalframe score` of ROWS against the server with `flags`: the run and the statements file's lines. */
async function scoreOnTheCommandLine(flags: string[]): Promise<{ run: Awaited<ReturnType<typeof runCliCaptured>>; lines: string[] }> {
  const dir = tempDir();
  const input = writeText(dir, "rows.csv", ["id,model,user_input,response,reference", ...ROWS.map((r) => [r.id, r.model, r.user_input, r.response, r.reference].map((c) => JSON.stringify(c)).join(","))].join("\n") + "\n");
  const run = await runCliCaptured(
    ["score", input, "--out", path.join(dir, "scored.csv"), "--statements-out", path.join(dir, "statements.csv"), "--judge", "openai", "--no-cache", "--no-progress", ...flags],
    { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url() },
  );
  const file = path.join(dir, "statements.csv");
  return { run, lines: run.code === 0 ? readFileSync(file, "utf8").trim().split("\n") : [] };
}

describe("answer correctness without reasons", () => {
  for (const layout of ["ragas", "fused"] as AnswerCorrectnessLayout[]) {
    it(`${layout} layout: the same scores and verdicts as with reasons, from shorter replies that carry no reason`, async () => {
      const withReasons = records(await score(ROWS, [answerCorrectness({ layout, reasons: true })], { judge: judgeFor(), ...quiet }));
      const long = server.totalUsage().chatCompletionTokens;
      server.reset();
      const bare = records(await score(ROWS, [answerCorrectness({ layout })], { judge: judgeFor(), ...quiet })); // the default
      const short = server.totalUsage().chatCompletionTokens;

      assert.deepEqual(outcome(bare), outcome(withReasons));
      assert.deepEqual(bare.map((r) => r["answer_correctness_tp"]), [2, 1, 0, 1, 0, 1], "the counts are the scripted judge's");
      // The judge's verdicts have no reason; the ones evalframe decides itself (an empty answer) keep theirs.
      const judged = bare.filter((r) => r["response"] !== "").flatMap((r) => [...details(r).response, ...details(r).reference]);
      assert.ok(judged.length > 0 && judged.every((v) => v.reason === ""));
      assert.ok(details(bare[2]!).reference.every((v) => v.reason === "the response makes no statements"));

      const requests = verdictRequests();
      assert.ok(requests.length > 0);
      for (const request of requests) {
        const schema = request.body.response_format.json_schema.schema;
        for (const side of ["response", "reference"]) assert.equal(schema.properties[side].items.type, "string", `${side} verdicts are strings, no {reason, verdict} object`);
        assert.doesNotMatch(JSON.stringify(request.body.messages), /reason/i, "neither the instructions nor the example ask for a reason");
      }
      assert.ok(short < long, `completion tokens ${short} without reasons, ${long} with`);
    });
  }

  it("reads replies without reasons back from the cache, under keys of their own", async () => {
    const cacheDir = tempDir();
    const first = records(await score(ROWS, [answerCorrectness({ reasons: false })], { judge: judgeFor({ cache: true, cacheDir }), ...quiet }));
    const calls = server.chatRequests().length;
    const again = records(await score(ROWS, [answerCorrectness({ reasons: false })], { judge: judgeFor({ cache: true, cacheDir }), ...quiet }));
    assert.equal(server.chatRequests().length, calls, "the second run is served by the cache");
    assert.deepEqual(again, first);
    // With reasons, the classifications are asked again (the extractions are shared).
    await score(ROWS, [answerCorrectness({ reasons: true })], { judge: judgeFor({ cache: true, cacheDir }), ...quiet });
    const asked = server.chatRequests().slice(calls).map((r) => promptKind(r.body));
    assert.deepEqual([...new Set(asked)], ["verdicts"]);
    assert.ok(server.chatRequests().slice(calls).every((r) => "reason" in (r.body.response_format.json_schema.schema.properties.response.items.properties ?? {})));
  });

  it("explanation(): a statement without a reason is one line, and the HTML has no empty reason column; with reasons, each is under its statement", async () => {
    const bare = await score(ROWS, [answerCorrectness()], { judge: judgeFor(), ...quiet });
    const plain = explanation(bare, 1);
    assert.match(plain.text, /\n {2}A1 (TP|FP) +\S.*\n {2}A2 (TP|FP) /, plain.text);
    assert.doesNotMatch(plain.text, /\n {13}\n/, "no line of spaces where a reason would be");
    assert.doesNotMatch(plain.html, />reason</);
    const told = explanation(await score(ROWS, [answerCorrectness({ reasons: true })], { judge: judgeFor(), ...quiet }), 1);
    assert.match(told.text, /\n {2}A1 [A-Za-z]+ +.+\n {13}\S/, told.text);
    assert.match(told.html, />reason</);
  });

  it("estimates fewer completion tokens without reasons", async () => {
    const judge = judgeFor();
    const [withReasons, bare] = await Promise.all([estimate(ROWS, [answerCorrectness({ reasons: true })], { judge }), estimate(ROWS, [answerCorrectness()], { judge })]);
    assert.equal(bare.chatCalls, withReasons.chatCalls);
    assert.ok(bare.promptTokens < withReasons.promptTokens, "the instructions and example are shorter too");
    assert.ok(bare.completionTokens < withReasons.completionTokens);
    assert.equal(server.chatRequests().length, 0, "an estimate calls nothing");
  });

  for (const flags of [[], ["--no-reasons"]]) {
    it(`${flags.length === 0 ? "the command line's default" : flags.join(" ")}: verdicts alone, the statements file's reasons are empty`, async () => {
      const { run, lines } = await scoreOnTheCommandLine(flags);
      assert.equal(run.code, 0, run.err);
      assert.equal(lines[0], "row,id,model,side,n,statement,verdict,reason");
      const judged = lines.slice(1).filter((l) => !l.includes("the response makes no statements"));
      assert.ok(judged.length > 0 && judged.every((l) => /,(TP|FP|covered|FN),$/.test(l)), judged.join("\n"));
      assert.ok(verdictRequests().length > 0 && verdictRequests().every((r) => r.body.response_format.json_schema.schema.properties.response.items.type === "string"));
      assert.doesNotMatch(run.out + run.err, new RegExp(KEY));
    });
  }

  it("--reasons: a reason asked before each verdict, and written beside it in the statements file", async () => {
    const { run, lines } = await scoreOnTheCommandLine(["--reasons"]);
    assert.equal(run.code, 0, run.err);
    const judged = lines.slice(1).filter((l) => !l.includes("the response makes no statements"));
    assert.ok(judged.length > 0 && judged.every((l) => !/,(TP|FP|covered|FN),$/.test(l)), `every verdict has its reason:\n${judged.join("\n")}`);
    assert.ok(verdictRequests().length > 0 && verdictRequests().every((r) => Object.keys(r.body.response_format.json_schema.schema.properties.response.items.properties ?? {}).join() === "reason,verdict"));
  });

});
