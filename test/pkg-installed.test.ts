/**
 * evalframe as another project gets it, with no network: `npm pack` of this
 * repository (scripts off: dist/ as built), unpacked into a scratch project's
 * node_modules as npm would, its dependencies linked to this repository's
 * node_modules (so nothing is downloaded). Then used the ways a project uses
 * it: `require` and `import` of every entry point, strict TypeScript against
 * the shipped declarations (nodenext and node16), and the `evalframe`
 * bin run from another folder, as a CI script runs it (exit codes, stdout
 * and stderr, files and the reply cache in the user's folder).
 *
 * test/packed-install.test.ts does a real `npm install` from the registry;
 * this file checks the package itself, and runs in test:fast. Needs dist/
 * built (`npm test` builds first); skipped, saying so, when it is not.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import { parseCsv } from "../src/dataset/csv";
import { useFakeOpenAI } from "./support/fake-openai";
import { filesUnder, tempDir } from "./support/files";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const ROOT = path.join(__dirname, "..");
const BUILT = existsSync(path.join(ROOT, "dist", "cli.js"));
const KEY = "sk-evalframe-pkg-test-SECRET-90c1d7";

interface Manifest {
  name: string;
  version: string;
  main: string;
  types: string;
  bin: Record<string, string>;
  files: string[];
  exports: Record<string, string | { types: string; default: string }>;
  dependencies: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Manifest;

/** The entry points of package.json's exports that hold code: ".", "./dataset", …. */
const ENTRIES = Object.entries(manifest.exports)
  .filter(([, target]) => typeof target === "object")
  .map(([subpath]) => subpath);
