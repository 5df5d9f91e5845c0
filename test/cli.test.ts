/**
 * The `evalframe` command line on temp copies of the sample data, with the
 * offline judge and against the fake OpenAI server. Most commands run
 * in-process through runCli (with their own environment and working
 * directory); a few run as a real child process where the process is what is
 * tested: the built dist/cli.js (shebang, exit codes, stdout/stderr
 * separation), and the API-key tests, whose key comes from the process
 * environment that failures are scrubbed against.
 *
 * Exit-code rule under test: bad flags or arguments → 2; input that cannot
 * be read, parsed or used (missing file, malformed CSV, missing column) → 1;
 * both as exactly one line on stderr.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import { CliFailure, reportError, UsageError } from "../src/cli/errors";
import { buildReport, frameRecords, loadDataset, worst } from "../src/index";
import { formatCsv } from "../src/dataset/export";
import { loadTable } from "../src/dataset/load";
import { rowsWithStatements } from "../src/report/html";
import { parseCsv } from "../src/dataset/csv";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { filesUnder, tempDir } from "./support/files";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";
import { RUN_TS } from "./support/run-ts";
import { sampleHeadRows, writeSampleHead } from "./support/sample";

const ROOT = path.join(__dirname, "..");
const ENTRY = path.join(ROOT, "src", "cli.ts");
const SAMPLE = path.join(ROOT, "data", "qa-models.csv");
const KEY = "sk-evalframe-cli-test-SECRET-7f3a9c2e51";

/** Questions of the sample the judge-server and batch tests score: 4 questions × 3 models. */
const HEAD_QUESTIONS = 4;
const HEAD_ROWS = 3 * HEAD_QUESTIONS;

/**
 * Writes the sample's first HEAD_QUESTIONS questions (each with its three
 * models' answers) to qa-models.csv in `dir`, for the tests whose point is
 * the path through the server, the batch files or the key, not the
 * sample's size: every row makes the same kinds of calls, so 12 rows
 * exercise what 126 do. The offline run above scores the whole sample.
 */
function copySampleHead(dir: string): void {
  assert.equal(sampleHeadRows(HEAD_QUESTIONS).length, HEAD_ROWS);
  writeSampleHead(dir, HEAD_QUESTIONS);
}

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a child: no judge settings inherited from the machine. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "EVALFRAME_DEBUG", "NODE_OPTIONS"]) delete env[name];
  return { ...env, ...extra };
}

/** How many in-process runs are inside `cwd` now, and the directory to go back to after the last. */
let inside = 0;
let home = process.cwd();

/**
 * Runs `evalframe …` in this process, as if started in `cwd` with only `env`
 * (and none of the machine's judge settings). Runs started together must
 * share their `cwd`.
 */
async function evalframe(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  if (inside++ === 0) home = process.cwd();
  process.chdir(cwd);
  try {
    const run = await runCliCaptured(args, cleanEnv(env));
    return { code: run.code, stdout: run.out, stderr: run.err };
  } finally {
    if (--inside === 0) process.chdir(home);
  }
}

/** Runs `evalframe …` as a child process in `cwd` (asynchronously, so a server in this process can answer it). */
function evalframeProcess(args: readonly string[], cwd: string, env: Record<string, string> = {}, entry: readonly string[] = [...RUN_TS, ENTRY]): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, ...args], { cwd, env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "");
}

const { server, url: serverURL } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));

