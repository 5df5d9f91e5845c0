/**
 * `evalframe score --metrics multimodal_relevance` through the real CLI entry
 * (in-process, as cli-where.test.ts runs it) against the fake OpenAI server
 * and a real image server on loopback, on real files in a temp folder: the
 * flags that reach the metric's and the loader's options, and what the user
 * reads of a run (the scored table's cells, the usage line, the estimate).
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { parseCsv } from "../src/dataset/csv";
import { formatCsv } from "../src/dataset/export";
import { runCliCaptured, type CliRun } from "./support/cli";
import { useFakeOpenAI, type ChatContext } from "./support/fake-openai";
import { promptKind, scriptedAnswerCorrectness } from "./support/scripted-judge";
import { gifOf } from "./support/animated-images";
import { tempDir } from "./support/files";
import { TestHttpServer } from "./support/http-server";

const IMAGES = path.join(__dirname, "..", "data", "images");
const PNG = readFileSync(path.join(IMAGES, "bar-chart.png"));
const KEY = "sk-evalframe-cli-mm-SECRET-55c1e0";

interface Part {
  type: string;
  text?: string;
  image_url?: { url: string; detail?: string };
}

/** The user message's parts of a relevance request. */
function parts(ctx: { messages: { role: string; content: unknown }[] }): Part[] {
  return ctx.messages.find((m) => m.role === "user")!.content as Part[];
}

/** Scripted vision judge: relevant when the answer says "right" (answer correctness's prompts get the scripted answer-correctness judge). */
function relevanceScript(ctx: ChatContext): object {
  if (promptKind(ctx.body) !== "relevance") return scriptedAnswerCorrectness(ctx);
  const { answer } = JSON.parse(parts(ctx)[0]!.text!.split("\n").slice(1).join("\n")) as { answer: string };
  return { relevant: /right/i.test(answer), reason: `the answer "${answer}" was read` };
}

const { server, url } = useFakeOpenAI(() => ({ chat: relevanceScript }));
const images = new TestHttpServer();
let imagesURL = "";
before(async () => {
  imagesURL = await images.start();
  images.serve("/remote.png", PNG);
});
after(() => images.stop());
beforeEach(() => {
  images.seen.length = 0;
});

/** A temp folder holding `images/` (copies of data/images) and an input CSV of `rows`; returns the input's path. */
function inputFile(rows: Record<string, unknown>[], name = "input.csv"): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, "images"));
  for (const file of ["bar-chart.png", "stop-sign.png", "temperature.jpg", "pipeline.bmp"]) copyFileSync(path.join(IMAGES, file), path.join(dir, "images", file));
  const file = path.join(dir, name);
  writeFileSync(file, formatCsv(rows));
  return file;
}

/** A row of the input: question, answer and its contexts as a JSON list. */
function row(id: string, answer: string, contexts: readonly string[]): Record<string, unknown> {
  return { id, user_input: `What does ${id} show?`, response: answer, retrieved_contexts: JSON.stringify(contexts) };
}

/** The judge settings of every run: the fake server, a key, no cache. */
function env(): Record<string, string> {
  return { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url() };
}

/** `evalframe score INPUT --out scored.csv --no-progress --no-cache ARGS` against the fake server. */
function score(input: string, args: readonly string[]): Promise<CliRun> {
  return runCliCaptured(["score", input, "--out", path.join(path.dirname(input), "scored.csv"), "--no-progress", "--no-cache", ...args], env());
}

/** The scored table next to `input`, as the CSV's own text cells by column. */
function scoredCells(input: string): Record<string, string>[] {
  const { header, records } = parseCsv(readFileSync(path.join(path.dirname(input), "scored.csv"), "utf8"));
  return records.map((r) => Object.fromEntries(header.map((h, i) => [h, r.fields[i] ?? ""])));
}

/** The error cells of the scored table, by row id. */
function errors(input: string): Record<string, string> {
  return Object.fromEntries(scoredCells(input).map((r) => [r["id"]!, r["multimodal_relevance_error"]!]));
}

