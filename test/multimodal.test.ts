import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { ImageLoader } from "../src/context/loader";
import { createJudge, loadDataset, multimodalRelevance, score, scoreMultimodalRelevance, type Judge, type JudgeOptions } from "../src/index";
import { FakeOpenAI, type ChatContext } from "./support/fake-openai";
import { TestHttpServer } from "./support/http-server";
import { records } from "./support/frames";

const DATA = path.join(__dirname, "..", "data");
const IMAGES = path.join(DATA, "images");
const PNG = readFileSync(path.join(IMAGES, "bar-chart.png"));

interface Part {
  type: string;
  text?: string;
  image_url?: { url: string; detail?: string };
}

/** The question-and-answer data of a relevance request. */
function qa(ctx: { messages: { role: string; content: unknown }[] }): { question: string; answer: string } {
  const parts = ctx.messages.find((m) => m.role === "user")!.content as Part[];
  return JSON.parse(parts[0]!.text!.split("\n").slice(1).join("\n")) as { question: string; answer: string };
}

/** Scripted vision judge: relevant when the answer contains "right". */
function relevanceScript(ctx: ChatContext): object {
  const { answer } = qa(ctx);
  const relevant = /right/i.test(answer);
  return { relevant, reason: relevant ? `the answer "${answer}" is right` : `the answer "${answer}" is not` };
}

const server = new FakeOpenAI();
const images = new TestHttpServer();
let baseURL = "";
let imagesURL = "";
before(async () => {
  baseURL = await server.start();
  imagesURL = await images.start();
  images.serve("/remote.png", PNG);
});
after(async () => {
  await server.stop();
  await images.stop();
});
beforeEach(() => {
  server.reset();
  server.options = { chat: relevanceScript };
  images.seen.length = 0;
});

function judgeFor(options: JudgeOptions = {}): Judge {
  return createJudge({ judge: "openai", apiKey: "sk-test-key-123456", baseURL, cache: false, retryBaseDelayMs: 1, ...options });
}

const quiet = { progress: false as const, quiet: true };
const stopSign = `data:image/png;base64,${readFileSync(path.join(IMAGES, "stop-sign.png")).toString("base64")}`;