describe("evalframe score (offline judge) and the commands that read its output", () => {
  const dir = tempDir();
  let scoring: Result;

  before(async () => {
    copyFileSync(SAMPLE, path.join(dir, "qa-models.csv"));
    scoring = await evalframe(
      ["score", "qa-models.csv", "--out", "scored.csv", "--judge", "offline", "--statements-out", "out/statements.csv", "--summary-json", "out/summary.json"],
      dir,
    );
  });

  it("writes the scored CSV, the statements and a JSON summary, exits 0 and prints the usage line", async () => {
    assert.equal(scoring.code, 0, scoring.stderr);
    const scored = await loadDataset(path.join(dir, "scored.csv"));
    assert.equal(scored.shape[0], 126);
    assert.ok(scored.columns.includes("answer_correctness"));
    assert.ok(scored.columns.includes("answer_correctness_statements"));
    const judges = new Set((scored.column("answer_correctness_judge").values as string[]).map(String));
    assert.deepEqual([...judges], ["offline (approximate)"]);

    const statements = parseCsv(readFileSync(path.join(dir, "out", "statements.csv"), "utf8"));
    assert.deepEqual(statements.header, ["row", "id", "model", "side", "n", "statement", "verdict", "reason"]);
    assert.ok(statements.records.length > 126);

    const summary = JSON.parse(readFileSync(path.join(dir, "out", "summary.json"), "utf8")) as {
      rows: number;
      metrics: string[];
      failed: Record<string, number>;
      usage: { chatCalls: number; judge: string };
      usageLine: string;
      summary: { model: string; metric: string; n: number; mean: number }[];
    };
    assert.equal(summary.rows, 126);
    assert.deepEqual(summary.metrics, ["answer_correctness"]);
    assert.deepEqual(summary.failed, { answer_correctness: 0 });
    assert.equal(summary.usage.judge, "offline (approximate)");
    assert.ok(summary.usage.chatCalls > 0);
    assert.deepEqual(summary.summary.map((r) => r.model), ["atlas-pro", "chatter-xl", "swift-mini"]);
    assert.ok(summary.summary.every((r) => r.n === 42 && r.mean > 0 && r.mean < 1));

    const out = lines(scoring.stdout);
    assert.match(out.at(-1)!, /^126 rows · \d+ chat calls \(\d+ cached\) · .* · offline \(approximate\)$/, "the usage line comes last");
    assert.equal(out.at(-1), summary.usageLine);
    assert.ok(out.some((l) => /^atlas-pro\s+answer_correctness\s+42\s+42\s+0\s/.test(l)), scoring.stdout);
    assert.ok(out.includes("answer_correctness: 0 of 126 rows failed"));
    assert.doesNotMatch(scoring.stderr, /\n\s+at /, "no stack trace");
    assert.doesNotMatch(scoring.stdout, /[╔║╟]/, "no box drawing");
  });

  it("summarize prints the summary as an aligned table, or JSON with --json", async () => {
    const [table, json] = await Promise.all([
      evalframe(["summarize", "scored.csv"], dir),
      evalframe(["summarize", "scored.csv", "--by", "model", "--metrics", "answer_correctness", "--json"], dir),
    ]);
    assert.equal(table.code, 0, table.stderr);
    const rows = lines(table.stdout);
    assert.match(rows[0]!, /^model\s+metric\s+n\s+n_valid\s+n_error\s+mean\s+std\s+median/);
    assert.match(rows[1]!, /^-+( +-+)+$/);
    assert.equal(rows.length, 5);
    const mean = rows[0]!.indexOf("mean") + "mean".length;
    for (const row of rows.slice(2)) assert.match(row.slice(mean - 1, mean), /\d/, "numbers right-aligned under their header");

    assert.equal(json.code, 0, json.stderr);
    const records = JSON.parse(json.stdout) as { model: string; metric: string; pass_rate: number | null }[];
    assert.deepEqual(records.map((r) => r.model), ["atlas-pro", "chatter-xl", "swift-mini"]);
    assert.ok(records.every((r) => r.metric === "answer_correctness" && r.pass_rate === null), "NaN becomes null in JSON");
  });

  it("compare prints the paired comparison, against a baseline too", async () => {
    const [all, json, unknown] = await Promise.all([
      evalframe(["compare", "scored.csv"], dir),
      evalframe(["compare", "scored.csv", "--metric", "answer_correctness", "--by", "model", "--pair-by", "id", "--baseline", "swift-mini", "--json"], dir),
      evalframe(["compare", "scored.csv", "--baseline", "nobody"], dir),
    ]);
    assert.equal(all.code, 0, all.stderr);
    const rows = lines(all.stdout);
    assert.match(rows[0]!, /^model_a\s+model_b\s+n_pairs\s+n_dropped\s+mean_a\s+mean_b\s+mean_diff\s+ci_low\s+ci_high\s+wins\s+ties\s+losses\s+test\s+p_value\s+p_holm\s+verdict\s+paired_by\s+unpaired_because\s+judge$/);
    // The table (a header, a rule, 3 pairs), then the same comparison in words.
    assert.equal(rows.findIndex((l) => l.startsWith("Ranking by mean")), 2 + 3);
    assert.match(rows[5]!, /^Ranking by mean answer_correctness: atlas-pro /);
    assert.ok(rows.slice(6).some((l) => / scores \d\.\d\d higher than /.test(l)));

    assert.equal(json.code, 0, json.stderr);
    const records = JSON.parse(json.stdout) as { model_a: string; model_b: string; n_pairs: number }[];
    assert.deepEqual(records.map((r) => [r.model_a, r.model_b, r.n_pairs]), [["atlas-pro", "swift-mini", 42], ["chatter-xl", "swift-mini", 42]]);

    assert.equal(unknown.code, 2, "a --baseline the file lacks is bad usage, as a --by column it lacks");
    assert.equal(lines(unknown.stderr).length, 1);
    assert.match(unknown.stderr, /--baseline names "nobody", which is not a value of column "model" in scored\.csv; its values are: atlas-pro, chatter-xl, swift-mini/);
  });

  it("compare: repeated (id, group) pairs are named once each, worded for the grouping, under the command's name; a missing model column lists the file's columns", async () => {
    const byDomain = await evalframe(["compare", "scored.csv", "--by", "domain"], dir);
    assert.equal(byDomain.code, 1);
    assert.equal(lines(byDomain.stderr).length, 1);
    assert.match(byDomain.stderr, /^evalframe: scored\.csv: compare: \d+ \(id, domain\) pairs appear more than once: \("q01", "science"\), \("q02", "science"\), /);
    assert.match(byDomain.stderr, /rows grouped by "domain" are paired by "id", so each domain may have one row per id/);
    assert.doesNotMatch(byDomain.stderr, /compareModels|each model may answer/);
    const withoutModel = path.join(dir, "nomodel.csv");
    writeFileSync(withoutModel, "qid,user_input,response,reference,answer_correctness,answer_correctness_error\nq1,Q,A,R,0.5,\nq2,Q,B,R,0.7,\n");
    const noModel = await evalframe(["compare", "nomodel.csv"], dir);
    assert.equal(noModel.code, 2, noModel.stderr);
    assert.match(noModel.stderr, /compare: --by \(default\) names column "model", which nomodel\.csv does not have; its columns are: id, user_input, response, reference, answer_correctness, answer_correctness_error \(/);
  });

  it("a column named by an option that the file lacks exits 2 listing the file's columns, not only those read", async () => {
    const cases: [string[], string][] = [
      [["compare", "scored.csv", "--metric", "answer_corectness"], "--metric names column \"answer_corectness\""],
      [["compare", "scored.csv", "--pair-by", "qid"], "--pair-by names column \"qid\""],
      [["summarize", "scored.csv", "--by", "modle"], "--by names column \"modle\""],
      [["summarize", "scored.csv", "--metrics", "answer_correctness,nosuch"], "--metrics names column \"nosuch\""],
      [["summarize", "scored.csv", "--where", "nosuch=x"], "--where names column \"nosuch\""],
    ];
    for (const [args, named] of cases) {
      const r = await evalframe(args, dir);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, new RegExp(`${args[0]}: ${named}, which scored\\.csv does not have; its columns are: id, domain, model, user_input, response, reference, answer_correctness, answer_correctness_factual, `));
    }
  });

  it("chart writes PNG, SVG and Vega-Lite JSON files", async () => {
    const [png, svg, json, wrongKind, noRelevance] = await Promise.all([
      evalframe(["chart", "scored.csv", "--kind", "box", "--out", "charts/box.png"], dir),
      evalframe(["chart", "scored.csv", "--kind", "paired", "--models", "atlas-pro,swift-mini", "--out", "charts/paired.svg"], dir),
      evalframe(["chart", "scored.csv", "--kind", "sweep", "--out", "charts/sweep.json"], dir),
      evalframe(["chart", "scored.csv", "--kind", "pie", "--out", "x.png"], dir),
      evalframe(["chart", "scored.csv", "--kind", "relevance", "--out", "r.png"], dir),
    ]);
    const notBinary = await evalframe(["chart", "scored.csv", "--kind", "relevance", "--metric", "answer_correctness", "--out", "r.png"], dir);
    assert.equal(png.code, 0, png.stderr);
    const bytes = readFileSync(path.join(dir, "charts", "box.png"));
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG signature");
    assert.ok(bytes.length > 5000);

    assert.equal(svg.code, 0, svg.stderr);
    assert.match(readFileSync(path.join(dir, "charts", "paired.svg"), "utf8"), /^<svg[^>]*>[\s\S]*atlas-pro − swift-mini[\s\S]*<\/svg>$/);

    assert.equal(json.code, 0, json.stderr);
    const spec = JSON.parse(readFileSync(path.join(dir, "charts", "sweep.json"), "utf8")) as { $schema: string; mark: unknown };
    assert.match(spec.$schema, /vega-lite/);

    assert.equal(wrongKind.code, 2);
    assert.match(wrongKind.stderr, /--kind must be one of box, histogram, mean, scatter, heatmap, paired, wtl, verdicts, sweep, relevance/);
    assert.equal(noRelevance.code, 2, "the file has no multimodal_relevance column: bad usage");
    assert.equal(lines(noRelevance.stderr).length, 1);
    assert.match(noRelevance.stderr, /^evalframe: chart: --kind relevance .*scored\.csv has no multimodal_relevance column .*use --kind mean, box, histogram or sweep/);
    assert.doesNotMatch(noRelevance.stderr, /summarize/);
    assert.equal(notBinary.code, 2, "a 0-1 score is not a rate");
    assert.match(notBinary.stderr, /chart: --kind relevance .*needs a 0\/1 score, but --metric answer_correctness has other values .*use --kind mean/);
    assert.ok(!existsSync(path.join(dir, "r.png")));
  });

  it("report writes one self-contained HTML page with the offline banner", async () => {
    const result = await evalframe(["report", "scored.csv", "--out", "report.html", "--title", "CLI <report>", "--usage-json", "out/summary.json"], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^wrote report\.html \(\d[\d,]* KB\)\n$/);
    const html = readFileSync(path.join(dir, "report.html"), "utf8");
    assert.match(html, /^<!doctype html>/);
    assert.ok(html.includes("<title>CLI &lt;report&gt;</title>"));
    assert.match(html, /class="banner offline"/);
    const usageLine = (JSON.parse(readFileSync(path.join(dir, "out", "summary.json"), "utf8")) as { usageLine: string }).usageLine;
    assert.ok(html.includes(`<p class="usage" title="usage of the scoring run">${usageLine}</p>`), "the usage line from --usage-json");
    assert.doesNotMatch(html, /<script[^>]+src=/i);
  });

  it("report of a file with more answers than the page shows: the same page as from the whole table, the lowest-scoring answers' statements included", async () => {
    // 20 copies of the run under new ids (2,349 answers; the page shows 2,000). The three
    // lowest-scoring answers of each model are only in the last copy, past the answers shown,
    // so their statements come from the second read of the file.
    const scored = await loadTable(path.join(dir, "scored.csv"), { required: [], warn: false });
    const lowest = new Set(frameRecords(worst(scored, { n: 3, by: "model" })).map((r) => `${String(r["id"])}|${String(r["model"])}`));
    assert.equal(lowest.size, 9);
    const copies = 20;
    const rows: number[] = [];
    const ids: string[] = [];
    const id = scored.columns.find((c) => c.name === "id")!.values;
    const model = scored.columns.find((c) => c.name === "model")!.values;
    for (let k = 0; k < copies; k++) {
      for (let r = 0; r < scored.rowCount; r++) {
        if (k < copies - 1 && lowest.has(`${String(id[r])}|${String(model[r])}`)) continue;
        rows.push(r);
        ids.push(`${String(id[r])}/${k}`);
      }
    }
    const many = {
      rowCount: rows.length,
      columns: scored.columns.map((c) => ({ ...c, values: c.name === "id" ? ids : rows.map((r) => c.values[r] ?? null) })),
    };
    writeFileSync(path.join(dir, "many.csv"), formatCsv(many));
    const whole = await loadTable(path.join(dir, "many.csv"), { required: [], warn: false });
    const shown = rowsWithStatements(whole);
    assert.ok(shown.size < whole.rowCount, "some rows' statements are not read again");
    assert.ok(Math.max(...shown) >= rows.length - scored.rowCount, "a lowest-scoring row in the last copy");

    const result = await evalframe(["report", "many.csv", "--out", "many.html"], dir);
    assert.equal(result.code, 0, result.stderr);
    const page = (html: string) => html.replace(/generated [^<]*/, "generated (time)");
    const html = readFileSync(path.join(dir, "many.html"), "utf8");
    assert.equal(page(html), page(buildReport(whole)));
    assert.match(html, new RegExp(`<b>[\\d,]+ of ${rows.length.toLocaleString("en-US")} answers are shown</b>`));
  });
});

