/**
 * evalframe as a user gets it: `npm pack` of this repository, installed into a
 * fresh project from the npm registry with the `overrides` block that the
 * README's "Install in your project" section shows, then used three ways —
 * from TypeScript (strict tsc, CommonJS and ESM), from a tslab notebook and
 * through `npx evalframe`. One install is shared by the three subtests.
 *
 * Needs dist/ built (`npm test` builds first) and the npm registry: when
 * `npm ping` cannot reach it the test fails, saying so (packages already in
 * npm's cache are taken from there).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import { parseCsv } from "../src/dataset/csv";
import { tempDir } from "./support/files";
import { ensureTslabKernel, outputText, readCells, ROOT, runNotebook } from "./support/jupyter";

const INSTALL_TIMEOUT_MS = 10 * 60_000;
const STEP_TIMEOUT_MS = 3 * 60_000;

interface Manifest {
  name: string;
  version: string;
  overrides?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Manifest;

/** The `overrides` of the JSON block in the README's "Install in your project" section. */
function readmeOverrides(): Record<string, string> {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((part) => part.startsWith("Install in your project"));
  assert.ok(section !== undefined, 'README.md has no "## Install in your project" section');
  const block = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('"overrides"'));
  assert.ok(block !== undefined, 'the README\'s "Install in your project" section has no ```json block with "overrides"');
  const overrides = (JSON.parse(block) as { overrides?: unknown }).overrides;
  assert.ok(typeof overrides === "object" && overrides !== null, "the README's overrides block is not an object");
  return overrides as Record<string, string>;
}

/** What one command gave. */
interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a user's shell: no npm variables of the `npm test` that
 * runs this file (npm_config_local_prefix would point npm at this repository),
 * no judge key, and no node_modules/.bin of this repository on PATH.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === "OPENAI_API_KEY" || key === "OPENAI_BASE_URL") continue;
    env[key] = value;
  }
  env["PATH"] = (process.env["PATH"] ?? "")
    .split(path.delimiter)
    .filter((dir) => !dir.endsWith(path.join("node_modules", ".bin")))
    .join(path.delimiter);
  // npx must run the installed bin, never fetch a package of that name.
  env["npm_config_yes"] = "false";
  return env;
}

/** Runs a command in `cwd` as a user would, with a time limit. */
function run(command: string, args: readonly string[], cwd: string, timeout = STEP_TIMEOUT_MS): Run {
  const result = spawnSync(command, args, { cwd, env: userEnv(), encoding: "utf8", timeout, maxBuffer: 64 * 1024 * 1024 });
  const failure = result.error ? `\n${String(result.error)}` : "";
  return { status: result.status, stdout: result.stdout ?? "", stderr: (result.stderr ?? "") + failure };
}

/** A command's output for an assertion message. */
function shown(name: string, r: Run): string {
  return `${name} exited ${r.status}\n--- stdout ---\n${r.stdout.slice(-4000)}\n--- stderr ---\n${r.stderr.slice(-4000)}`;
}

/** The bundled QA data, as this repository has it: the rows the installed copy must hold. */
function bundledRows(): { header: string[]; rows: string[][] } {
  const { header, records } = parseCsv(readFileSync(path.join(ROOT, "data", "qa-models.csv"), "utf8"));
  return { header, rows: records.map((r) => r.fields) };
}

const work = tempDir();
const project = path.join(work, "project");
const DATA = "node_modules/evalframe/data/qa-models.csv";
/** Rows the TypeScript program scores (from the top of the bundled data). */
const FEW_ROWS = 6;