describe("multimodal relevance against a vision judge", () => {
  it("sends the question, the answer and every context in order, images as data URIs of the right type", async () => {
    const contexts = [
      "images/bar-chart.png",
      "Quarterly sales, in thousands of dollars.",
      "images/temperature.jpg",
      "images/shapes.gif",
      "images/street-scene.webp",
      "images/pipeline.bmp",
      stopSign,
      `${imagesURL}/remote.png`,
    ];
    const scored = await scoreMultimodalRelevance([{ question: "What is shown?", answer: "The right things.", contexts: JSON.stringify(contexts) }], {
      judge: judgeFor({ visionModel: "vision-test" }),
      imageRoot: DATA,
      allowPrivateNetwork: true,
      detail: "low",
      ...quiet,
    });
    assert.equal(records(scored)[0]!["multimodal_relevance_error"], "");
    const [request] = server.chatRequests();
    assert.equal(request!.body.model, "vision-test");
    const parts = request!.body.messages[1].content as Part[];
    assert.deepEqual(qa(request!.body), { question: "What is shown?", answer: "The right things." });
    const shape = parts.slice(1).map((p) => (p.type === "image_url" ? `image ${p.image_url!.url.slice(0, p.image_url!.url.indexOf(";"))} ${p.image_url!.detail}` : p.text!.replace(/\(image .*\)/, "(image)")));
    assert.deepEqual(shape, [
      "Context 1 (image):",
      "image data:image/png low",
      'Context 2 (text, JSON data): "Quarterly sales, in thousands of dollars."',
      "Context 3 (image):",
      "image data:image/jpeg low",
      "Context 4 (image):",
      "image data:image/gif low",
      "Context 5 (image):",
      "image data:image/webp low",
      "Context 6 (image):",
      "image data:image/png low",
      "Context 7 (image):",
      "image data:image/png low",
      "Context 8 (image):",
      "image data:image/png low",
    ]);
    const firstImage = parts.find((p) => p.type === "image_url")!.image_url!.url;
    assert.equal(firstImage, `data:image/png;base64,${PNG.toString("base64")}`, "the bytes are sent as they are");
    assert.match(parts[10]!.text!, /Context 6 \(image "images\/pipeline\.bmp"\)/, "the BMP, sent as PNG, keeps its name");
  });

  it("names images in the prompt without URL queries, user info or local folders, and keeps queries out of error cells", async () => {
    const contexts = [`${imagesURL}/remote.png?x=1&token=SECRET#part`, path.join(IMAGES, "bar-chart.png"), `file://${path.join(IMAGES, "shapes.gif")}`];
    const rows = [{ question: "What is shown?", answer: "right", contexts: JSON.stringify(contexts) }];
    const out = records(await scoreMultimodalRelevance(rows, { judge: judgeFor(), imageRoot: DATA, allowPrivateNetwork: false, addressPolicy: () => undefined, ...quiet }));
    assert.equal(out[0]!["multimodal_relevance_error"], "");
    const parts = server.chatRequests()[0]!.body.messages[1].content as Part[];
    assert.deepEqual(parts.filter((p) => p.type === "text" && p.text!.startsWith("Context")).map((p) => p.text), [
      `Context 1 (image "http://127.0.0.1:${images.port}/remote.png"):`,
      'Context 2 (image "images/bar-chart.png"):',
      'Context 3 (image "images/shapes.gif"):',
    ]);
    assert.ok(!JSON.stringify(server.chatRequests()[0]!.body.messages).includes(DATA), "no local folder reaches the provider");
    // The refused row's error names the URL without its query.
    const signed = { question: "Q?", answer: "right", contexts: JSON.stringify([`http://127.1:${images.port}/remote.png?token=SECRET`]) };
    const refusedRow = records(await scoreMultimodalRelevance([signed], { judge: judgeFor(), ...quiet }))[0]!;
    assert.match(String(refusedRow["multimodal_relevance_error"]), /context 1 \(http:\/\/127\.1:\d+\/remote\.png\?…\): .*not a public address/);
    assert.doesNotMatch(String(refusedRow["multimodal_relevance_error"]), /SECRET/);
  });

  it("fills the score and reason columns from the replies, and fails only the row with a refused image", async () => {
    const rows = [
      { id: "a", question: "Q1?", answer: "A right answer.", contexts: '["images/shapes.gif", "some text"]' },
      { id: "b", question: "Q2?", answer: "A wrong answer.", contexts: '["images/shapes.gif"]' },
      { id: "c", question: "Q3 secret?", answer: "A right answer.", contexts: '["../../../etc/passwd.png", "text that must not be sent"]' },
      { id: "d", question: "Q4?", answer: "right", contexts: '["only text"]' },
    ];
    const out = records(await scoreMultimodalRelevance(rows, { judge: judgeFor(), imageRoot: DATA, ...quiet }));
    assert.deepEqual(out.map((r) => r["id"]), ["a", "b", "c", "d"]);
    assert.deepEqual(out.map((r) => r["multimodal_relevance"]).filter((v) => !Number.isNaN(v)), [1, 0, 1]);
    assert.equal(out[0]!["multimodal_relevance_reason"], 'the answer "A right answer." is right');
    assert.equal(out[1]!["multimodal_relevance_reason"], 'the answer "A wrong answer." is not');
    assert.ok(Number.isNaN(out[2]!["multimodal_relevance"]));
    assert.match(String(out[2]!["multimodal_relevance_error"]), /^image refused, nothing was sent: context 1 \(\.\.\/\.\.\/\.\.\/etc\/passwd\.png\): .*outside the image root/);
    assert.equal(server.chatRequests().length, 3);
    assert.ok(server.chatRequests().every((r) => !JSON.stringify(r.body).includes("Q3 secret")), "the failing row sent nothing");
    // The rows name the vision model they were sent to (the default gpt-4o), not the chat model (gpt-4o-mini), failed rows included.
    assert.ok(server.chatRequests().every((r) => r.body.model === "gpt-4o"));
    assert.deepEqual(new Set(out.map((r) => r["multimodal_relevance_judge"])), new Set([`gpt-4o @ 127.0.0.1:${new URL(baseURL).port}`]));
  });

  it("sends nothing for a row whose URL points at a private address, and the image server sees no request", async () => {
    const rows = [{ question: "Q?", answer: "right", contexts: JSON.stringify([`${imagesURL}/remote.png`, `http://127.1:${images.port}/remote.png`]) }];
    const out = records(await scoreMultimodalRelevance(rows, { judge: judgeFor(), ...quiet }));
    assert.match(String(out[0]!["multimodal_relevance_error"]), /context 1 .*is not a public address \(loopback.*context 2 .*is not a public address/);
    assert.equal(images.seen.length, 0);
    assert.equal(server.chatRequests().length, 0);
  });

  it("loads each image once per run, even when many rows use it", async () => {
    const url = `${imagesURL}/remote.png`;
    const rows = Array.from({ length: 6 }, (_, i) => ({ question: `Q${i}?`, answer: "right", contexts: JSON.stringify([url, "images/shapes.gif"]) }));
    const out = records(await scoreMultimodalRelevance(rows, { judge: judgeFor(), imageRoot: DATA, allowPrivateNetwork: true, ...quiet }));
    assert.ok(out.every((r) => r["multimodal_relevance"] === 1));
    assert.equal(images.seen.length, 1);
  });

  it("keeps loaded images up to keptImageBytes, least recently used let go first, and remembers refusals", async () => {
    images.serve("/a.png", PNG);
    images.serve("/b.png", PNG);
    const a = { kind: "url" as const, source: `${imagesURL}/a.png` };
    const b = { kind: "url" as const, source: `${imagesURL}/b.png` };
    const gone = { kind: "url" as const, source: `${imagesURL}/gone.png` };
    const loader = new ImageLoader({ allowPrivateNetwork: true, keptImageBytes: Math.ceil((PNG.length * 4) / 3) + 100 });
    await loader.load(a);
    await loader.load(a); // kept
    await loader.load(b); // a is let go to keep b
    await loader.load(b); // kept
    await loader.load(a); // loaded again
    for (let i = 0; i < 3; i++) await assert.rejects(loader.load(gone), /404/);
    assert.deepEqual(images.seen.map((r) => r.path), ["/a.png", "/b.png", "/a.png", "/gone.png"]);
  });

  it("fails a row with more images than maxImagesPerRow instead of dropping any", async () => {
    const rows = [{ question: "Q?", answer: "right", contexts: JSON.stringify(["images/shapes.gif", "images/bar-chart.png", "images/temperature.jpg"]) }];
    const out = records(await score(rows, [multimodalRelevance({ imageRoot: DATA, maxImagesPerRow: 2 })], { judge: judgeFor(), ...quiet }));
    assert.match(String(out[0]!["multimodal_relevance_error"]), /the row has 3 images, more than the 2 allowed \(maxImagesPerRow, --max-images-per-row\)/);
    assert.equal(server.chatRequests().length, 0);
  });

  it("fails a row with no contexts (empty, \"[]\" or no column value) instead of judging the answer against nothing", async () => {
    const rows = [
      { id: "a", question: "Q?", answer: "right", contexts: "" },
      { id: "b", question: "Q?", answer: "right", contexts: "[]" },
      { id: "c", question: "Q?", answer: "right", contexts: null },
      { id: "d", question: "Q?", answer: "right", contexts: JSON.stringify(["A passage."]) },
    ];
    const out = records(await score(rows, [multimodalRelevance({ imageRoot: DATA })], { judge: judgeFor(), ...quiet }));
    assert.deepEqual(out.map((r) => r["id"]), ["a", "b", "c", "d"]);
    for (const r of out.slice(0, 3)) {
      assert.ok(Number.isNaN(r["multimodal_relevance"]), String(r["id"]));
      assert.match(String(r["multimodal_relevance_error"]), /^no retrieved contexts: relevance is judged against them/);
    }
    assert.deepEqual([out[3]!["multimodal_relevance"], out[3]!["multimodal_relevance_error"]], [1, ""]);
    assert.equal(server.chatRequests().length, 1, "only the row with a context is put to the judge");
  });

  it("loads a few images at a time, just before their row's request, and counts each download's time from its turn", async () => {
    // A slow host that serves one image at a time, 20 ms each: 120 rows, each its own image.
    let open = 0;
    let most = 0;
    const queue: (() => void)[] = [];
    let busy = false;
    const next = (): void => {
      const go = queue.shift();
      if (go) go();
      else busy = false;
    };
    for (let i = 0; i < 120; i++) {
      images.routes.set(`/slow${i}.png`, (_req, res) => {
        open++;
        most = Math.max(most, open);
        const serve = (): void => {
          setTimeout(() => {
            res.setHeader("content-type", "image/png");
            res.end(PNG);
            open--;
            next();
          }, 20);
        };
        if (busy) queue.push(serve);
        else {
          busy = true;
          serve();
        }
      });
    }
    const rows = Array.from({ length: 120 }, (_, i) => ({ question: `Q${i}?`, answer: "right", contexts: JSON.stringify([`${imagesURL}/slow${i}.png`]) }));
    // 120 × 20 ms = 2.4 s of serving: all at once, the last would wait past a 2 s timeout; a few at a time
    // (at most 16 × 20 ms = 0.3 s queued) leave room for a machine busy with other work.
    const out = records(await scoreMultimodalRelevance(rows, { judge: judgeFor({ concurrency: 2 }), allowPrivateNetwork: true, downloadTimeoutMs: 2_000, ...quiet }));
    assert.deepEqual(out.map((r) => r["multimodal_relevance_error"]).filter((e) => e !== ""), []);
    assert.ok(out.every((r) => r["multimodal_relevance"] === 1));
    assert.ok(most <= 16, `${most} downloads open at once`);
  });

  it("fails a row whose images are more than one request may carry, and sends nothing for it", async () => {
    const rows = [
      { id: "big", question: "Q?", answer: "right", contexts: JSON.stringify(["images/bar-chart.png", "images/temperature.jpg"]) },
      { id: "small", question: "Q?", answer: "right", contexts: JSON.stringify(["images/bar-chart.png"]) },
    ];
    const limit = PNG.length + 10;
    const out = records(await score(rows, [multimodalRelevance({ imageRoot: DATA, maxRowImageBytes: limit })], { judge: judgeFor(), ...quiet }));
    assert.match(String(out[0]!["multimodal_relevance_error"]), /the row's images come to [\d,]+ bytes( \([\d.]+ MiB\))?, more than one request may carry \([\d,]+ bytes( \([\d.]+ MiB\))?: maxRowImageBytes, --max-row-image-bytes\); nothing was sent/);
    assert.equal(out[1]!["multimodal_relevance"], 1);
    assert.equal(server.chatRequests().length, 1);
  });

  it("fails a row whose contexts are all blank, as one with none", async () => {
    const rows = [{ question: "Q?", answer: "right", contexts: JSON.stringify(["", "  "]) }];
    const out = records(await score(rows, [multimodalRelevance({ imageRoot: DATA })], { judge: judgeFor(), ...quiet }));
    assert.match(String(out[0]!["multimodal_relevance_error"]), /^every retrieved context is blank: relevance is judged against them/);
    assert.equal(server.chatRequests().length, 0);
  });

  it("refuses bad options when the metric is built", () => {
    assert.throws(() => multimodalRelevance({ maxImagesPerRow: -1 }), /maxImagesPerRow must be a whole number/);
    assert.throws(() => multimodalRelevance({ detail: "ultra" as "low" }), /detail must be "low", "high" or "auto"/);
    assert.throws(() => multimodalRelevance({ maxImageBytes: 0 }), /maxImageBytes must be a whole number/);
    assert.throws(() => multimodalRelevance({ maxRowImageBytes: 0 }), /maxRowImageBytes must be a whole number/);
    assert.throws(() => multimodalRelevance({ maxConcurrentLoads: 0 }), /maxConcurrentLoads must be a whole number/);
  });
});

describe("data/multimodal.csv", () => {
  it("has 24+ rows with every image format, a data URI, remote URLs and text contexts", async () => {
    const df = await loadDataset(path.join(DATA, "multimodal.csv"));
    const rows = records(df);
    assert.ok(rows.length >= 24);
    const contexts = rows.flatMap((r) => JSON.parse(String(r["retrieved_contexts"])) as string[]);
    for (const pattern of [/\.png$/, /\.jpg$/, /\.gif$/, /\.webp$/, /\.bmp$/, /^data:image\/png;base64,/, /^https:\/\//, /^[A-Z][^/]*\s/]) {
      assert.ok(contexts.some((c) => pattern.test(c)), String(pattern));
    }
    assert.deepEqual([...new Set(rows.map((r) => r["model"]))], ["atlas-pro", "chatter-xl", "swift-mini"]);
  });

  it("scores every row against the fake vision judge, the remote images served locally", async () => {
    const df = await loadDataset(path.join(DATA, "multimodal.csv"));
    const rows = records(df).map((r) => ({ ...r, retrieved_contexts: String(r["retrieved_contexts"]).replace(/https:\/\/upload\.wikimedia\.org\/[^"]+/g, `${imagesURL}/remote.png`) }));
    const out = records(await scoreMultimodalRelevance(rows, { judge: judgeFor(), imageRoot: DATA, allowPrivateNetwork: true, ...quiet }));
    assert.equal(out.length, rows.length);
    for (const r of out) assert.equal(r["multimodal_relevance_error"], "", String(r["id"]));
    assert.equal(server.chatRequests().length, rows.length);
    assert.equal(images.seen.length, 1, "both remote URLs, rewritten to one local image, are downloaded once");
  });

  it("is judged by the offline judge where only text matters, and NaN with the reason where an image does", async () => {
    const out = records(await scoreMultimodalRelevance(path.join(DATA, "multimodal.csv"), { judge: createJudge({ judge: "offline" }), imageRoot: DATA, ...quiet }));
    const textOnly = out.filter((r) => r["id"] === "m07");
    assert.deepEqual(textOnly.map((r) => r["multimodal_relevance"]), [1, 1, 0]);
    const imageRow = out.find((r) => r["id"] === "m01")!;
    assert.ok(Number.isNaN(imageRow["multimodal_relevance"]));
    assert.match(String(imageRow["multimodal_relevance_error"]), /the offline judge cannot see images, and this verdict depends on context 1 \(images\/bar-chart\.png\)/);
    const dataUriRow = out.find((r) => r["id"] === "m06")!;
    assert.match(String(dataUriRow["multimodal_relevance_error"]), /context 1 \(data:image\/png;base64,… \([\d,]+ characters\)\)/);
  });
});