describe("evalframe: help, version and failures", () => {
  const dir = tempDir();
  copyFileSync(SAMPLE, path.join(dir, "qa-models.csv"));

  it("--help exits 0 and lists the subcommands; each subcommand has its own --help; --version prints the version", async () => {
    const help = await evalframe(["--help"], dir);
    assert.equal(help.code, 0);
    for (const command of ["score", "summarize", "compare", "chart", "report"]) assert.match(help.stdout, new RegExp(`^  ${command}\\s`, "m"));
    assert.match(help.stdout, /Exit codes: 0 done/);
    const commands = ["score", "summarize", "compare", "chart", "report"];
    const subs = await Promise.all(commands.map((command) => evalframe([command, "--help"], dir)));
    for (const [k, command] of commands.entries()) {
      const sub = subs[k]!;
      assert.equal(sub.code, 0, sub.stderr);
      assert.match(sub.stdout, new RegExp(`^evalframe ${command} — `));
      assert.match(sub.stdout, new RegExp(`Usage:\\n  evalframe ${command} `));
    }
    const score = subs[0]!;
    for (const option of ["--out", "--metrics", "--judge", "--model", "--vision-model", "--embedding-model", "--base-url", "--concurrency", "--max-tokens", "--weights", "--beta", "--threshold", "--similarity-threshold", "--cache-dir", "--no-cache", "--image-root", "--allow-private-network", "--statements-out", "--summary-json"]) {
      assert.ok(score.stdout.includes(`  ${option} `), `score --help lists ${option}`);
    }
    const version = await evalframe(["--version"], dir);
    assert.equal(version.code, 0);
    assert.equal(version.stdout, `${(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version}\n`);
    const none = await evalframe([], dir);
    assert.equal(none.code, 2, "no command is bad usage");
    assert.match(none.stderr, /Usage:/);
  });

  it("a missing input file exits 1 with one line on stderr naming the file", async () => {
    const result = await evalframe(["score", "no-such-file.csv", "--out", "scored.csv", "--judge", "offline"], dir);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    const err = lines(result.stderr);
    assert.equal(err.length, 1, result.stderr);
    assert.match(err[0]!, /^evalframe: cannot read "no-such-file\.csv": no such file/);
    assert.equal(existsSync(path.join(dir, "scored.csv")), false);
  });

  it("bad flags and arguments exit 2 with one line: unknown flag, bad number, unknown command, missing --out", async () => {
    const cases: [string[], RegExp][] = [
      [["score", "qa-models.csv", "--out", "s.csv", "--bogus"], /^evalframe: score: unknown option --bogus \(see evalframe score --help\)$/],
      [["score", "qa-models.csv", "--out", "s.csv", "--concurrency", "many"], /--concurrency must be a whole number from 1 to 9007199254740991, in digits only \(e\.g\. [^)]*\); got "many"/],
      [["score", "qa-models.csv", "--out", "s.csv", "--weights", "0.5,x"], /--weights must be a number/],
      [["score", "qa-models.csv", "--out", "s.csv", "--beta", "0"], /--beta must be a number greater than 0/],
      [["score", "qa-models.csv", "--out", "s.csv", "--threshold", "2"], /--threshold must be a number at least 0 and at most 1, written as a plain decimal \(e\.g\. [^)]*\); got "2"/],
      [["score", "qa-models.csv", "--out", "s.csv", "--weigths", "1,0"], /unknown option --weigths; did you mean --weights\?/],
      [["compare", "scored.csv", "--basline", "m"], /unknown option --basline; did you mean --baseline\?/],
      [["score", "qa-models.csv", "--out", "s.csv", "--chunk-rows", "0"], /--chunk-rows must be a whole number from 1 to/],
      // Plain digits only: a space, a sign or an exponent is not taken, and a value too big names the range.
      [["score", "qa-models.csv", "--out", "s.csv", "--concurrency", " 5"], /^evalframe: score: --concurrency must be a whole number from 1 to 9007199254740991, in digits only \(e\.g\. --concurrency 8\); got " 5"/],
      [["score", "qa-models.csv", "--out", "s.csv", "--concurrency", "+3"], /--concurrency must be a whole number from 1 to 9007199254740991, .*got "\+3"/],
      [["score", "qa-models.csv", "--out", "s.csv", "--concurrency", "99999999999999999999"], /--concurrency must be a whole number from 1 to 9007199254740991, .*got "99999999999999999999"/],
      [["score", "qa-models.csv", "--out", "s.csv", "--max-tokens", "1e3"], /--max-tokens must be a whole number from 1 to 9007199254740991, in digits only \(e\.g\. --max-tokens 1024\); got "1e3"/],
      [["summarize", "scored.csv", "--fail-under", "+0.5"], /^evalframe: summarize: --fail-under must be a number at least 0 and at most 1, written as a plain decimal \(e\.g\. --fail-under 0\.5\); got "\+0\.5"/],
      [["summarize", "scored.csv", "--fail-under", " 0.5"], /--fail-under must be a number .*got " 0\.5"/],
      [["summarize", "scored.csv", "--fail-under", "5e-1"], /--fail-under must be a number .*got "5e-1"/],
      [["score", "qa-models.csv", "--out", "s.csv", "--metrics", "bleu"], /--metrics must be one of answer_correctness, multimodal_relevance/],
      [["score", "qa-models.csv", "--out", "s.csv", "--judge", "openai"], /--judge openai needs OPENAI_API_KEY/],
      [["score", "qa-models.csv"], /--out is required/],
      [["score", "a.csv", "b.csv", "--out", "s.csv"], /expected one input file/],
      [["frobnicate"], /unknown command "frobnicate"/],
      [["summarize", "scored.txt"], /cannot tell the format of "scored\.txt"/],
    ];
    const results = await Promise.all(cases.map(([args]) => evalframe(args, dir)));
    for (const [k, [args, pattern]] of cases.entries()) {
      const result = results[k]!;
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      const err = lines(result.stderr);
      assert.equal(err.length, 1, `${args.join(" ")}: ${result.stderr}`);
      assert.match(err[0]!, pattern);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    }
  });

  it("a malformed CSV exits 1 naming the line; a missing column exits 1 listing the columns", async () => {
    writeFileSync(
      path.join(dir, "broken.csv"),
      'id,model,user_input,response,reference\nq1,m,"Q one?",A.,R.\nq2,m,Q two?,A.,R.\nq3,m,"Q three?,A.,R.\n',
    );
    const broken = await evalframe(["score", "broken.csv", "--out", "s.csv", "--judge", "offline"], dir);
    assert.equal(broken.code, 1);
    assert.deepEqual(lines(broken.stderr), ["evalframe: broken.csv, line 4: a quoted field opened on this line is never closed"]);

    writeFileSync(path.join(dir, "noref.csv"), "question,answer\nWhat?,That.\n");
    const noReference = await evalframe(["score", "noref.csv", "--out", "s.csv", "--judge", "offline", "--metrics", "answer_correctness"], dir);
    assert.equal(noReference.code, 1);
    const err = lines(noReference.stderr);
    assert.equal(err.length, 1, noReference.stderr);
    assert.match(err[0]!, /^evalframe: noref\.csv: missing required column "reference".*"user_input", "response"/);
    const nothing = await evalframe(["score", "noref.csv", "--out", "s.csv", "--judge", "offline"], dir);
    assert.equal(nothing.code, 1);
    assert.match(nothing.stderr, /^evalframe: noref\.csv: nothing to score/);
  });
});

