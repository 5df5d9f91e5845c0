import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { cacheKey, DiskCache } from "../src/judge/cache";

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
