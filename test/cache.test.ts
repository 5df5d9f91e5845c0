import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import * as v8 from "node:v8";
import * as vm from "node:vm";
import { createJudge } from "../src/index";
import { cacheKey, DiskCache } from "../src/judge/cache";
import { FakeOpenAI } from "./support/fake-openai";

function entryFile(dir: string, key: string): string {
  return path.join(dir, "v1", key.slice(0, 2), `${key}.json`);
}

describe("disk cache", () => {
  it("keeps a value under its key, across instances", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "evalframe-cache-"));
    const key = cacheKey({ model: "m", messages: ["a"] });
    await new DiskCache(dir).set(key, { statements: ["A."] });
    assert.deepEqual(await new DiskCache(dir).get(key), { statements: ["A."] });
  });

  it("treats an entry stored for another key as a miss, and the next write replaces it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "evalframe-cache-"));
    const a = cacheKey({ model: "m", messages: ["a"] });
    const b = cacheKey({ model: "m", messages: ["b"] });
    await new DiskCache(dir).set(a, "reply to a");
    // A swapped file: b's entry holds a's reply.
    const target = entryFile(dir, b);
    await new DiskCache(dir).set(b, "placeholder");
    copyFileSync(entryFile(dir, a), target);
    const cache = new DiskCache(dir);
    assert.equal(await cache.get(b), undefined);
    await cache.set(b, "reply to b");
    assert.equal(await new DiskCache(dir).get(b), "reply to b");
    assert.equal(await new DiskCache(dir).get(a), "reply to a");
    assert.equal(readdirSync(path.dirname(target)).filter((f) => f.endsWith(".tmp")).length, 0);
  });

  it("says how to mend a folder that stands where an entry belongs", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "evalframe-cache-"));
    const key = cacheKey({ model: "m", messages: ["a"] });
    mkdirSync(entryFile(dir, key), { recursive: true });
    await assert.rejects(new DiskCache(dir).get(key), /cannot read the cache entry .*\.json: EISDIR.*; a folder stands where the entry belongs: remove it, and the reply is fetched again/);
  });
});

describe("disk cache that cannot be written", () => {
  it("keeps replies in memory, warns once, and the run goes on", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "evalframe-cache-"));
    const blocker = path.join(dir, "not-a-folder");
    writeFileSync(blocker, "a file where the cache folder should be");
    const warnings: string[] = [];
    const cache = new DiskCache(path.join(blocker, "cache"), (message) => warnings.push(message));
    const a = cacheKey({ text: "a" });
    const b = cacheKey({ text: "b" });
    await cache.set(a, "paid reply a");
    await cache.set(b, "paid reply b");
    assert.equal(await cache.get(a), "paid reply a");
    assert.equal(await cache.get(b), "paid reply b");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /cannot write the cache folder .*not-a-folder.*kept in memory for this run only/);
  });
});

/** A full garbage collection (the flag is set once, for this process). */
function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

describe("disk cache over a long run", () => {
  it("does not hold every cached vector in memory: a run's heap does not grow with what it has written to disk, and a rerun still pays nothing", async () => {
    // 4,000 texts of 1,536-dimension vectors: kept in memory, about 50 MB; a million rows would take gigabytes.
    const server = new FakeOpenAI({ embed: (text) => Array.from({ length: 1536 }, (_, i) => ((text.length * 7 + i) % 97) / 97 + 0.001) });
    const url = await server.start();
    try {
      const dir = mkdtempSync(path.join(tmpdir(), "evalframe-cache-"));
      const judge = createJudge({ baseURL: url, apiKey: "sk-test", model: "m", cacheDir: dir });
      const batches = Array.from({ length: 20 }, (_, b) => Array.from({ length: 200 }, (_, i) => `text ${b} ${i}`));
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      for (const texts of batches) await judge.embed(texts);
      collectGarbage();
      const grown = process.memoryUsage().heapUsed - before;
      assert.ok(grown < 25e6, `the heap grew by ${Math.round(grown / 1e6)} MB over 4,000 cached vectors`);
      const requests = server.embeddingRequests().length;
      const again = createJudge({ baseURL: url, apiKey: "sk-test", model: "m", cacheDir: dir });
      const vectors = await again.embed(batches[3]!);
      assert.equal(server.embeddingRequests().length, requests, "a rerun is answered from the cache");
      assert.equal(vectors[5]!.length, 1536);
      // The judge itself must still be usable after the measure (kept alive until here).
      assert.equal((await judge.embed(["text 0 0"]))[0]!.length, 1536);
    } finally {
      await server.stop();
    }
  });
});

describe("disk cache after a killed run", () => {
  it("removes the temporary files a run killed mid-write left (an hour old, their process gone), and no live writer's", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "evalframe-cache-"));
    const key = cacheKey({ model: "m", messages: ["killed"] });
    const folder = path.dirname(entryFile(dir, key));
    mkdirSync(folder, { recursive: true });
    // A process that has ended: its id stands for a run killed with SIGKILL.
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const left = path.join(folder, `${key}.json.${gone}.0a1b2c3d.tmp`);
    const fresh = path.join(folder, `${key.replace(/.$/, "0")}.json.${gone}.0a1b2c3e.tmp`);
    const live = path.join(folder, `${key.replace(/.$/, "1")}.json.${process.pid}.0a1b2c3f.tmp`);
    for (const file of [left, fresh, live]) writeFileSync(file, '{"key":"half a re');
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(left, hoursAgo, hoursAgo);
    utimesSync(live, hoursAgo, hoursAgo);
    await new DiskCache(dir).set(key, "the reply");
    assert.equal(existsSync(left), false, "the killed run's leftover is removed");
    assert.equal(existsSync(fresh), true, "a recent one may be a writer's on another machine: kept");
    assert.equal(existsSync(live), true, "a running process's is kept");
    assert.equal(await new DiskCache(dir).get(key), "the reply");
  });
});