describe("evalframe score --judge openai against an OpenAI-compatible server", () => {
  it("scores through the server; the API key is sent but appears in no output and no written file", async () => {
    const dir = tempDir();
    copySampleHead(dir);
    const result = await evalframeProcess(
      ["score", "qa-models.csv", "--judge", "openai", "--out", "scored.csv", "--statements-out", "statements.csv", "--summary-json", "summary.json", "--cache-dir", "cache", "--concurrency", "8"],
      dir,
      { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: serverURL() },
    );
    assert.equal(result.code, 0, result.stderr);
    const chat = server.chatRequests();
    assert.ok(chat.length >= HEAD_QUESTIONS && chat.length <= HEAD_QUESTIONS + 2 * HEAD_ROWS, `N + 2·N·M chat calls at most, got ${chat.length}`);
    assert.ok(server.requests.every((r) => r.headers["authorization"] === `Bearer ${KEY}`), "the key from the environment is what authenticates");

    const scored = await loadDataset(path.join(dir, "scored.csv"));
    assert.equal(scored.shape[0], HEAD_ROWS);
    const judges = new Set((scored.column("answer_correctness_judge").values as string[]).map(String));
    assert.deepEqual([...judges], [`gpt-4o-mini @ ${new URL(serverURL()).host}`]);
    const errors = (scored.column("answer_correctness_error").values as unknown[]).filter((e) => typeof e === "string" && e !== "");
    assert.deepEqual(errors, []);
    assert.match(lines(result.stdout).at(-1)!, new RegExp(`^${HEAD_ROWS} rows · \\d+ chat calls .* · gpt-4o-mini @ 127\\.0\\.0\\.1:\\d+$`));

    assert.ok(!result.stdout.includes(KEY) && !result.stderr.includes(KEY), "the key is never printed");
    const written = filesUnder(dir);
    assert.ok(written.some((f) => f.includes(`${path.sep}cache${path.sep}`)), "the cache was written");
    for (const file of written) assert.ok(!readFileSync(file).includes(KEY), `${path.relative(dir, file)} holds no key`);
  });

  it("a server that refuses the key: every row fails with a scrubbed reason, exit 1, and the key is printed nowhere", async () => {
    const dir = tempDir();
    copySampleHead(dir);
    server.options.fault = () => ({ kind: "status", status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: "invalid_request_error", code: "invalid_api_key" } } });
    const result = await evalframeProcess(["score", "qa-models.csv", "--out", "scored.csv", "--summary-json", "summary.json", "--no-cache", "--no-progress"], dir, {
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: serverURL(),
    });
    assert.equal(result.code, 1, result.stderr);
    const err = lines(result.stderr);
    assert.equal(err.length, 1, result.stderr);
    assert.match(err[0]!, /^evalframe: every row failed to score .*first reason: .*401/);
    assert.ok(result.stdout.includes(`answer_correctness: ${HEAD_ROWS} of ${HEAD_ROWS} rows failed`), result.stdout);
    assert.ok(!result.stdout.includes(KEY) && !result.stderr.includes(KEY), "the key is never printed");
    for (const file of filesUnder(dir)) assert.ok(!readFileSync(file).includes(KEY), `${path.relative(dir, file)} holds no key`);
    const scored = await loadDataset(path.join(dir, "scored.csv"));
    assert.equal(scored.shape[0], HEAD_ROWS, "the scored table is still written, with the reasons");
  });
});

