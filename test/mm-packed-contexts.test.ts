/**
 * A contexts cell that is several image paths in one string ("a.png\nb.png",
 * "a.png; b.png": written one per line or with separators instead of as a
 * JSON list) is one text context by the rules of `retrieved_contexts`. Judged
 * as text, its images would never be sent while the row got a verdict as if
 * they had been: such a row fails, saying how to write the list, and only
 * that row. Through the real command line, a real CSV and the fake server.
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { parseCsv } from "../src/dataset/csv";
import { packedImageSources } from "../src/context/items";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";

const IMAGES = path.join(__dirname, "..", "data", "images");

interface Part {
  type: string;
  text?: string;
}

/** The questions of the relevance requests the server received (each from its first text part), sorted. */
function questionsSent(): string[] {
  return server
    .chatRequests()
    .map((r) => {
      const parts = (r.body.messages as { role: string; content: unknown }[]).find((m) => m.role === "user")!.content as Part[];
      return (JSON.parse(parts[0]!.text!.split("\n").slice(1).join("\n")) as { question: string }).question;
    })
    .sort();
}

const { server, url } = useFakeOpenAI(() => ({ chat: () => ({ reason: "Context 1 shows it.", relevant: true }) }));

/** A folder with images/ and a CSV whose contexts cells are written as given (not JSON-encoded by us). */
function input(cells: Record<string, string>): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, "images"));
  for (const file of ["bar-chart.png", "temperature.jpg"]) copyFileSync(path.join(IMAGES, file), path.join(dir, "images", file));
  const quote = (text: string): string => `"${text.replace(/"/g, '""')}"`;
  const lines = ["id,model,question,answer,contexts", ...Object.entries(cells).map(([id, cell]) => [id, "m", `What does ${id} show?`, "Q3 is highest.", cell].map(quote).join(","))];
  const file = path.join(dir, "input.csv");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const env = (): Record<string, string> => ({ OPENAI_API_KEY: "sk-mm-packed-test", OPENAI_BASE_URL: url() });

describe("several image paths in one contexts string", () => {
  it("fails only that row, naming the context and the JSON list to write, and sends nothing of it", async () => {
    const file = input({
      lines: "images/bar-chart.png\nimages/temperature.jpg",
      semicolons: "images/bar-chart.png; images/temperature.jpg",
      commas: "images/bar-chart.png, https://img.example/t.jpg?sig=SECRET",
      list: '["images/bar-chart.png", "images/temperature.jpg"]',
      prose: "The charts are saved as images/bar-chart.png and images/temperature.jpg.",
    });
    const out = path.join(path.dirname(file), "scored.csv");
    const run = await runCliCaptured(["score", file, "--out", out, "--metrics", "multimodal_relevance", "--no-progress", "--no-cache"], env());
    assert.equal(run.code, 0, run.err);
    const { header, records } = parseCsv(readFileSync(out, "utf8"));
    const col = (name: string): number => header.indexOf(name);
    const byId = new Map(records.map((r) => [r.fields[col("id")], r.fields]));
    assert.deepEqual([...byId.keys()], ["lines", "semicolons", "commas", "list", "prose"], "every row is kept, in order");
    for (const id of ["lines", "semicolons"]) {
      const error = byId.get(id)![col("multimodal_relevance_error")]!;
      assert.match(error, /context 1 is 2 image paths or URLs in one string/, id);
      assert.match(error, /without its images/, id);
      assert.ok(error.includes('["images/bar-chart.png", "images/temperature.jpg"]'), `${id}: ${error}`);
      assert.equal(byId.get(id)![col("multimodal_relevance")], "", `${id} has no score`);
    }
    const commas = byId.get("commas")![col("multimodal_relevance_error")]!;
    assert.ok(commas.includes('"https://img.example/t.jpg?…"'), commas);
    assert.ok(!commas.includes("SECRET"), "a URL's query is not shown");
    // The JSON list and a passage that mentions paths are judged; nothing of the failed rows was sent.
    assert.equal(byId.get("list")![col("multimodal_relevance")], "1");
    assert.equal(byId.get("prose")![col("multimodal_relevance")], "1");
    assert.deepEqual(questionsSent(), ["What does list show?", "What does prose show?"]);
  });

  it("--dry-run names the row among those that will fail, and does not count its call", async () => {
    const file = input({ lines: "images/bar-chart.png\nimages/temperature.jpg", list: '["images/bar-chart.png"]' });
    const run = await runCliCaptured(["score", file, "--metrics", "multimodal_relevance", "--dry-run", "--no-cache"], env());
    assert.equal(run.code, 0, run.err);
    const text = run.out + run.err;
    assert.match(text, /1 row will fail before any call/);
    assert.match(text, /row 0 context 1 is 2 image paths or URLs in one string/);
    assert.match(text, /judging relevance\s+1\s/);
    assert.equal(server.chatRequests().length, 0);
  });

  it("tells a list of sources from a passage", () => {
    assert.deepEqual(packedImageSources("images/a.png\r\nimages/b.jpg\n"), ["images/a.png", "images/b.jpg"]);
    assert.deepEqual(packedImageSources("a.png; b.png;"), ["a.png", "b.png"]);
    assert.deepEqual(packedImageSources("https://x.org/a.png | data/b.webp"), ["https://x.org/a.png", "data/b.webp"]);
    assert.equal(packedImageSources("images/a.png"), undefined, "one path is an image item, not a list");
    assert.equal(packedImageSources("See images/a.png, then images/b.png"), undefined);
    assert.equal(packedImageSources("Sales rose; costs fell"), undefined);
    assert.equal(packedImageSources("images/a.png\nThe chart shows sales."), undefined);
    assert.deepEqual(packedImageSources("https://cdn.example/a.png?sig=1, https://cdn.example/b.jpg"), ["https://cdn.example/a.png?sig=1", "https://cdn.example/b.jpg"]);
    assert.equal(packedImageSources("https://example.com/article, https://example.com/faq"), undefined, "links to pages stay text");
  });
});