/** The detail of every image part the judge was sent. */
function detailsSent(): string[] {
  return server.chatRequests().flatMap((r) => parts(r.body as { messages: { role: string; content: unknown }[] }).flatMap((p) => (p.type === "image_url" ? [p.image_url!.detail ?? "(none)"] : [])));
}

const MM = ["--metrics", "multimodal_relevance"];

describe("score's multimodal flags reach the metric and the image loader", () => {
  it("--image-detail low|high|auto is the image_url.detail of every image sent (auto when not given)", async () => {
    const input = inputFile([row("a", "right", ["images/bar-chart.png", "images/stop-sign.png"])]);
    const plain = await score(input, MM);
    assert.equal(plain.code, 0, plain.err);
    assert.deepEqual(detailsSent(), ["auto", "auto"]);
    for (const detail of ["low", "high"]) {
      server.reset();
      const r = await score(input, [...MM, "--image-detail", detail]);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(detailsSent(), [detail, detail]);
    }
  });

  it("the image detail is recorded in the scored table, so diff tells a run at --image-detail low from one at the default", async () => {
    const input = inputFile([row("a", "right", ["images/bar-chart.png"]), row("b", "wrong", ["images/stop-sign.png"])]);
    const dir = path.dirname(input);
    const run = async (name: string, args: readonly string[]) => {
      const r = await runCliCaptured(["score", input, "--out", path.join(dir, name), "--no-progress", "--no-cache", ...MM, ...args], env());
      assert.equal(r.code, 0, r.err);
      const { header, records } = parseCsv(readFileSync(path.join(dir, name), "utf8"));
      return records.map((rec) => rec.fields[header.indexOf("multimodal_relevance_image_detail")]);
    };
    assert.deepEqual(await run("default.csv", []), ["auto", "auto"]);
    assert.deepEqual(await run("low.csv", ["--image-detail", "low"]), ["low", "low"]);
    const diff = await runCliCaptured(["diff", path.join(dir, "default.csv"), path.join(dir, "low.csv"), "--metric", "multimodal_relevance", "--fail-on-scoring-change"], env());
    assert.equal(diff.code, 1, diff.err);
    assert.match(diff.err, /fail-on-scoring-change: the runs were scored differently.*image detail "auto" before, "low" after \(2 paired answers\)/);
    // A table scored before the detail was recorded was sent at the default: alike with auto, not with low.
    const { header, records } = parseCsv(readFileSync(path.join(dir, "default.csv"), "utf8"));
    const keep = header.map((h, i) => (h === "multimodal_relevance_image_detail" ? -1 : i)).filter((i) => i >= 0);
    writeFileSync(path.join(dir, "old.csv"), formatCsv(records.map((rec) => Object.fromEntries(keep.map((i) => [header[i]!, rec.fields[i] ?? ""])))));
    const oldAuto = await runCliCaptured(["diff", path.join(dir, "old.csv"), path.join(dir, "default.csv"), "--metric", "multimodal_relevance", "--fail-on-scoring-change"], env());
    assert.equal(oldAuto.code, 0, oldAuto.err);
    const oldLow = await runCliCaptured(["diff", path.join(dir, "old.csv"), path.join(dir, "low.csv"), "--metric", "multimodal_relevance", "--fail-on-scoring-change"], env());
    assert.equal(oldLow.code, 1, oldLow.err);
  });

  it("--max-images-per-row N fails only the rows with more images, naming the flag, and asks nothing for them", async () => {
    const input = inputFile([row("two", "right", ["images/bar-chart.png", "images/stop-sign.png"]), row("one", "right", ["images/stop-sign.png"])]);
    const r = await score(input, [...MM, "--max-images-per-row", "1"]);
    assert.equal(r.code, 0, r.err);
    const e = errors(input);
    assert.match(e["two"]!, /the row has 2 images, more than the 1 allowed \(maxImagesPerRow, --max-images-per-row\)/);
    assert.equal(e["one"], "");
    assert.equal(server.chatRequests().length, 1);
  });

  it("--max-image-bytes refuses a bigger image (its row only), naming the flag", async () => {
    // bar-chart.png is 3,426 bytes, stop-sign.png 821.
    const input = inputFile([row("big", "right", ["images/bar-chart.png"]), row("small", "right", ["images/stop-sign.png"])]);
    const r = await score(input, [...MM, "--max-image-bytes", "2000"]);
    assert.equal(r.code, 0, r.err);
    const e = errors(input);
    assert.match(e["big"]!, /image refused, nothing was sent: .*bar-chart\.png is 3,426 bytes, more than the 2,000 allowed \(maxImageBytes, --max-image-bytes\)/);
    assert.equal(e["small"], "");
    assert.equal(server.chatRequests().length, 1);
  });

  it("--max-row-image-bytes fails a row whose images together are over it, and sends nothing of it", async () => {
    const input = inputFile([row("both", "right", ["images/bar-chart.png", "images/stop-sign.png"]), row("one", "right", ["images/bar-chart.png"])]);
    const r = await score(input, [...MM, "--max-row-image-bytes", "4000"]);
    assert.equal(r.code, 0, r.err);
    const e = errors(input);
    assert.match(e["both"]!, /the row's images come to [\d,]+ bytes( \([\d.]+ MiB\))?, more than one request may carry \([\d,]+ bytes( \([\d.]+ MiB\))?: maxRowImageBytes, --max-row-image-bytes\); nothing was sent/);
    assert.equal(e["one"], "");
    assert.equal(server.chatRequests().length, 1);
  });

  it("--download-timeout-ms gives up on an image that does not come in time, failing its row only", async () => {
    images.routes.set("/hang.png", () => undefined); // never answers
    const input = inputFile([row("slow", "right", [`${imagesURL}/hang.png`]), row("fast", "right", [`${imagesURL}/remote.png`])]);
    const started = Date.now();
    const r = await score(input, [...MM, "--allow-private-network", "--download-timeout-ms", "300"]);
    assert.equal(r.code, 0, r.err);
    assert.ok(Date.now() - started < 8_000, "the 10 s default was not used");
    const e = errors(input);
    assert.match(e["slow"]!, /no complete image within 300 ms \(downloadTimeoutMs, --download-timeout-ms\)/);
    assert.equal(e["fast"], "");
  });

  it("--max-concurrent-loads 1 downloads one image at a time", async () => {
    let open = 0;
    let most = 0;
    for (let i = 0; i < 4; i++) {
      images.routes.set(`/slow${i}.png`, (_req, res) => {
        open++;
        most = Math.max(most, open);
        setTimeout(() => {
          open--;
          res.setHeader("content-type", "image/png");
          res.end(PNG);
        }, 40);
      });
    }
    const input = inputFile([0, 1, 2, 3].map((i) => row(`r${i}`, "right", [`${imagesURL}/slow${i}.png`])));
    const many = await score(input, [...MM, "--allow-private-network"]);
    assert.equal(many.code, 0, many.err);
    assert.ok(most > 1, `by default the four images load together (${most} at once)`);
    most = 0;
    const one = await score(input, [...MM, "--allow-private-network", "--max-concurrent-loads", "1"]);
    assert.equal(one.code, 0, one.err);
    assert.equal(most, 1);
    assert.ok(Object.values(errors(input)).every((e) => e === ""));
  });

  it("--kept-image-bytes 0 keeps no image: a later row naming the same URL downloads it again", async () => {
    // More rows than are judged at once (16 at --concurrency 2), so the later ones ask after the first download ended.
    const rows = Array.from({ length: 24 }, (_, i) => row(`r${i}`, "right", [`${imagesURL}/remote.png`]));
    const input = inputFile(rows);
    const kept = await score(input, [...MM, "--allow-private-network", "--concurrency", "2"]);
    assert.equal(kept.code, 0, kept.err);
    assert.equal(images.seen.length, 1, "kept by default: downloaded once");
    images.seen.length = 0;
    const none = await score(input, [...MM, "--allow-private-network", "--concurrency", "2", "--kept-image-bytes", "0"]);
    assert.equal(none.code, 0, none.err);
    assert.ok(images.seen.length > 1, `downloaded ${images.seen.length} times`);
    assert.ok(Object.values(errors(input)).every((e) => e === ""));
  });

  it("--image-root that is not a folder exits 2 before anything is read or sent, saying how to fix it", async () => {
    const input = inputFile([row("a", "right", ["images/stop-sign.png"]), row("b", "right", ["images/bar-chart.png"])]);
    const missing = path.join(path.dirname(input), "no-such-folder");
    const r = await score(input, [...MM, "--image-root", missing]);
    assert.equal(r.code, 2, r.err);
    assert.equal(r.out, "");
    assert.deepEqual(r.err.trim().split("\n"), [
      `evalframe: score: --image-root ${missing}: no such folder; give the folder the image paths of "retrieved_contexts" are relative to, or leave it out to use the input file's folder (see evalframe score --help)`,
    ]);
    const file = await score(input, [...MM, "--image-root", input]);
    assert.equal(file.code, 2, file.err);
    assert.match(file.err, /--image-root .*input\.csv: not a folder; give the folder that holds the images, not a file/);
    assert.equal(server.chatRequests().length, 0, "nothing was sent");
    const dryRun = await runCliCaptured(["score", input, ...MM, "--dry-run", "--image-root", missing], env());
    assert.equal(dryRun.code, 2, dryRun.err);
  });

  it("a bad value exits 2 with one line naming the flag, before anything is sent", async () => {
    const input = inputFile([row("a", "right", ["images/stop-sign.png"])]);
    const cases: [string[], RegExp][] = [
      [["--max-images-per-row", "0"], /score: --max-images-per-row must be a whole number from 1 to 9007199254740991, in digits only \(e\.g\. [^)]*\); got "0"/],
      [["--max-image-bytes", "10MB"], /score: --max-image-bytes must be a whole number from 1 to 9007199254740991, in digits only \(e\.g\. [^)]*\); got "10MB"/],
      [["--max-row-image-bytes", "-5"], /score: --max-row-image-bytes must be a whole number from 1 to 9007199254740991, in digits only \(e\.g\. [^)]*\); got "-5"/],
      [["--download-timeout-ms", "1.5"], /score: --download-timeout-ms must be a whole number from 1 to 9007199254740991, in digits only \(e\.g\. [^)]*\); got "1\.5"/],
      [["--max-concurrent-loads", ""], /score: --max-concurrent-loads must be a whole number from 1 to 9007199254740991, in digits only \(e\.g\. [^)]*\); got ""/],
      [["--kept-image-bytes", "-1"], /score: --kept-image-bytes must be a whole number from 0 to 9007199254740991, in digits only \(e\.g\. [^)]*\); got "-1"/],
      [["--image-detail", "medium"], /score: --image-detail must be one of low, high, auto, got "medium"/],
    ];
    for (const [args, pattern] of cases) {
      const r = await score(input, [...MM, ...args]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.equal(r.err.trim().split("\n").length, 1, r.err);
      assert.match(r.err, pattern);
    }
    assert.equal(server.chatRequests().length, 0);
    const zero = await score(input, [...MM, "--kept-image-bytes", "0"]);
    assert.equal(zero.code, 0, `--kept-image-bytes 0 is allowed: ${zero.err}`);
  });

  it("is refused (exit 2) when multimodal_relevance is not scored: left out of --metrics, or the input has no contexts", async () => {
    const qa = inputFile([{ id: "q", user_input: "Capital of Peru?", response: "Lima.", reference: "Lima is the capital of Peru." }]);
    const left = await score(qa, ["--metrics", "answer_correctness", "--max-image-bytes", "5000", "--image-detail", "low"]);
    assert.equal(left.code, 2);
    assert.match(
      left.err,
      /score: --max-image-bytes and --image-detail apply only to multimodal_relevance, which --metrics answer_correctness leaves out; add multimodal_relevance to --metrics or drop those flags/,
    );
    const auto = await score(qa, ["--kept-image-bytes", "0"]);
    assert.equal(auto.code, 2);
    assert.match(auto.err, /score: --kept-image-bytes applies only to multimodal_relevance, and .*input\.csv cannot be scored on it \(it needs a "retrieved_contexts" column \(or contexts, context\)\); drop the flag/);
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0);
  });

  it("--metrics multimodal_relevance on a file without contexts is bad usage (exit 2) naming the column and how to fix it, before anything is sent", async () => {
    const qa = inputFile([{ id: "q", user_input: "Capital of Peru?", response: "Lima.", reference: "Lima is the capital of Peru." }]);
    const r = await score(qa, ["--metrics", "answer_correctness,multimodal_relevance"]);
    assert.equal(r.code, 2, r.err);
    assert.match(
      r.err,
      /^evalframe: score: --metrics names multimodal_relevance, which needs a "retrieved_contexts" column \(or contexts, context\), and .*input\.csv has none \(its columns are: id, user_input, response, reference\); add the column, or leave multimodal_relevance out of --metrics \(see evalframe score --help\)\n$/,
    );
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0);
  });

  it("--help lists every flag, and says they need multimodal_relevance", async () => {
    const help = await runCliCaptured(["score", "--help"], {});
    assert.equal(help.code, 0);
    for (const flag of ["--max-images-per-row N", "--max-image-bytes N", "--max-row-image-bytes N", "--download-timeout-ms MS", "--max-concurrent-loads N", "--kept-image-bytes N", "--image-detail D"]) {
      assert.ok(help.out.includes(`  ${flag} `), `score --help lists ${flag}`);
    }
    assert.match(help.out, /--max-images-per-row to --image-detail are refused when\s+multimodal_relevance is not scored/);
  });
});

