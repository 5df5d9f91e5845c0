import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { loadDataset } from "../src/index";
import { dumpDom, pageResult } from "./support/browser";
import { tempDir } from "./support/files";
import { chartIds, probedCopy, reportStatus } from "./support/report-page";

const ROOT = path.join(__dirname, "..");
const OUT = path.join(ROOT, "out");

describe("npm run demo (the main job)", () => {
  it("scores the bundled data with the offline judge and writes the scored CSV, the statements and a report that opens cleanly", async () => {
    for (const f of ["scored.csv", "statements.csv", "report.html"]) rmSync(path.join(OUT, f), { force: true });
    const env = { ...process.env };
    delete env["OPENAI_API_KEY"];
    delete env["OPENAI_BASE_URL"];
    const run = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "demo.ts")], { cwd: ROOT, env, encoding: "utf8", timeout: 300_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /offline judge \(approximate/);
    assert.match(run.stdout, /atlas-pro/);
    assert.match(run.stdout, /verdict/);
    assert.match(run.stdout, /126 rows · 290 chat calls/);

    const scored = await loadDataset(path.join(OUT, "scored.csv"));
    assert.equal(scored.shape[0], 126);
    assert.ok(scored.columns.includes("answer_correctness"));
    assert.ok(readFileSync(path.join(OUT, "statements.csv"), "utf8").startsWith("row,id,model,side,n,statement,verdict,reason"));

    const html = readFileSync(path.join(OUT, "report.html"), "utf8");
    const copy = path.join(tempDir(), "report.html");
    probedCopy(html, copy);
    const dom = dumpDom(copy);
    assert.deepEqual(pageResult<{ errors: string[] }>(dom).errors, [], "no console error");
    const status = reportStatus(dom);
    assert.deepEqual(status.failed, []);
    assert.deepEqual([...status.drawn].sort(), [...chartIds(html)].sort(), "every chart drawn");
    assert.ok(chartIds(html).length >= 8);
    assert.ok(existsSync(path.join(OUT, "report.html")));
  });
});
