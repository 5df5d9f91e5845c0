import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { writeFileAtomic } from "../src/dataset/atomic-write";
import { toCSV } from "../src/dataset/export";
import { tempDir } from "./support/files";

/** A process id that is not running (the kernel's pid_max is far below it). */
const DEAD_PID = 2 ** 30;

describe("atomic file writes", () => {
  it("replace the file whole and leave no temporary file", async () => {
    const dir = tempDir();
    const file = path.join(dir, "out", "report.html");
    await writeFileAtomic(file, "first");
    await writeFileAtomic(file, "second");
    assert.equal(readFileSync(file, "utf8"), "second");
    assert.deepEqual(readdirSync(path.dirname(file)), ["report.html"]);
  });

  it("remove what a killed run left for the same target, and nothing else", async () => {
    const dir = tempDir();
    const file = path.join(dir, "scored.csv");
    writeFileSync(file, "old,complete\n");
    const leftover = `scored.csv.${DEAD_PID}.deadbeef.tmp`;
    const running = `scored.csv.${process.pid}.cafe0123.tmp`;
    const other = `other.csv.${DEAD_PID}.deadbeef.tmp`;
    for (const name of [leftover, running, other]) writeFileSync(path.join(dir, name), "half a fi");
    await toCSV([{ a: 1 }], file);
    assert.equal(readFileSync(file, "utf8"), "a\n1\n");
    assert.deepEqual(readdirSync(dir).sort(), [other, running, "scored.csv"].sort());
  });

  it("keep the old file when the write fails, and clean up", async () => {
    const dir = tempDir();
    const file = path.join(dir, "taken");
    mkdirSync(file); // a folder where the file should go: the rename fails
    await assert.rejects(writeFileAtomic(file, "new"));
    assert.deepEqual(readdirSync(dir), ["taken"]);
  });
});
