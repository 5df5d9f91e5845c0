/**
 * What a user reads when an image of a row is refused on the command line:
 * the flag that lifts the rule, and what went wrong with a path that names
 * no file (a Windows separator; a path written from the working folder, not
 * from the image root, which defaults to the input file's folder). Real
 * CSVs in a temp folder, the real CLI in-process, the fake server.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { parseCsv } from "../src/dataset/csv";
import { formatCsv } from "../src/dataset/export";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { TestHttpServer } from "./support/http-server";

const CHART = path.join(__dirname, "..", "data", "images", "bar-chart.png");

const { server, url } = useFakeOpenAI(() => ({ chat: () => ({ reason: "Context 1 shows it.", relevant: true }) }));
const images = new TestHttpServer();
let imagesURL = "";
before(async () => {
  imagesURL = await images.start();
  images.serve("/chart.png", readFileSync(CHART));
});
after(() => images.stop());

/** Scores rows with these contexts from a CSV in a fresh folder; returns each row's error cell. */
async function errorsOf(contexts: readonly string[][]): Promise<string[]> {
  const dir = tempDir();
  mkdirSync(path.join(dir, "images"));
  writeFileSync(path.join(dir, "images", "chart.png"), readFileSync(CHART));
  const input = path.join(dir, "input.csv");
  writeFileSync(input, formatCsv(contexts.map((c, i) => ({ id: `q${i}`, model: "m", user_input: "Which quarter was highest?", response: "Q3", retrieved_contexts: JSON.stringify(c) }))));
  const out = path.join(dir, "scored.csv");
  const run = await runCliCaptured(["score", input, "--out", out, "--metrics", "multimodal_relevance", "--no-progress", "--no-cache"], { OPENAI_API_KEY: "sk-mm-messages", OPENAI_BASE_URL: url() });
  assert.ok(run.code === 0 || run.code === 1, run.err);
  const { header, records } = parseCsv(readFileSync(out, "utf8"));
  return records.map((r) => r.fields[header.indexOf("multimodal_relevance_error")] ?? "");
}

describe("refused images name the way out", () => {
  it("a URL on a private address names --allow-private-network", async () => {
    const [error] = await errorsOf([[`${imagesURL}/chart.png`]]);
    assert.match(error!, /is not a public address .*allowPrivateNetwork: true \(--allow-private-network\)/);
  });

  it("a path with Windows separators says to write it with /, and the fixed path loads", async () => {
    const [windows, fixed] = await errorsOf([["images\\chart.png"], ["images/chart.png"]]);
    assert.match(windows!, /no such file: .*"\\" is not a folder separator here: write the path with "\/" \(images\/chart\.png\)/);
    assert.equal(fixed, "");
  });

  it("a path written from the working folder, not the input's folder, says to give that folder as the image root", async () => {
    const fromHere = path.relative(process.cwd(), CHART);
    assert.ok(!path.isAbsolute(fromHere) && !fromHere.startsWith(".."), "the chart is under the working folder");
    const [error] = await errorsOf([[fromHere]]);
    assert.match(error!, /no such file: .*is there from the working folder .*: give that folder as the image root \(imageRoot, --image-root\)/);
    assert.equal(server.chatRequests().length, 0, "nothing of a refused row is sent");
  });
});

describe("an empty image", () => {
  it("is refused as empty, not as 'not an image', in a run and in a dry run", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "empty.png"), "");
    const input = path.join(dir, "input.csv");
    writeFileSync(input, formatCsv([{ id: "q1", model: "m", user_input: "Which quarter?", response: "Q3", retrieved_contexts: JSON.stringify(["empty.png"]) }]));
    const env = { OPENAI_API_KEY: "sk-mm-messages", OPENAI_BASE_URL: url() };
    const dry = await runCliCaptured(["score", input, "--metrics", "multimodal_relevance", "--dry-run", "--no-cache"], env);
    assert.match(dry.out + dry.err, /empty\.png: it is empty \(0 bytes\)/);
    const out = path.join(dir, "scored.csv");
    await runCliCaptured(["score", input, "--out", out, "--metrics", "multimodal_relevance", "--no-progress", "--no-cache"], env);
    const { header, records } = parseCsv(readFileSync(out, "utf8"));
    assert.match(records[0]!.fields[header.indexOf("multimodal_relevance_error")]!, /context 1 \(empty\.png\): it is empty \(0 bytes\)/);
  });
});