describe("the model that answers each metric is the one named", () => {
  const models = ["--model", "text-judge-1", "--vision-model", "vision-judge-1"];
  /** `model @ host` of the fake server. */
  const at = (model: string) => `${model} @ ${new URL(url()).host}`;

  it("a multimodal run's usage line, closing summary and --summary-json name the vision model, which answered every call", async () => {
    const input = inputFile([row("a", "right", ["images/bar-chart.png", "A bar chart of sales."]), row("b", "wrong", ["images/stop-sign.png"])]);
    const summary = path.join(path.dirname(input), "summary.json");
    const r = await score(input, [...MM, ...models, "--summary-json", summary]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual([...new Set(server.chatRequests().map((q) => (q.body as { model: string }).model))], ["vision-judge-1"]);
    const usageLine = r.out.trim().split("\n").at(-1)!;
    assert.match(usageLine, /^2 rows · 2 chat calls .* · vision-judge-1 @ 127\.0\.0\.1:\d+$/);
    assert.ok(!r.out.includes("text-judge-1"), r.out);
    assert.ok(r.out.includes(`Scored by ${at("vision-judge-1")}.`), r.out);
    const json = JSON.parse(readFileSync(summary, "utf8")) as { judges: string[]; usage: { judge: string }; usageLine: string };
    assert.deepEqual(json.judges, [at("vision-judge-1")]);
    assert.equal(json.usage.judge, at("vision-judge-1"));
    assert.ok(json.usageLine.endsWith(at("vision-judge-1")));
    assert.deepEqual(scoredCells(input).map((c) => c["multimodal_relevance_judge"]), [at("vision-judge-1"), at("vision-judge-1")]);
  });

  it("--dry-run's estimate names the vision model, and says why prompts with images are predicted", async () => {
    const input = inputFile([row("a", "right", ["images/bar-chart.png", "A bar chart of sales."])]);
    const r = await runCliCaptured(["score", input, ...MM, ...models, "--dry-run", "--no-cache"], env());
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`^Estimate for 1 row \\(multimodal_relevance\\) with vision-judge-1 @ 127\\.0\\.0\\.1:\\d+; nothing was sent\\.`));
    assert.match(r.out, /Tokens: vision-judge-1 o200k_base .*; 1 prompt with images priced without loading them \(765 tokens an image, 85 at detail low\)/);
    assert.doesNotMatch(r.out, /text-judge-1|statements not extracted/);
    assert.equal(server.chatRequests().length, 0);
  });

  it("with answer correctness too, each model is named with its metric: in the usage line and the estimate", async () => {
    const input = inputFile([{ ...row("a", "Lima is the capital. It is right.", ["A passage on Peru.", "images/stop-sign.png"]), reference: "Lima is the capital." }]);
    const both = `${at("text-judge-1")} (answer_correctness), ${at("vision-judge-1")} (multimodal_relevance)`;
    const r = await score(input, [...models]);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.trim().endsWith(` · ${both}`), r.out);
    const dry = await runCliCaptured(["score", input, ...models, "--dry-run", "--no-cache"], env());
    assert.equal(dry.code, 0, dry.err);
    assert.ok(dry.out.startsWith(`Estimate for 1 row (answer_correctness, multimodal_relevance) with ${both}; nothing was sent.`), dry.out);
  });

  it("--batch: the judge column and the usage line name the vision model", async () => {
    const input = inputFile([row("a", "right", ["images/bar-chart.png"]), row("b", "wrong", ["A passage."])]);
    const dir = path.dirname(input);
    server.options.batches = { pollsToComplete: 1 };
    const r = await runCliCaptured(
      ["score", input, ...MM, ...models, "--out", path.join(dir, "scored.csv"), "--cache-dir", path.join(dir, "cache"), "--batch", "--batch-dir", path.join(dir, "batches"), "--poll-interval", "0.01"],
      env(),
    );
    assert.equal(r.code, 0, r.err);
    assert.equal(server.chatRequests().length, 0, "no interactive call");
    assert.deepEqual(scoredCells(input).map((c) => [c["multimodal_relevance"], c["multimodal_relevance_judge"]]), [["1", at("vision-judge-1")], ["0", at("vision-judge-1")]]);
    assert.match(r.out.trim().split("\n").at(-1)!, /batch lines \(half price\) .* · vision-judge-1 @ 127\.0\.0\.1:\d+$/);
    assert.ok(r.out.includes(`Scored by ${at("vision-judge-1")}.`), r.out);
  });
});