describe("evalframe score in batch mode", () => {
  it("--batch scores through the Batch API like the interactive run, and batch status lists the batches", async () => {
    const dir = tempDir();
    copySampleHead(dir);
    const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: serverURL() };
    server.options.batches = { pollsToComplete: 1 };
    const interactive = await evalframe(["score", "qa-models.csv", "--judge", "openai", "--out", "interactive.csv", "--cache-dir", "cache-a", "--no-progress"], dir, env);
    assert.equal(interactive.code, 0, interactive.stderr);
    server.reset();
    const batch = await evalframe(["score", "qa-models.csv", "--judge", "openai", "--out", "batch.csv", "--cache-dir", "cache-b", "--batch", "--batch-dir", "batches", "--poll-interval", "0.01"], dir, env);
    assert.equal(batch.code, 0, batch.stderr);
    assert.match(batch.stderr, /batch stage 1: submitted batch_\d+ with \d+ chat lines/);
    assert.match(batch.stdout, /\d+ batch lines \(half price\)/);
    assert.equal(server.chatRequests().length, 0, "no interactive call");
    const pick = async (file: string) => {
      const df = await loadDataset(path.join(dir, file));
      return (df.values as unknown[][]).map((r) => [r[df.columns.indexOf("id")], r[df.columns.indexOf("model")], r[df.columns.indexOf("answer_correctness")]]);
    };
    assert.deepEqual(await pick("batch.csv"), await pick("interactive.csv"));
    const status = await evalframe(["batch", "status", "--batch-dir", "batches"], dir, env);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /stage\s+endpoint[\s\S]*\/v1\/chat\/completions[\s\S]*completed\s+yes/);
    // --live asks the server given in this environment (not the process's), which still says completed.
    const live = await evalframe(["batch", "status", "--batch-dir", "batches", "--live"], dir, env);
    assert.equal(live.code, 0, live.stderr);
    assert.match(live.stdout, /completed\s+yes/);
    assert.ok(server.requests.some((r) => r.method === "GET" && r.path.startsWith("/v1/batches/")), "the status was asked of the server");
    assert.ok(!batch.stdout.includes(KEY) && !batch.stderr.includes(KEY));
  });

  it("--batch-export and --batch-import go through a file an offline runner answers", async () => {
    const dir = tempDir();
    copySampleHead(dir);
    const env = { OPENAI_BASE_URL: serverURL() };
    const runner = path.join(ROOT, "test", "support", "offline-runner.ts");
    for (let stage = 1; stage <= 2; stage++) {
      const exported = await evalframe(["score", "qa-models.csv", "--judge", "openai", "--cache-dir", "cache", "--batch-export", `requests-${stage}.jsonl`], dir, env);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(exported.stdout, /wrote \d+ batch request lines/);
      const ran = spawnSync(process.execPath, [...RUN_TS, runner, path.join(dir, `requests-${stage}.jsonl`), path.join(dir, `results-${stage}.jsonl`)], { encoding: "utf8" });
      assert.equal(ran.status, 0, ran.stderr);
      const imported = await evalframe(["score", "qa-models.csv", "--judge", "openai", "--cache-dir", "cache", "--out", "scored.csv", "--batch-import", `results-${stage}.jsonl`, "--no-progress"], dir, env);
      assert.equal(imported.code, 0, imported.stderr);
      if (stage === 1) assert.match(imported.stdout, /the next stage needs \d+ more requests/);
      else assert.ok(imported.stdout.includes(`wrote scored.csv (${HEAD_ROWS} rows)`), imported.stdout);
    }
    assert.equal(server.requests.length, 0, "nothing went to the server");
    const scored = await loadDataset(path.join(dir, "scored.csv"));
    const errors = (scored.column("answer_correctness_error").values as unknown[]).filter((e) => typeof e === "string" && e !== "");
    assert.deepEqual(errors, []);
  });

  it("the import command --batch-export prints is the one to run: it repeats the judge and metric flags, so the results land in the cache the next export and the scoring read", async () => {
    const dir = tempDir();
    copySampleHead(dir);
    const env = { OPENAI_BASE_URL: serverURL() };
    const runner = path.join(ROOT, "test", "support", "offline-runner.ts");
    let scoredAt = -1;
    for (let stage = 1; stage <= 3 && scoredAt < 0; stage++) {
      const exported = await evalframe(["score", "qa-models.csv", "--judge", "openai", "--cache-dir", "my cache", "--layout", "fused", "--batch-export", `requests-${stage}.jsonl`], dir, env);
      assert.equal(exported.code, 0, exported.stderr);
      const printed = /then: (evalframe score .*)$/m.exec(exported.stdout)?.[1];
      assert.equal(printed, "evalframe score qa-models.csv --judge openai --cache-dir 'my cache' --layout fused --out scored.csv --batch-import RESULTS.jsonl");
      const ran = spawnSync(process.execPath, [...RUN_TS, runner, path.join(dir, `requests-${stage}.jsonl`), path.join(dir, `results-${stage}.jsonl`)], { encoding: "utf8" });
      assert.equal(ran.status, 0, ran.stderr);
      // The printed command, as a shell would split it, with the runner's output in place of RESULTS.jsonl.
      const args = printed!.replace("'my cache'", "my\u0000cache").split(" ").slice(1).map((a) => a.replace("\u0000", " ").replace("RESULTS.jsonl", `results-${stage}.jsonl`));
      const imported = await evalframe([...args, "--no-progress"], dir, env);
      assert.equal(imported.code, 0, imported.stderr);
      if (imported.stdout.includes(`wrote scored.csv (${HEAD_ROWS} rows)`)) scoredAt = stage;
    }
    assert.equal(scoredAt, 2, "two stages, each imported into the cache the export reads");
    assert.equal(server.requests.length, 0, "nothing went to the server");
    const scored = await loadDataset(path.join(dir, "scored.csv"));
    assert.deepEqual((scored.column("answer_correctness_error").values as unknown[]).filter((e) => typeof e === "string" && e !== ""), []);
  });

  it("--batch-export needs no API key or server (nothing is sent), as --dry-run does; the requests are those written with a key", async () => {
    const dir = tempDir();
    copySampleHead(dir);
    const keyless = await evalframe(["score", "qa-models.csv", "--judge", "openai", "--no-cache", "--batch-export", "keyless.jsonl"], dir, {});
    assert.equal(keyless.code, 0, keyless.stderr);
    assert.match(keyless.stdout, /wrote \d+ batch request lines/);
    const withKey = await evalframe(["score", "qa-models.csv", "--judge", "openai", "--no-cache", "--batch-export", "keyed.jsonl"], dir, { OPENAI_API_KEY: KEY });
    assert.equal(withKey.code, 0, withKey.stderr);
    const lines = readFileSync(path.join(dir, "keyless.jsonl"), "utf8");
    assert.equal(lines, readFileSync(path.join(dir, "keyed.jsonl"), "utf8"), "the same requests (and ids) as with a key for the same server");
    assert.doesNotMatch(lines, /no-key-set|SECRET/);
    assert.equal(server.requests.length, 0, "nothing went to the server");
  });

  it("refuses batch mode with the offline judge", async () => {
    const dir = tempDir();
    copyFileSync(SAMPLE, path.join(dir, "qa-models.csv"));
    const result = await evalframe(["score", "qa-models.csv", "--judge", "offline", "--out", "s.csv", "--batch"], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /batch mode needs an OpenAI-compatible judge/);
  });
});