/** The name a user imports an entry point by: "evalframe", "evalframe/dataset", …. */
const specifier = (subpath: string): string => (subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`);

/** A user's shell: no npm variables of an `npm test` around this file, no judge settings, CI on. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || /^(OPENAI|EVALFRAME)_/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, CI: "true", ...extra };
}

/** What one command gave. */
interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A command's output for an assertion message. */
function shown(name: string, r: Run): string {
  return `${name} exited ${r.status}\n--- stdout ---\n${r.stdout.slice(-3000)}\n--- stderr ---\n${r.stderr.slice(-3000)}`;
}

/** Runs a command to its end (synchronously: for commands that need no server in this process). */
function runSync(command: string, args: readonly string[], cwd: string, env = userEnv()): Run {
  const r = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout ?? "", stderr: (r.stderr ?? "") + (r.error ? `\n${String(r.error)}` : "") };
}

/** Runs a command without blocking this process (the fake judge server answers from here). */
function runAsync(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (error) => (stderr += `\n${String(error)}`));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const work = BUILT ? tempDir() : "";
const project = path.join(work, "project");
const installed = path.join(project, "node_modules", manifest.name);
const bin = path.join(project, "node_modules", ".bin", "evalframe");
/** The files of the tarball, relative to the package's folder. */
let packed: string[] = [];

/**
 * Packs this repository and unpacks the tarball into `project`, as `npm
 * install evalframe-x.y.z.tgz` lays it out: the package in node_modules, its
 * bin linked in node_modules/.bin and executable, its dependencies beside it
 * (here, links to this repository's node_modules).
 */
function installPacked(): void {
  mkdirSync(path.join(project, "node_modules", ".bin"), { recursive: true });
  const pack = runSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], ROOT);
  assert.equal(pack.status, 0, shown("npm pack", pack));
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  assert.ok(info !== undefined, `npm pack printed no package:\n${pack.stdout}`);
  packed = info.files.map((f) => f.path).sort();
  const untar = runSync("tar", ["-xzf", path.join(work, path.basename(info.filename)), "-C", path.join(project, "node_modules")], work);
  assert.equal(untar.status, 0, shown("tar", untar));
  renameSync(path.join(project, "node_modules", "package"), installed);
  const repoModules = path.join(ROOT, "node_modules");
  for (const name of readdirSync(repoModules)) {
    if (name === manifest.name || name.startsWith(".")) continue;
    symlinkSync(path.join(repoModules, name), path.join(project, "node_modules", name));
  }
  const target = path.join(installed, manifest.bin["evalframe"]!);
  chmodSync(target, 0o755);
  symlinkSync(path.relative(path.dirname(bin), target), bin);
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "pkg-user", version: "1.0.0", private: true }));
}

describe("the packed package, installed in another project without a network", { skip: BUILT ? false : "dist/ is not built (npm test builds it first)" }, () => {
  before(installPacked);

  it("ships what the code reads at run time, and none of the repository's own files", () => {
    const allowed = /^(dist\/|data\/|docs\/labelling\.md$|README\.md$|package\.json$|LICENSE)/;
    assert.deepEqual(packed.filter((f) => !allowed.test(f)), [], "files outside package.json's files list are packed");
    assert.deepEqual(
      packed.filter((f) => /(^|\/)(src|test|bench|notebooks|scripts|out|\.evalframe-cache|\.jupyter|node_modules)\//.test(f) || /(^|\/)\.env|\.tgz$|\.tsbuildinfo$/.test(f)),
      [],
      "tests, caches, outputs or secrets are packed",
    );
    const has = new Set(packed);
    const targets = [manifest.main, manifest.types, ...Object.values(manifest.bin)];
    for (const target of Object.values(manifest.exports)) {
      if (typeof target === "object") targets.push(target.types, target.default);
    }
    const absent = targets.map((t) => t.replace(/^\.\//, "")).filter((t) => t !== "package.json" && !has.has(t));
    assert.deepEqual(absent, [], "package.json points at files the tarball lacks");

    // Every relative require() of the shipped JavaScript, and every relative import of the shipped declarations, is shipped.
    const unresolved: string[] = [];
    let workers = 0;
    for (const file of packed.filter((f) => /^dist\/.*\.(js|d\.ts)$/.test(f))) {
      const text = readFileSync(path.join(installed, file), "utf8");
      const isDts = file.endsWith(".d.ts");
      const pattern = isDts ? /(?:from|import\()\s*"(\.{1,2}\/[^"]*)"/g : /require\("(\.{1,2}\/[^"]*)"\)/g;
      for (const m of text.matchAll(pattern)) {
        const base = path.posix.join(path.posix.dirname(file), m[1]!);
        const candidates = isDts ? [`${base}.d.ts`, `${base}/index.d.ts`, base] : [`${base}.js`, `${base}/index.js`, base];
        if (!candidates.some((c) => has.has(c) || c === "package.json")) unresolved.push(`${file}: ${m[1]}`);
      }
      // Worker threads start from a file next to the module (path.join(__dirname, "worker.js")).
      for (const m of text.matchAll(/path\.join\(__dirname, `([\w-]+)\$\{path\.extname\(__filename\)\}`\)/g)) {
        workers += 1;
        if (!has.has(path.posix.join(path.posix.dirname(file), `${m[1]}.js`))) unresolved.push(`${file}: worker ${m[1]}`);
      }
    }
    assert.deepEqual(unresolved, [], "shipped code or declarations load files the tarball lacks");
    assert.ok(workers >= 2, `found ${workers} worker files started by path (the offline judge's and the bootstrap's): has the way they start changed?`);

    // The JavaScript's source maps carry their sources (src/ is not packed): a stack trace under --enable-source-maps
    // and a debugger show the TypeScript, not a file that is not there.
    const missingSources: string[] = [];
    for (const map of packed.filter((f) => f.endsWith(".js.map"))) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(path.join(installed, map), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
      sources.forEach((source, i) => {
        if (typeof sourcesContent?.[i] !== "string" && !has.has(path.posix.join(path.posix.dirname(map), source))) missingSources.push(`${map}: ${source}`);
      });
    }
    assert.deepEqual(missingSources.slice(0, 5), [], `${missingSources.length} source-map sources are neither in the tarball nor in their map`);

    // Each compiled file has its source: a file left in dist/ by an older build (its source since moved or deleted) is not packed.
    const stale = packed.filter((f) => /^dist\/.*\.js$/.test(f) && !existsSync(path.join(ROOT, f.replace(/^dist\//, "src/").replace(/\.js$/, ".ts"))));
    assert.deepEqual(stale, [], "dist/ holds files no source in src/ compiles to (an older build's): build afresh before packing");

    const bytes = packed.reduce((sum, f) => sum + readFileSync(path.join(installed, f)).length, 0);
    assert.ok(bytes < 20_000_000, `the unpacked package is ${bytes} bytes; over 20 MB, something that is not the package's got in`);
  });

  it("loads every entry point with require and import, the same names either way", () => {
    const script = `
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const entries = ${JSON.stringify(ENTRIES.map(specifier))};
const result = {};
for (const name of entries) {
  const cjs = Object.keys(require(name)).filter((k) => k !== "__esModule");
  const esm = await import(name);
  result[name] = { cjs: cjs.length, missingInEsm: cjs.filter((k) => !(k in esm)) };
}
const { loadDataset, score, answerCorrectness, createJudge } = await import("evalframe");
const df = await loadDataset("node_modules/evalframe/data/qa-models.csv");
const scored = await score(df.head(3), [answerCorrectness()], { judge: createJudge({ judge: "offline" }), quiet: true });
result.scores = scored.column("answer_correctness").values;
result.version = require("evalframe/package.json").version;
console.log(JSON.stringify(result));
`;
    writeFileSync(path.join(project, "check.mjs"), script);
    const r = runSync(process.execPath, ["check.mjs"], project);
    assert.equal(r.status, 0, shown("node check.mjs", r));
    const result = JSON.parse(r.stdout.trim()) as Record<string, { cjs: number; missingInEsm: string[] }> & { scores: number[]; version: string };
    for (const name of ENTRIES.map(specifier)) {
      assert.ok(result[name]!.cjs > 0, `${name} exports nothing under require`);
      assert.deepEqual(result[name]!.missingInEsm, [], `${name}: names require() sees but an ES module import does not`);
    }
    assert.equal(result.version, manifest.version);
    assert.equal(result.scores.length, 3);
    assert.ok(result.scores.every((s) => s >= 0 && s <= 1), `scores out of 0–1: ${result.scores.join(", ")}`);
  });

  it("type-checks strict TypeScript projects against the shipped declarations (nodenext as ESM, node16 as CommonJS)", () => {
    const imports = ENTRIES.map((subpath, i) => `import * as entry${i} from "${specifier(subpath)}";`).join("\n");
    const program = `${imports}
import { answerCorrectness, createJudge, loadDataset, score, summarize, type DataFrame, type ExplanationOptions } from "evalframe";
import type { Judge } from "evalframe/judge";

export const entries = [${ENTRIES.map((_, i) => `entry${i}`).join(", ")}];
export const explainWith: ExplanationOptions = {};
export async function run(): Promise<number> {
  const judge: Judge = createJudge({ judge: "offline" });
  const data: DataFrame = await loadDataset("node_modules/evalframe/data/qa-models.csv");
  const scored = await score(data.head(2), [answerCorrectness()], { judge, quiet: true });
  const rows: number = summarize(scored, { by: "model" }).shape[0];
  return rows;
}
`;
    const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
    // Two setups, to stay quick: an ES module project under nodenext reading every declaration (skipLibCheck off, and the
    // strictest optional properties: exactOptionalPropertyTypes), and a
    // CommonJS one under node16 (bundler resolution reads the same "types" conditions of exports).
    const setups = [
      { name: "nodenext", type: "module", options: ["--module", "nodenext", "--moduleResolution", "nodenext", "--skipLibCheck", "false", "--exactOptionalPropertyTypes"] },
      { name: "node16", type: "commonjs", options: ["--module", "node16", "--moduleResolution", "node16", "--skipLibCheck", "true"] },
    ];
    for (const setup of setups) {
      const dir = path.join(project, `ts-${setup.name}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `ts-${setup.name}`, private: true, type: setup.type }));
      writeFileSync(path.join(dir, "main.ts"), program);
      const r = runSync(process.execPath, [tsc, "--noEmit", "--strict", "--target", "ES2022", "--types", "node", ...setup.options, "main.ts"], dir);
      // skipLibCheck false: danfojs-node's own declarations import packages that ship no types (the README says to keep
      // skipLibCheck on for that); evalframe's declarations must add no error of their own.
      const errors = r.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
      const ours = errors.filter((line) => !line.includes("node_modules/danfojs-node/"));
      assert.deepEqual(ours, [], `tsc (${setup.name}) found errors in the consumer or in evalframe's declarations:\n${shown("tsc", r)}`);
      if (errors.length === 0) assert.equal(r.status, 0, shown(`tsc (${setup.name})`, r));
    }
  });

  describe("the bin, run from another folder as a CI script runs it", () => {
    const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));
    const user = path.join(work, "user");

    /** The first rows of the bundled data (three models' answers to four questions), at data/qa.csv in the user's folder. */
    function writeUserData(): void {
      mkdirSync(path.join(user, "data"), { recursive: true });
      const lines = readFileSync(path.join(ROOT, "data", "qa-models.csv"), "utf8");
      const { header, records } = parseCsv(lines);
      const quote = (v: string): string => `"${v.replaceAll('"', '""')}"`;
      const rows = records.slice(0, 12).map((r) => r.fields.map(quote).join(","));
      writeFileSync(path.join(user, "data", "qa.csv"), [header.map(quote).join(","), ...rows].join("\n") + "\n");
    }

    it("resolves paths and keeps its cache in the user's folder, exits by the gate, keeps stdout for results", async () => {
      writeUserData();
      const before = filesUnder(installed).length;
      const env = userEnv({ OPENAI_BASE_URL: url(), OPENAI_API_KEY: KEY });
      const args = ["score", "data/qa.csv", "--out", "out/scored.csv", "--summary-json", "out/summary.json", "--fail-under", "0.99"];
      const first = await runAsync(bin, args, user, env);
      assert.equal(first.status, 1, `a gate that is not met exits 1\n${shown("evalframe score", first)}`);
      assert.match(first.stderr, /fail-under: answer_correctness mean [\d.]+ < 0\.99/, shown("evalframe score", first));
      assert.doesNotMatch(first.stdout, /fail-under|\[[░█]+\]/, "the gate's line and the progress lines belong on stderr");
      assert.match(first.stdout, /wrote out\/scored\.csv/, shown("evalframe score", first));
      assert.ok(server.requests.length > 0, "the judge server was asked");

      const scored = parseCsv(readFileSync(path.join(user, "out", "scored.csv"), "utf8"));
      assert.equal(scored.records.length, 12, "every row is in the scored table");
      assert.ok(scored.header.includes("answer_correctness"), `no score column: ${scored.header.join(", ")}`);
      const summary = JSON.parse(readFileSync(path.join(user, "out", "summary.json"), "utf8")) as { failUnder: { passed: boolean } };
      assert.equal(summary.failUnder.passed, false);

      const cache = path.join(user, ".evalframe-cache");
      assert.ok(existsSync(cache), "the reply cache is made in the user's folder");
      for (const file of filesUnder(cache)) assert.ok(!readFileSync(file, "utf8").includes(KEY), `${file} holds the API key`);
      assert.equal(filesUnder(installed).length, before, "the run wrote inside the installed package");

      // A second run answers from the user's cache: no request to the server, and the gate passes at a lower bar.
      server.reset();
      const second = await runAsync(bin, ["score", "data/qa.csv", "--out", "out/again.csv", "--fail-under", "0", "--no-progress"], user, env);
      assert.equal(second.status, 0, shown("evalframe score (again)", second));
      assert.equal(server.requests.filter((r) => r.path.endsWith("/chat/completions")).length, 0, "the second run asked the server again");
      assert.equal(second.stderr.includes(KEY), false, "the key is printed");
    });

    it("answers --version and bad usage as documented (0 and 2, the error on stderr)", () => {
      const version = runSync(bin, ["--version"], user);
      assert.equal(version.status, 0, shown("evalframe --version", version));
      assert.equal(version.stdout.trim(), manifest.version);
      const bad = runSync(bin, ["score", "data/qa.csv", "--out", "out/x.csv", "--no-such-flag"], user);
      assert.equal(bad.status, 2, shown("evalframe score --no-such-flag", bad));
      assert.equal(bad.stdout, "");
      assert.match(bad.stderr, /unknown option --no-such-flag/);
    });
  });
});