describe("image paths as written in the contexts", () => {
  it("a path starting with ~ fails its row saying that ~ is not expanded and how to give the path", async () => {
    const input = inputFile([row("home", "right", ["~/pics/a.png"]), row("ok", "right", ["images/stop-sign.png"])]);
    const root = path.dirname(input);
    const r = await score(input, MM);
    assert.equal(r.code, 0, r.err);
    const e = errors(input);
    assert.match(e["home"]!, /image refused, nothing was sent: context 1 \(~\/pics\/a\.png\): ~\/pics\/a\.png starts with "~", which is not expanded to your home folder here/);
    assert.ok(e["home"]!.includes(`give the path relative to the image root ${realpathSync(root)} (imageRoot, --image-root), or absolute`), e["home"]);
    assert.doesNotMatch(e["home"]!, /no such file/);
    assert.equal(e["ok"], "");
    // A folder named "~" inside the image root is a folder like any other.
    mkdirSync(path.join(root, "~", "pics"), { recursive: true });
    copyFileSync(path.join(IMAGES, "stop-sign.png"), path.join(root, "~", "pics", "a.png"));
    const there = await score(input, MM);
    assert.equal(there.code, 0, there.err);
    assert.equal(errors(input)["home"], "");
  });

  it("an --image-root written with ~ (quoted, so no shell expanded it) says so", async () => {
    const input = inputFile([row("a", "right", ["images/stop-sign.png"])]);
    const r = await score(input, [...MM, "--image-root", "~/no-such-evalframe-folder"]);
    assert.equal(r.code, 2, "bad usage, found before any row is read");
    assert.match(r.err, /--image-root ~\/no-such-evalframe-folder: no such folder \("~" is not expanded to your home folder here: give the full path\)/);
  });
});