describe("error reporting", () => {
  it("usage errors and failures are one line; an unexpected error adds the EVALFRAME_DEBUG hint; secrets are scrubbed", () => {
    const saved = { key: process.env["OPENAI_API_KEY"], debug: process.env["EVALFRAME_DEBUG"] };
    process.env["OPENAI_API_KEY"] = KEY;
    delete process.env["EVALFRAME_DEBUG"];
    try {
      const report = (error: unknown) => {
        let text = "";
        const code = reportError(error, (t) => (text += t));
        return { code, text };
      };
      assert.deepEqual(report(new UsageError("score: bad\nthing", "score")), { code: 2, text: "evalframe: score: bad thing (see evalframe score --help)\n" });
      assert.deepEqual(report(new CliFailure(`401 for key ${KEY}`)), { code: 1, text: "evalframe: 401 for key [redacted]\n" });
      const unexpected = report(new TypeError(`cannot read x of undefined (key ${KEY})`));
      assert.equal(unexpected.code, 1);
      assert.deepEqual(lines(unexpected.text), ["evalframe: unexpected error: cannot read x of undefined (key [redacted])", "run with EVALFRAME_DEBUG=1 for the stack"]);
      process.env["EVALFRAME_DEBUG"] = "1";
      const debug = report(new TypeError(`boom ${KEY}`));
      assert.match(debug.text, /^evalframe: unexpected error: boom \[redacted\]\nTypeError: boom \[redacted\]\n\s+at /);
      assert.ok(!debug.text.includes(KEY));
    } finally {
      for (const [name, value] of [["OPENAI_API_KEY", saved.key], ["EVALFRAME_DEBUG", saved.debug]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe("the built command", () => {
  it("score and compare lead with the failures and their reason when most answers failed", async () => {
    const dir = tempDir();
    const scored = await evalframe(["score", path.join(ROOT, "data", "multimodal.csv"), "--metrics", "multimodal_relevance", "--judge", "offline", "--image-root", path.join(ROOT, "data"), "--out", "mm.csv"], dir);
    assert.equal(scored.code, 0, scored.stderr);
    // score streams its rows and keeps only a summary of each: the kind of failure is kept too.
    assert.match(scored.stdout, /Only 3 of 30 answers were scored on multimodal_relevance: 27 failed \(.*\), all with “relevance judgement failed: the offline judge cannot see images/);
    const r = await evalframe(["compare", "mm.csv", "--metric", "multimodal_relevance"], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Only 3 of 30 answers were scored on multimodal_relevance: 27 failed \(.*\), all with “relevance judgement failed: the offline judge cannot see images/);
  });

  it("stopped by SIGINT: exit 130, the progress line ended, what stays said, and the output left as it was", async () => {
    const dir = tempDir();
    const out = path.join(dir, "scored.csv");
    writeFileSync(out, "an earlier run's table\n");
    const child = spawn(process.execPath, [...RUN_TS, ENTRY, "score", path.join(ROOT, "data", "qa-heldout.csv"), "--judge", "offline", "--out", out], { cwd: dir, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      if (stderr === "" || !stderr.includes("rows")) {
        stderr += d;
        if (stderr.includes("rows")) child.kill("SIGINT");
      } else stderr += d;
    });
    const code = await closed;
    assert.equal(code, 130, stderr);
    assert.match(stderr, /evalframe: stopped \(SIGINT\); no file was left half written, and a model's replies already paid for are in the cache \(unless --no-cache\): the same command goes on from there\n$/);
    assert.equal(readFileSync(out, "utf8"), "an earlier run's table\n");
  });

  for (const [signal, exitCode] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    it(`stopped by ${signal} while its outputs are being written: the temporary files are removed, the outputs left as they were`, async () => {
      const dir = tempDir();
      // The sample ten times over (ids made unique), scored 20 rows a chunk: the outputs' temporary files are there long before the end.
      const [header, ...body] = readFileSync(SAMPLE, "utf8").trim().split("\n");
      const input = path.join(dir, "many.csv");
      writeFileSync(input, `${[header, ...Array.from({ length: 10 }, (_, k) => body.map((line) => `r${k}-${line}`)).flat()].join("\n")}\n`);
      const out = path.join(dir, "scored.csv");
      writeFileSync(out, "an earlier run's table\n");
      const temps = () => readdirSync(dir).filter((name) => name.endsWith(".tmp"));
      const child = spawn(process.execPath, [...RUN_TS, ENTRY, "score", input, "--judge", "offline", "--out", out, "--statements-out", path.join(dir, "st.csv"), "--chunk-rows", "20", "--no-progress"], { cwd: dir, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (d: string) => void (stderr += d));
      const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
      let seen: string[] = [];
      const watch = setInterval(() => {
        seen = temps();
        if (seen.length > 0) {
          clearInterval(watch);
          child.kill(signal);
        }
      }, 10);
      const code = await closed;
      clearInterval(watch);
      assert.ok(seen.length > 0, `the run ended before a temporary file was seen: ${stderr}`);
      assert.equal(code, exitCode, stderr);
      assert.match(stderr, new RegExp(`evalframe: stopped \\(${signal}\\); no file was left half written`));
      assert.deepEqual(temps(), [], "no temporary file is left");
      assert.equal(readFileSync(out, "utf8"), "an earlier run's table\n");
      assert.ok(!existsSync(path.join(dir, "st.csv")));
    });
  }

  it("dist/cli.js starts with a node shebang and is package.json's bin", async (t) => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin?: Record<string, string> };
    assert.deepEqual(manifest.bin, { evalframe: "dist/cli.js" });
    const built = path.join(ROOT, "dist", "cli.js");
    if (!existsSync(built)) {
      t.skip("dist/cli.js is not built (npm test builds it first)");
      return;
    }
    assert.equal(readFileSync(built, "utf8").split("\n")[0], "#!/usr/bin/env node");
    const dir = tempDir();
    copyFileSync(SAMPLE, path.join(dir, "qa-models.csv"));
    const version = await evalframeProcess(["--version"], dir, {}, [built]);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    // Exit codes and the two streams through the real executable: bad usage 2, unreadable input 1, one line on stderr and nothing on stdout.
    const [usage, missing] = await Promise.all([
      evalframeProcess(["score", "qa-models.csv", "--out", "s.csv", "--bogus"], dir, {}, [built]),
      evalframeProcess(["score", "no-such-file.csv", "--out", "s.csv", "--judge", "offline"], dir, {}, [built]),
    ]);
    assert.equal(usage.code, 2, usage.stderr);
    assert.equal(usage.stdout, "");
    assert.deepEqual(lines(usage.stderr), ["evalframe: score: unknown option --bogus (see evalframe score --help)"]);
    assert.equal(missing.code, 1, missing.stderr);
    assert.equal(missing.stdout, "");
    assert.equal(lines(missing.stderr).length, 1, missing.stderr);
    assert.match(missing.stderr, /^evalframe: cannot read "no-such-file\.csv": no such file/);
  });
});
