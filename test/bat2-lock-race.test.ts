/**
 * A batch folder whose lock was left by a process that no longer runs, found
 * by several runs at once: one takes the folder, the others are refused with
 * the same "another batch run … is using the batch folder" message as for any
 * lock held, never with a raw file-system error, and never two at once.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { lockBatchDir } from "../src/batch/run";
import { tempDir } from "./support/files";

/** The id of a process that ran and has ended. */
function deadPid(): number {
  const run = spawnSync(process.execPath, ["-e", ""]);
  assert.equal(run.status, 0, "the short process ran");
  return run.pid!;
}

describe("a stale batch-folder lock found by several runs at once", () => {
  it("lets one run take the folder and refuses the others with the folder-in-use message, every time", async () => {
    const pid = deadPid();
    // Many rounds of several runs: the race is of a few instructions, and shows in one round of many.
    for (let round = 0; round < 120; round++) {
      const dir = path.join(tempDir(), "batch");
      const take = lockBatchDir(dir);
      await (await take)();
      writeFileSync(path.join(dir, "lock"), `${JSON.stringify({ pid, host: hostname(), since: "2026-01-01T00:00:00.000Z" })}\n`);
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => lockBatchDir(dir)));
      const won = results.filter((r) => r.status === "fulfilled");
      const reasons = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => String(r.reason));
      assert.equal(won.length, 1, `round ${round}: one run takes the folder:\n${reasons.join("\n")}`);
      for (const reason of reasons) {
        assert.match(reason, /another batch run \(process \d+ on \S+, since \S+\) is using the batch folder .*: wait for it to finish/, `round ${round}`);
        assert.doesNotMatch(reason, /EEXIST|ENOENT/, `round ${round}`);
      }
      await (won[0] as PromiseFulfilledResult<() => Promise<void>>).value();
      assert.ok(!existsSync(path.join(dir, "lock")), "the folder is free once the run that took it ends");
      assert.deepEqual(readdirSync(dir), [], "no file left behind in the folder");
    }
  });

  it("a free folder taken by several runs of one process at once: one takes it, the others are refused", async () => {
    for (let round = 0; round < 40; round++) {
      const dir = path.join(tempDir(), "batch");
      const results = await Promise.allSettled([lockBatchDir(dir), lockBatchDir(dir), lockBatchDir(dir), lockBatchDir(dir)]);
      const won = results.filter((r) => r.status === "fulfilled");
      const reasons = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => String(r.reason));
      assert.equal(won.length, 1, `round ${round}: one run takes the folder:\n${reasons.join("\n")}`);
      for (const reason of reasons) assert.match(reason, new RegExp(`another batch run \\(process ${process.pid} on `), `round ${round}`);
      await (won[0] as PromiseFulfilledResult<() => Promise<void>>).value();
    }
  });

  it("a lock.break left by a run killed while it broke a stale lock does not refuse the next run", async () => {
    const dir = path.join(tempDir(), "batch");
    mkdirSync(dir, { recursive: true });
    const pid = deadPid();
    writeFileSync(path.join(dir, "lock"), `${JSON.stringify({ pid, host: hostname(), since: new Date().toISOString() })}\n`);
    writeFileSync(path.join(dir, "lock.break"), `${pid} ${hostname()}\n`);
    const release = await lockBatchDir(dir);
    await release();
    assert.ok(!existsSync(path.join(dir, "lock.break")), "the left lock.break is gone");
  });
});