describe("contexts cells", () => {
  /** The context parts of the request whose question names `id`: each text context's text, each image as "image". */
  function contextsSent(id: string): string[] {
    const request = server.chatRequests().find((q) => parts(q.body as { messages: { role: string; content: unknown }[] })[0]!.text!.includes(`What does ${id} show?`));
    assert.ok(request, `a request for ${id}`);
    const sent = parts(request.body as { messages: { role: string; content: unknown }[] }).slice(1);
    return sent.flatMap((p) => {
      if (p.type === "image_url") return ["image"];
      const text = /^Context \d+ \(text, JSON data\): (.*)$/s.exec(p.text!);
      return text ? [JSON.parse(text[1]!) as string] : [];
    });
  }

  it("a cell holding a JSON string is one context (a passage, or an image path), in a CSV and in JSONL", async () => {
    const rows = [
      { id: "one", user_input: "What does one show?", response: "right", retrieved_contexts: '"just one passage"' },
      { id: "img", user_input: "What does img show?", response: "right", retrieved_contexts: '"images/stop-sign.png"' },
      { id: "twice", user_input: "What does twice show?", response: "right", retrieved_contexts: JSON.stringify(JSON.stringify(["a passage", "images/stop-sign.png"])) },
    ];
    const csv = inputFile(rows);
    assert.ok(readFileSync(csv, "utf8").includes('"""just one passage"""'), "the CSV cell is the JSON string, quotes and all");
    const r = await score(csv, MM);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(contextsSent("one"), ["just one passage"]);
    assert.deepEqual(contextsSent("img"), ["image"]);
    assert.deepEqual(contextsSent("twice"), ["a passage", "image"]);
    assert.deepEqual(Object.values(errors(csv)), ["", "", ""]);

    server.reset();
    const jsonl = path.join(path.dirname(csv), "input.jsonl");
    writeFileSync(jsonl, rows.map((x) => JSON.stringify(x)).join("\n") + "\n");
    const j = await score(jsonl, MM);
    assert.equal(j.code, 0, j.err);
    assert.deepEqual(contextsSent("one"), ["just one passage"]);
    assert.deepEqual(contextsSent("img"), ["image"]);
  });

  it("an empty contexts cell is written back empty (not as []), interactively and in batch mode; its row fails with the reason", async () => {
    const rows = [
      { id: "empty", user_input: "What does empty show?", response: "right", retrieved_contexts: "" },
      { id: "ok", user_input: "What does ok show?", response: "right", retrieved_contexts: JSON.stringify(["images/stop-sign.png"]) },
    ];
    const input = inputFile(rows);
    const dir = path.dirname(input);
    server.options.batches = { pollsToComplete: 1 };
    const runs: [string, string[]][] = [
      ["scored.csv", []],
      ["batch.csv", ["--out", path.join(dir, "batch.csv"), "--cache-dir", path.join(dir, "cache"), "--batch", "--batch-dir", path.join(dir, "batches"), "--poll-interval", "0.01"]],
    ];
    for (const [out, args] of runs) {
      const r = args.length === 0 ? await score(input, MM) : await runCliCaptured(["score", input, ...MM, "--no-progress", ...args], env());
      assert.equal(r.code, 0, `${out}: ${r.err}`);
      const text = readFileSync(path.join(dir, out), "utf8");
      const { header, records } = parseCsv(text);
      const cell = (id: string, column: string) => records.find((x) => x.fields[header.indexOf("id")] === id)!.fields[header.indexOf(column)];
      assert.equal(cell("empty", "retrieved_contexts"), "", `${out}: the empty cell stays empty`);
      assert.ok(!text.includes("[]"), `${out} holds no []: ${text}`);
      assert.equal(cell("ok", "retrieved_contexts"), '["images/stop-sign.png"]');
      assert.match(cell("empty", "multimodal_relevance_error")!, /^no retrieved contexts: relevance is judged against them/);
      assert.equal(cell("ok", "multimodal_relevance_error"), "");
    }
  });
});

describe("animated images", () => {
  it("an animated GIF fails its row (nothing of it sent), and the other rows are judged", async () => {
    const input = inputFile([row("moving", "right", ["images/spinner.gif", "A passage."]), row("still", "right", ["images/stop-sign.png"])]);
    writeFileSync(path.join(path.dirname(input), "images", "spinner.gif"), gifOf(3, true));
    const r = await score(input, MM);
    assert.equal(r.code, 0, r.err);
    const e = errors(input);
    assert.match(e["moving"]!, /^image refused, nothing was sent: context 1 \(images\/spinner\.gif\): the GIF is animated \(3 frames, looping\): vision models read only its first frame/);
    assert.equal(e["still"], "");
    assert.equal(server.chatRequests().length, 1);
  });
});