describe("an image in base64 without its data: prefix", () => {
  it("fails its row, saying what to put in front, instead of sending the letters as text", async () => {
    const png = readFileSync(path.join(IMAGES, "bar-chart.png")).toString("base64");
    const jpeg = readFileSync(path.join(IMAGES, "temperature.jpg")).toString("base64");
    const file = input({
      bare: JSON.stringify(["Sales by quarter.", png]),
      wrapped: JSON.stringify([jpeg.replace(/(.{76})/g, "$1\n")]),
      prefixed: JSON.stringify([`data:image/png;base64,${png}`]),
      hash: JSON.stringify(["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"]),
    });
    const out = path.join(path.dirname(file), "scored.csv");
    const run = await runCliCaptured(["score", file, "--out", out, "--metrics", "multimodal_relevance", "--no-progress", "--no-cache"], env());
    assert.equal(run.code, 0, run.err);
    const { header, records } = parseCsv(readFileSync(out, "utf8"));
    const error = (id: string): string => records.find((r) => r.fields[header.indexOf("id")] === id)!.fields[header.indexOf("multimodal_relevance_error")]!;
    assert.match(error("bare"), /^context 2 is a PNG image in base64 without "data:image\/png;base64," in front, so it would be sent as text .*write it as data:image\/png;base64,iVBORw0KGgoA…$/);
    assert.match(error("wrapped"), /^context 1 is a JPEG image in base64 without "data:image\/jpeg;base64,"/);
    assert.equal(error("prefixed"), "");
    assert.equal(error("hash"), "", "a hex digest is text");
    assert.deepEqual(questionsSent(), ["What does hash show?", "What does prefixed show?"]);
  });
});

describe("a contexts list written as JSON twice", () => {
  it("fails the row whose context is itself a JSON list holding an image, and judges passages in brackets", async () => {
    const file = input({
      twice: JSON.stringify([JSON.stringify(["images/bar-chart.png", "Sales by quarter."])]),
      brackets: JSON.stringify(["[Editor's note] Sales rose in Q3."]),
      data: JSON.stringify([JSON.stringify(["Q1", "Q2", "Q3"])]),
    });
    const out = path.join(path.dirname(file), "scored.csv");
    const run = await runCliCaptured(["score", file, "--out", out, "--metrics", "multimodal_relevance", "--no-progress", "--no-cache"], env());
    assert.equal(run.code, 0, run.err);
    const { header, records } = parseCsv(readFileSync(out, "utf8"));
    const error = (id: string): string => records.find((r) => r.fields[header.indexOf("id")] === id)!.fields[header.indexOf("multimodal_relevance_error")]!;
    assert.match(error("twice"), /^context 1 is itself a JSON list of 2 \(the list was written as JSON twice\?\), which would be judged as one passage of text; write "retrieved_contexts" as one JSON list of strings/);
    assert.equal(error("brackets"), "");
    assert.equal(error("data"), "", "a JSON list of words (a tool's output) is a passage");
    assert.equal(server.chatRequests().length, 2);
  });
});
