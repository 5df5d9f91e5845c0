import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { loadDataset, toCSV } from "../src/index";
import { formatCsv } from "../src/dataset/export";
import { tempDir } from "./support/files";
import { records } from "./support/frames";

const data = path.join(__dirname, "..", "data");
const csvFile = path.join(data, "qa-models.csv");
const jsonlFile = path.join(data, "qa-models.jsonl");

describe("data/qa-models.csv", () => {
  it("is written back byte for byte by loadDataset + toCSV", async () => {
    const original = readFileSync(csvFile, "utf8");
    const df = await loadDataset(csvFile);
    assert.equal(formatCsv(df), original);
    const copy = path.join(tempDir(), "copy.csv");
    await toCSV(df, copy);
    assert.equal(readFileSync(copy, "utf8"), original);
    assert.deepEqual(records(await loadDataset(copy)), records(df));
  });

  it("holds the same rows as its JSONL source", async () => {
    assert.deepEqual(records(await loadDataset(csvFile)), records(await loadDataset(jsonlFile)));
  });

  it("has the tricky text the round trip must survive, unescaped on load", async () => {
    const raw = readFileSync(csvFile, "utf8");
    const responses = records(await loadDataset(csvFile)).map((r) => String(r["response"]));
    assert.ok(responses.some((r) => r.startsWith("=PMT(")), "a response starting with =");
    assert.ok(raw.includes("'=PMT("), "…which the file stores escaped");
    assert.ok(responses.filter((r) => r.startsWith("-")).length >= 3, "responses starting with -");
    assert.ok(responses.some((r) => r.startsWith("+")) && responses.some((r) => r.startsWith("@")));
    assert.ok(responses.filter((r) => r.includes("\n")).length >= 5, "multi-line responses");
    assert.ok(responses.some((r) => r.includes('"')) && responses.some((r) => r.includes(",")));
    assert.ok(responses.some((r) => /[\uAC00-\uD7A3]/.test(r)), "Korean");
    assert.ok(responses.some((r) => /\p{Extended_Pictographic}/u.test(r)), "emoji");
    assert.ok(responses.filter((r) => r === "").length >= 2, "empty responses");
  });

  it("has at least 40 questions from several domains, each answered once by each of three models", async () => {
    const rows = records(await loadDataset(csvFile, { required: ["user_input", "response", "reference", "id", "model"] }));
    const byId = new Map<string, Set<string>>();
    for (const r of rows) {
      const models = byId.get(String(r["id"])) ?? new Set<string>();
      models.add(String(r["model"]));
      byId.set(String(r["id"]), models);
    }
    assert.ok(byId.size >= 40, `${byId.size} questions`);
    for (const [id, models] of byId) assert.equal(models.size, 3, `question ${id}`);
    const domains = new Set(rows.map((r) => r["domain"]));
    for (const d of ["science", "history", "geography", "software", "finance", "korean"]) assert.ok(domains.has(d), d);
  });
});
