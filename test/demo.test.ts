/**
 * `npm run demo` end to end: without a key the main run replays the hand
 * labels and the offline judge is checked against them; with a key (here a
 * fake OpenAI-compatible server) the real judge is the main run and is
 * checked against the labels.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, it } from "node:test";
import { calibrate, frameRecords, loadDataset } from "../src/index";
import { dumpDom, pageResult } from "./support/browser";
import { useFakeOpenAI } from "./support/fake-openai";
import { records } from "./support/frames";
import { tempDir } from "./support/files";
import { chartIds, probedCopy, reportStatus } from "./support/report-page";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const ROOT = path.join(__dirname, "..");
const OUT = path.join(ROOT, "out");
const LABELS = path.join(ROOT, "data", "qa-models.labels.jsonl");
const OUTPUTS = ["scored.csv", "statements.csv", "report.html", "scored-offline.csv"];

/**
 * Runs scripts/demo.ts in `cwd` with this environment. Asynchronous, so that
 * a fake server in this process can answer the demo's requests.
 */
function runDemo(env: NodeJS.ProcessEnv, cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const tsx = pathToFileURL(require.resolve("tsx")).href;
  const child = spawn(process.execPath, ["--import", tsx, path.join(ROOT, "scripts", "demo.ts")], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  const timer = setTimeout(() => child.kill(), 300_000);
  return new Promise((resolve) =>
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

function envWithout(...names: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of names) delete env[name];
  return env;
}

/** The numbers of the calibration section's factual line. */
function factualLine(stdout: string): { n: number; spearman: string; mae: string; bias: string } {
  const m = /factual score vs labels' F1 \((\d+) rows\): Spearman (-?\d\.\d{3}) · MAE (\d\.\d{3}) · bias (-?\d\.\d{3})/.exec(stdout);
  assert.ok(m, `the factual line of the calibration section:\n${stdout}`);
  return { n: Number(m[1]), spearman: m[2]!, mae: m[3]!, bias: m[4]! };
}

describe("npm run demo (the main job)", () => {
  const fake = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));

  it("with a key: scores with the real judge and checks it against the hand labels", async () => {
    for (const f of OUTPUTS) rmSync(path.join(OUT, f), { force: true });
    const key = "sk-demo-test-0123456789";
    // A temporary working directory keeps the judge's disk cache out of the repository.
    const run = await runDemo({ ...envWithout("OPENAI_API_KEY", "OPENAI_BASE_URL"), OPENAI_API_KEY: key, OPENAI_BASE_URL: fake.url() }, tempDir());
    assert.equal(run.status, 0, run.stderr);
    assert.ok(fake.server.chatRequests().length > 0, "the real judge was asked");
    assert.doesNotMatch(run.stderr, /offline judge|hand labels/, "no notice: a judge is configured");
    assert.ok(!`${run.stdout}${run.stderr}`.includes(key), "the key is never printed");
    assert.match(run.stdout, /Answer correctness by model \(judge: gpt-4o-mini @ 127\.0\.0\.1:\d+\)/);
    assert.match(run.stdout, /Judge gpt-4o-mini @ 127\.0\.0\.1:\d+ vs hand labels \(calibrate against .*qa-models\.labels\.jsonl\)/);
    assert.doesNotMatch(run.stdout, /Offline judge vs hand labels/);
    assert.equal(factualLine(run.stdout).n, 126);
    assert.match(run.stdout, /model ranking: (agrees with|DIFFERS from) the labels/);
    assert.match(run.stdout, /model\s+n\s+judge_mean\s+label_mean\s+judge_rank\s+label_rank/);

    const scored = records(await loadDataset(path.join(OUT, "scored.csv")));
    assert.equal(scored.length, 126);
    assert.ok(scored.every((r) => String(r["answer_correctness_judge"]).startsWith("gpt-4o-mini @ 127.0.0.1:")));
    assert.ok(!existsSync(path.join(OUT, "scored-offline.csv")), "the offline judge runs only without a key");
  });

  it("without a key: the hand-labelled scores as the main run, the offline judge beside them, and how far it agrees", async () => {
    for (const f of OUTPUTS) rmSync(path.join(OUT, f), { force: true });
    const run = await runDemo(envWithout("OPENAI_API_KEY", "OPENAI_BASE_URL"), ROOT);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /no OPENAI_API_KEY or OPENAI_BASE_URL is set, so the main run replays the hand labels \(data\/qa-models\.labels\.jsonl\)/);
    assert.equal(run.stderr.trim().split("\n").length, 1, `one notice on stderr, nothing else:\n${run.stderr}`);

    // The main run: the hand labels replayed.
    assert.match(run.stdout, /Answer correctness by model \(judge: hand-labelled\)/);
    assert.match(run.stdout, /atlas-pro/);
    assert.match(run.stdout, /verdict/);
    assert.match(run.stdout, /126 rows · 290 chat calls \(0 cached\) .*· hand-labelled/);
    const scored = records(await loadDataset(path.join(OUT, "scored.csv")));
    assert.equal(scored.length, 126);
    assert.ok(scored.every((r) => r["answer_correctness_judge"] === "hand-labelled" && r["answer_correctness_error"] === ""));
    assert.ok(readFileSync(path.join(OUT, "statements.csv"), "utf8").startsWith("row,id,model,side,n,statement,verdict,reason"));

    // Beside it: the offline judge's scores and the calibration section, whose numbers are calibrate()'s.
    const offline = await loadDataset(path.join(OUT, "scored-offline.csv"));
    assert.equal(offline.shape[0], 126);
    assert.ok(records(offline).every((r) => r["answer_correctness_judge"] === "offline (approximate)"));
    assert.match(run.stdout, /Offline judge vs hand labels \(calibrate against data\/qa-models\.labels\.jsonl\)/);
    const report = calibrate(offline, LABELS);
    const all = frameRecords(report.rows!).find((r) => r["target"] === "factual" && r["model"] === "(all)")!;
    const printed = factualLine(run.stdout);
    assert.deepEqual(printed, {
      n: 126,
      spearman: (all["spearman"] as number).toFixed(3),
      mae: (all["mae"] as number).toFixed(3),
      bias: (all["bias"] as number).toFixed(3),
    });
    assert.ok(Number(printed.spearman) >= 0.8, `Spearman ${printed.spearman}`);
    const zero = /scored ≥ 0\.5 \(high_on_label_zero\): (\d+) of (\d+) \((\d+\.\d)%\)/.exec(run.stdout);
    assert.ok(zero, "the high_on_label_zero line");
    assert.equal(Number(zero[2]), all["n_label_zero"]);
    assert.equal(Number(zero[1]) / Number(zero[2]), all["high_on_label_zero"]);
    assert.equal(report.rankingAgrees, true);
    assert.match(run.stdout, /model ranking: agrees with the labels/);
    assert.match(run.stdout, /model\s+n\s+judge_mean\s+label_mean\s+judge_rank\s+label_rank\n[-\s]+\natlas-pro\s+42\s+[\d.]+\s+[\d.]+\s+1\s+1\n/);
    assert.match(run.stdout, /wrote out\/scored-offline\.csv/);

    // The report names the hand-labelled judge, shows no offline banner, and opens cleanly.
    const html = readFileSync(path.join(OUT, "report.html"), "utf8");
    assert.match(html, /<span class="judge">hand-labelled<\/span>/);
    assert.match(html, /<title>[^<]*hand-labelled/);
    assert.doesNotMatch(html, /class="banner offline"/);
    const copy = path.join(tempDir(), "report.html");
    probedCopy(html, copy);
    const dom = dumpDom(copy);
    assert.deepEqual(pageResult<{ errors: string[] }>(dom).errors, [], "no console error");
    const status = reportStatus(dom);
    assert.deepEqual(status.failed, []);
    assert.deepEqual([...status.drawn].sort(), [...chartIds(html)].sort(), "every chart drawn");
    assert.ok(chartIds(html).length >= 8);
  });
});