/** The strict TypeScript program: scores the first rows offline and writes what came out to result.json. */
const PROGRAM = `import { writeFileSync } from "node:fs";
import { answerCorrectness, createJudge, loadDataset, score, summarize } from "evalframe";

async function main(): Promise<void> {
  const data = await loadDataset(${JSON.stringify(DATA)});
  const scored = await score(data.head(${FEW_ROWS}), [answerCorrectness()], { judge: createJudge({ judge: "offline" }) });
  const summary = summarize(scored, { by: "model" });
  const column = (name: string): unknown[] => scored.column(name).values as unknown[];
  const result = {
    columns: scored.columns,
    id: column("id"),
    model: column("model"),
    score: column("answer_correctness"),
    error: column("answer_correctness_error"),
    judge: column("answer_correctness_judge"),
    summary: { model: summary.column("model").values as unknown[], n: summary.column("n").values as unknown[] },
  };
  writeFileSync("result.json", JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/** The same package from an ES module: named imports of a CommonJS package must resolve. */
const ESM_PROGRAM = `import { answerCorrectness, createJudge, loadDataset, score, summarize } from "evalframe";

const data = await loadDataset(${JSON.stringify(DATA)});
const kinds = [answerCorrectness, createJudge, loadDataset, score, summarize].map((f) => typeof f);
console.log(JSON.stringify({ rows: data.shape[0], kinds }));
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    strict: true,
    // danfojs-node's own declarations import packages that ship no types.
    skipLibCheck: true,
    types: ["node"],
    outDir: "build",
  },
  include: ["src"],
};

/** A tslab notebook of these code cells. */
function notebookJson(sources: readonly string[]): string {
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: "tslab", display_name: "TypeScript", language: "typescript" } },
    cells: sources.map((source, i) => ({ id: `c${i}`, cell_type: "code", metadata: {}, execution_count: null, outputs: [], source })),
  });
}

/** The installed package's version of a dependency, read from the project's node_modules. */
function installed(name: string): { name: string; version: string } {
  const file = path.join(project, "node_modules", ...name.split("/"), "package.json");
  assert.ok(existsSync(file), `${name} is not installed in the project`);
  return JSON.parse(readFileSync(file, "utf8")) as { name: string; version: string };
}

describe("the packed package installs into a fresh project and works there", { timeout: 20 * 60_000 }, () => {
  const bundled = bundledRows();
  /** answer_correctness by `id|model`, as the TypeScript program got it: the CLI must agree. */
  const libraryScores = new Map<string, number>();

  before(
    () => {
      assert.ok(existsSync(path.join(ROOT, "dist", "index.js")), "dist/ is not built: run `npm run build` first (npm test does)");
      const overrides = readmeOverrides();
      assert.deepEqual(overrides, manifest.overrides, "the README's overrides block differs from package.json's overrides");

      // Fail fast, and say why, when the registry is out of reach (an install would retry for minutes).
      const ping = run("npm", ["ping", "--fetch-timeout=20000", "--fetch-retries=0"], work, 60_000);
      assert.equal(ping.status, 0, `the npm registry is unreachable: this test installs the packed evalframe's dependencies from it.\n${shown("npm ping", ping)}`);

      // The tarball, exactly as `npm pack` makes it (dist/ is already built, so its prepare script is not run).
      const packDir = path.join(work, "pack");
      mkdirSync(packDir);
      const pack = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", packDir], ROOT);
      assert.equal(pack.status, 0, shown("npm pack", pack));
      const packed = (JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[])[0]!;
      const files = new Set(packed.files.map((f) => f.path));
      // (docs/labelling.md too: --help and label errors send the user there.)
      for (const file of ["package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/cli.js", "data/qa-models.csv", "docs/labelling.md"]) {
        assert.ok(files.has(file), `the tarball lacks ${file}`);
      }
      assert.deepEqual([...files].filter((f) => /^(src|test|notebooks|scripts|bench)\//.test(f)), [], "the tarball holds sources or tests");

      // A fresh project holding the README's overrides, and the packages a TypeScript user adds.
      mkdirSync(project);
      const userManifest = { name: "evalframe-install-check", version: "1.0.0", private: true, overrides };
      writeFileSync(path.join(project, "package.json"), `${JSON.stringify(userManifest, null, 2)}\n`);
      const dev = manifest.devDependencies ?? {};
      const install = run(
        "npm",
        [
          "install",
          path.join(packDir, packed.filename),
          `typescript@${dev["typescript"] ?? "5"}`,
          `@types/node@${dev["@types/node"] ?? "20"}`,
          "--no-audit",
          "--no-fund",
          "--prefer-offline",
        ],
        project,
        INSTALL_TIMEOUT_MS,
      );
      assert.equal(
        install.status,
        0,
        `npm install of the packed evalframe failed (from the npm registry, with the README's overrides).\n${shown("npm install", install)}`,
      );

      // The overrides took effect: xlsx from the registry, pure-JS TensorFlow.js in place of the native package.
      assert.equal(installed("evalframe").version, manifest.version);
      for (const [name, spec] of Object.entries(overrides)) {
        const alias = /^npm:(.+)@([^@]+)$/.exec(spec);
        const got = installed(name);
        assert.deepEqual(
          { name: got.name, version: got.version },
          alias ? { name: alias[1]!, version: alias[2]! } : { name, version: spec },
          `the override of ${name}`,
        );
      }
      ensureTslabKernel();
    },
    { timeout: INSTALL_TIMEOUT_MS + 2 * 60_000 },
  );

  it("compiles with strict tsc and scores the bundled data from TypeScript (CommonJS and ESM)", () => {
    mkdirSync(path.join(project, "src"));
    writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(path.join(project, "src", "check.ts"), PROGRAM);
    writeFileSync(path.join(project, "src", "check-esm.mts"), ESM_PROGRAM);
    const tsc = run("node", ["node_modules/typescript/bin/tsc", "-p", "."], project);
    assert.equal(tsc.status, 0, shown("tsc", tsc));

    const cjs = run("node", ["build/check.js"], project);
    assert.equal(cjs.status, 0, shown("node build/check.js", cjs));
    const result = JSON.parse(readFileSync(path.join(project, "result.json"), "utf8")) as {
      columns: string[];
      id: unknown[];
      model: unknown[];
      score: unknown[];
      error: unknown[];
      judge: unknown[];
      summary: { model: unknown[]; n: unknown[] };
    };
    const base = "answer_correctness";
    for (const suffix of ["", "_factual", "_semantic", "_tp", "_fp", "_fn", "_error", "_statements", "_judge"]) {
      assert.ok(result.columns.includes(base + suffix), `no ${base + suffix} column in ${result.columns.join(", ")}`);
    }
    const idAt = bundled.header.indexOf("id");
    const modelAt = bundled.header.indexOf("model");
    const first = bundled.rows.slice(0, FEW_ROWS);
    assert.deepEqual(result.id, first.map((r) => r[idAt]), "the scored rows are the first rows of the bundled data, in order");
    assert.deepEqual(result.model, first.map((r) => r[modelAt]));
    assert.equal(result.score.length, FEW_ROWS);
    for (const [i, value] of result.score.entries()) {
      assert.ok(typeof value === "number" && value >= 0 && value <= 1, `row ${i}: answer_correctness ${String(value)}`);
      libraryScores.set(`${String(result.id[i])}|${String(result.model[i])}`, value);
    }
    assert.ok(new Set(result.score).size > 1, `every answer got the same score: ${result.score.join(", ")}`);
    assert.ok(result.error.every((e) => e === "" || e === null || e === undefined), `row errors: ${result.error.join(" | ")}`);
    assert.ok(result.judge.every((j) => typeof j === "string" && j.startsWith("offline")), `judges: ${result.judge.join(", ")}`);
    assert.deepEqual([...result.summary.model].sort(), [...new Set(result.model)].sort(), "one summary row per model");
    assert.equal(result.summary.n.reduce((sum: number, n) => sum + Number(n), 0), FEW_ROWS);

    const esm = run("node", ["build/check-esm.mjs"], project);
    assert.equal(esm.status, 0, shown("node build/check-esm.mjs", esm));
    const esmOut = JSON.parse(esm.stdout.trim().split("\n").at(-1) ?? "") as { rows: number; kinds: string[] };
    assert.deepEqual(esmOut, { rows: bundled.rows.length, kinds: ["function", "function", "function", "function", "function"] });
  });

  it("imports from a tslab notebook in the project", () => {
    const notebook = path.join(project, "check.ipynb");
    writeFileSync(
      notebook,
      notebookJson([
        'import { answerCorrectness, createJudge, loadDataset, score, showTable, summarize } from "evalframe";\n' +
          'console.log(`evalframe from ${require.resolve("evalframe")}`);',
        `const df = await loadDataset(${JSON.stringify(DATA)});\n` +
          'const scored = await score(df.head(3), [answerCorrectness()], { judge: createJudge({ judge: "offline" }) });\n' +
          "console.log(`scored ${scored.shape[0]} rows`);",
        'showTable(summarize(scored, { by: "model" }));',
      ]),
    );
    const nb = runNotebook(notebook, path.join(work, "notebook-out"));
    assert.equal(nb.status, 0, `the notebook failed:\n${nb.stderr}`);
    const cells = readCells(nb.executed);
    const errors = cells.flatMap((c) => c.outputs ?? []).filter((o) => o.output_type === "error");
    assert.deepEqual(errors, [], "error outputs");
    const text = outputText(cells);
    assert.ok(
      text.includes(`evalframe from ${path.join(project, "node_modules", "evalframe", "dist", "index.js")}`),
      `the notebook did not import the installed package:\n${text.slice(0, 2000)}`,
    );
    assert.match(text, /scored 3 rows/);
    const html = outputText([cells[2]!]);
    assert.match(html, /<table/, "the summary is shown as an HTML table");
    const modelAt = bundled.header.indexOf("model");
    for (const row of bundled.rows.slice(0, 3)) assert.ok(html.includes(`>${row[modelAt]!}<`), `the summary lacks model ${row[modelAt]}`);
    assert.match(html, /answer_correctness/);
  });

  it("runs the command line through npx", () => {
    const version = run("npx", ["evalframe", "--version"], project);
    assert.equal(version.status, 0, shown("npx evalframe --version", version));
    assert.equal(version.stdout.trim(), manifest.version);

    const help = run("npx", ["evalframe", "--help"], project);
    assert.equal(help.status, 0, shown("npx evalframe --help", help));
    assert.match(help.stdout, /evalframe score/);

    const out = path.join(project, "out", "scored.csv");
    const scoring = run("npx", ["evalframe", "score", DATA, "--judge", "offline", "--out", "out/scored.csv"], project);
    assert.equal(scoring.status, 0, shown("npx evalframe score", scoring));
    assert.ok(existsSync(out), "no scored CSV written");
    const { header, records } = parseCsv(readFileSync(out, "utf8"));
    assert.deepEqual(header.slice(0, bundled.header.length), bundled.header, "the input columns come first");
    assert.equal(records.length, bundled.rows.length, "one scored row per input row");
    const at = (name: string): number => {
      const i = header.indexOf(name);
      assert.ok(i >= 0, `no ${name} column in ${header.join(", ")}`);
      return i;
    };
    const [scoreAt, errorAt, idAt, modelAt] = [at("answer_correctness"), at("answer_correctness_error"), at("id"), at("model")];
    const scores = records.map((r) => Number(r.fields[scoreAt]));
    assert.ok(scores.every((s) => s >= 0 && s <= 1), "every row has a score between 0 and 1");
    assert.ok(new Set(scores).size > 1, "the rows do not all score the same");
    assert.ok(records.every((r) => r.fields[errorAt] === ""), "no row failed");
    // The command line and the library score the same rows the same.
    for (const r of records) {
      const library = libraryScores.get(`${r.fields[idAt]}|${r.fields[modelAt]}`);
      if (library !== undefined) assert.equal(Number(r.fields[scoreAt]), library, `${r.fields[idAt]} ${r.fields[modelAt]}`);
    }
  });
});
