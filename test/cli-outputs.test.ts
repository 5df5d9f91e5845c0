/**
 * Where the command line writes: an output that is an input or another
 * output is refused before any work (exit 2, naming both and the path), as
 * is a path that cannot be written (a folder, a path through a file); the
 * atomic writer follows symbolic links and writes devices and FIFOs in
 * place; `score` reads a pipe; `report --previous` says on stderr when the
 * runs cannot be compared. Run as root here: no test relies on a folder's
 * mode to refuse a write, except the one that is skipped for root.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import { AtomicFileWriter, writeFileAtomic, writeTarget } from "../src/dataset/atomic-write";
import { toCSV } from "../src/dataset/export";
import { runCliCaptured as run } from "./support/cli";
import { tempDir } from "./support/files";
import { RUN_TS } from "./support/run-ts";
import { AFTER, BEFORE } from "./support/runs";

const ROOT = path.join(__dirname, "..");
const CLI = path.join(ROOT, "src", "cli.ts");

/** The first `rows` rows of the sample data, as a file to score. */
function sampleInput(dir: string, rows = 4): string {
  const lines = readFileSync(path.join(ROOT, "data", "qa-models.csv"), "utf8").split("\n");
  const file = path.join(dir, "in.csv");
  writeFileSync(file, `${lines.slice(0, rows + 1).join("\n")}\n`);
  return file;
}

/** Temporary files an atomic write may leave: `<name>.<pid>.<hex>.tmp`. */
function tempFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => /\.\d+\.[0-9a-f]+\.tmp$/.test(name));
}

/** Makes a FIFO (mkfifo) at `file`. */
function fifo(file: string): string {
  execFileSync("mkfifo", [file]);
  return file;
}

/**
 * Starts `cat` copying `from` into `to` (one side of a FIFO); resolves when
 * it is done, rejects when the other side is never opened (within 20 s).
 */
function cat(from: string, to: string): Promise<void> {
  const child = spawn("sh", ["-c", 'exec cat "$0" > "$1"', from, to], { stdio: "ignore" });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`nothing opened the other side of the FIFO (cat ${from} > ${to})`));
    }, 20_000);
    child.on("error", reject).on("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Runs the command line in a child process, with the offline judge: for
 * /dev/stdin and /dev/stdout, which belong to a process, and for reading a
 * FIFO (a reader that waits for a second writer forever is killed after
 * 60 s: exit code null).
 */
function runChild(args: readonly string[], stdin?: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [...RUN_TS, CLI, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, EVALFRAME_JUDGE: "offline", ...env } });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => void (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => void (err += d.toString()));
  child.stdin.end(stdin ?? "");
  const timer = setTimeout(() => child.kill(), 60_000);
  return new Promise((resolve, reject) =>
    child.on("error", reject).on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    }),
  );
}

/**
 * Before anything is written to a device: the writer must write it in place.
 * (The old writer renamed a temporary file over the path: as root, over the
 * device node itself. This guard fails such a test before it writes.)
 */
function assertWrittenInPlace(file: string): void {
  assert.notEqual(writeTarget(file).how, "replace", `${file} would be replaced`);
}

describe("outputs that are inputs or each other", () => {
  const dir = tempDir();
  let scored = "";
  let previous = "";
  before(async () => {
    scored = path.join(dir, "scored.csv");
    previous = path.join(dir, "previous.csv");
    await toCSV(AFTER, scored);
    await toCSV(BEFORE, previous);
  });

  it("report --out the scored table is refused (exit 2) naming --out, the input and the path; the table is kept", async () => {
    const text = readFileSync(scored, "utf8");
    const r = await run(["report", scored, "--out", scored]);
    assert.equal(r.code, 2);
    assert.equal(r.err, `evalframe: report: --out and the scored table are the same file "${scored}"; writing --out would overwrite it: give --out another path (see evalframe report --help)\n`);
    assert.equal(readFileSync(scored, "utf8"), text);
  });

  it("report --out the --previous run is refused too", async () => {
    const r = await run(["report", scored, "--previous", previous, "--out", previous]);
    assert.equal(r.code, 2);
    assert.match(r.err, /--out and --previous are the same file/);
  });

  it("diff --out the earlier run is refused; the run is kept", async () => {
    const text = readFileSync(previous, "utf8");
    const r = await run(["diff", previous, scored, "--out", previous]);
    assert.equal(r.code, 2);
    assert.match(r.err, /^evalframe: diff: --out and the earlier run \(first file\) are the same file ".*previous\.csv"; writing --out would overwrite it/);
    assert.equal(readFileSync(previous, "utf8"), text);
    const chart = await run(["diff", previous, scored, "--chart", path.join(dir, "c.json"), "--out", path.join(dir, "c.json")]);
    assert.equal(chart.code, 2);
    assert.match(chart.err, /--out and --chart are the same file/);
  });

  it("chart --out the scored table (a .json read with --format csv) is refused", async () => {
    const json = path.join(dir, "scored-as.json");
    writeFileSync(json, readFileSync(scored));
    const r = await run(["chart", json, "--format", "csv", "--kind", "box", "--out", json]);
    assert.equal(r.code, 2);
    assert.match(r.err, /chart: --out and the scored table are the same file/);
    assert.equal(readFileSync(json, "utf8"), readFileSync(scored, "utf8"));
  });

  it("score --summary-json or --statements-out over the input, or over --out, is refused before any scoring", async () => {
    const d = tempDir();
    const input = sampleInput(d);
    const text = readFileSync(input, "utf8");
    const out = path.join(d, "t.csv");
    const summary = await run(["score", input, "--out", out, "--summary-json", input, "--judge", "offline", "--no-progress"]);
    assert.equal(summary.code, 2);
    assert.match(summary.err, /score: --summary-json and the input file are the same file ".*in\.csv"/);
    assert.equal(readFileSync(input, "utf8"), text);
    assert.ok(!existsSync(out), "nothing was scored");
    const both = await run(["score", input, "--out", out, "--statements-out", out, "--judge", "offline", "--no-progress"]);
    assert.equal(both.code, 2);
    assert.match(both.err, /score: --out and --statements-out are the same file ".*t\.csv"; one would overwrite the other: give them different paths/);
    assert.ok(!existsSync(out));
  });

  it("sees one file under two names: a symbolic link, a hard link, a path through a linked folder", async () => {
    const link = path.join(dir, "link.csv");
    symlinkSync(scored, link);
    const hard = path.join(dir, "hard.csv");
    linkSync(scored, hard);
    for (const [input, out] of [[scored, link], [hard, scored]] as const) {
      const r = await run(["report", input, "--out", out]);
      assert.equal(r.code, 2, `${input} / ${out}`);
      assert.match(r.err, /--out and the scored table are the same file \(".*" and ".*"\)/);
    }
    // Two outputs not made yet, one named through a link to their folder.
    const folder = path.join(dir, "runs");
    mkdirSync(folder);
    symlinkSync(folder, path.join(dir, "latest"));
    const r = await run(["diff", previous, scored, "--out", path.join(folder, "x.json"), "--chart", path.join(dir, "latest", "x.json")]);
    assert.equal(r.code, 2);
    assert.match(r.err, /--out and --chart are the same file/);
  });

  it("score --out the input itself is refused before anything is read or written, by any name (relative, through a link); the input is kept", async () => {
    const d = tempDir();
    const input = sampleInput(d);
    const text = readFileSync(input, "utf8");
    const r = await run(["score", input, "--out", input, "--where", "model=atlas-pro", "--judge", "offline", "--no-progress"]);
    assert.equal(r.code, 2);
    assert.equal(r.err, `evalframe: score: --out and the input file are the same file "${input}"; writing --out would overwrite it: give --out another path (see evalframe score --help)\n`);
    const link = path.join(d, "link.csv");
    symlinkSync(input, link);
    for (const out of [path.relative(process.cwd(), input), link]) {
      const other = await run(["score", input, "--out", out, "--judge", "offline", "--no-progress"]);
      assert.equal(other.code, 2, out);
      assert.match(other.err, /^evalframe: score: --out and the input file are the same file \(".*" and ".*"\); writing --out would overwrite it/);
    }
    assert.equal(readFileSync(input, "utf8"), text, "the input is as it was");
    assert.deepEqual(tempFiles(d), []);
  });

  it("an output named \"-\" is refused (exit 2): stdout is not supported, a path is asked for, and no file \"-\" is made", async () => {
    const d = tempDir();
    const input = sampleInput(d);
    const home = process.cwd();
    process.chdir(d);
    try {
      const r = await run(["score", input, "--out", "-", "--judge", "offline", "--no-progress"]);
      assert.equal(r.code, 2);
      assert.equal(r.err, `evalframe: score: --out "-": writing to stdout is not supported (the command prints its summary there); give a file path, e.g. --out scored.csv (for a file named "-", write ./-) (see evalframe score --help)\n`);
      for (const args of [["report", scored, "--out", "-"], ["diff", previous, scored, "--out", "-"], ["score", input, "--out", "s.csv", "--summary-json", "-", "--judge", "offline"]]) {
        const other = await run(args);
        assert.equal(other.code, 2, args.join(" "));
        assert.match(other.err, /"-": writing to stdout is not supported .*; give a file path/);
      }
      // A chart's name must end in .png, .svg or .json: "-" is refused for that already.
      assert.equal((await run(["chart", scored, "--kind", "box", "--out", "-"])).code, 2);
      assert.ok(!existsSync(path.join(d, "-")));
    } finally {
      process.chdir(home);
    }
  });

  it("writing /dev/null twice is no conflict", async () => {
    assertWrittenInPlace("/dev/null");
    const r = await run(["diff", previous, scored, "--out", "/dev/null", "--chart", path.join(dir, "null.json")]);
    assert.equal(r.code, 0, r.err);
    assert.ok(statSync("/dev/null").isCharacterDevice());
  });
});

describe("output paths checked up front", () => {
  const dir = tempDir();
  let scored = "";
  let previous = "";
  before(async () => {
    scored = path.join(dir, "scored.csv");
    previous = path.join(dir, "previous.csv");
    await toCSV(AFTER, scored);
    await toCSV(BEFORE, previous);
  });

  it("a folder given as --out: exit 2, naming the option and the path and what to give", async () => {
    const folder = path.join(dir, "somedir");
    mkdirSync(folder);
    const r = await run(["report", scored, "--out", folder]);
    assert.equal(r.code, 2);
    assert.equal(r.err, `evalframe: report: --out: cannot write "${folder}": it is a folder; name a file in it, e.g. "${path.join(folder, "report.html")}" (see evalframe report --help)\n`);
  });

  it("an output path ending in \"/\" (a folder not made yet) is refused (exit 2) before any work, and neither a file nor a folder is made", async () => {
    const input = sampleInput(dir);
    const folder = path.join(dir, "results");
    const r = await run(["score", input, "--judge", "offline", "--out", `${folder}/`, "--no-progress"]);
    assert.equal(r.code, 2);
    assert.equal(r.err, `evalframe: score: --out: cannot write "${folder}/": it ends with "/", so it names a folder, not a file; name a file in it, e.g. "${path.join(folder, "scored.csv")}" (see evalframe score --help)\n`);
    assert.equal(r.out, "", "nothing was scored");
    assert.ok(!existsSync(folder), "no file named like the folder is written");
    const report = await run(["report", scored, "--out", `${folder}/`]);
    assert.equal(report.code, 2);
    assert.match(report.err, /report: --out: cannot write ".*results\/": it ends with "\/", so it names a folder, not a file; name a file in it, e\.g\. ".*results\/report\.html"/);
    const d = await run(["diff", previous, scored, "--out", `${folder}/`]);
    assert.equal(d.code, 2);
    assert.ok(!existsSync(folder));
  });

  it("a CSV output named as another format (.jsonl, .json, .tsv) is refused before any work, naming the .csv to give", async () => {
    const input = sampleInput(dir);
    const jsonl = path.join(dir, "scored.jsonl");
    const r = await run(["score", input, "--judge", "offline", "--out", jsonl, "--no-progress"]);
    assert.equal(r.code, 2);
    assert.equal(r.err, `evalframe: score: --out "${jsonl}" is named as JSON Lines, and evalframe writes it as CSV: name it "${path.join(dir, "scored.csv")}" (see evalframe score --help)\n`);
    assert.ok(!existsSync(jsonl));
    const st = await run(["score", input, "--judge", "offline", "--out", path.join(dir, "ok.csv"), "--statements-out", path.join(dir, "st.JSON"), "--no-progress"]);
    assert.equal(st.code, 2);
    assert.match(st.err, /--statements-out ".*st\.JSON" is named as JSON, and evalframe writes it as CSV: name it ".*st\.csv"/);
    assert.ok(!existsSync(path.join(dir, "ok.csv")), "nothing was scored");
    const d = await run(["diff", previous, scored, "--out", path.join(dir, "changes.tsv")]);
    assert.equal(d.code, 2);
    assert.match(d.err, /diff: --out ".*changes\.tsv" is named as TSV/);
    // A name without an extension, or a device, is still written as CSV.
    const plain = await run(["score", input, "--judge", "offline", "--out", path.join(dir, "scored"), "--no-progress"]);
    assert.equal(plain.code, 0, plain.err);
  });

  it("a path through a file: exit 2, naming the file that is not a folder", async () => {
    const r = await run(["report", scored, "--out", path.join(scored, "sub", "x.html")]);
    assert.equal(r.code, 2);
    assert.equal(r.err, `evalframe: report: --out: cannot write "${path.join(scored, "sub", "x.html")}": "${scored}" is a file, not a folder; give a path inside a folder (see evalframe report --help)\n`);
  });

  it("score: a bad --summary-json is found before any scoring, and nothing is left behind", async () => {
    const d = tempDir();
    const input = sampleInput(d);
    const file = path.join(d, "file.txt");
    writeFileSync(file, "x");
    const out = path.join(d, "t.csv");
    const r = await run(["score", input, "--out", out, "--summary-json", path.join(file, "s.json"), "--judge", "offline", "--no-progress"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /^evalframe: score: --summary-json: cannot write ".*file\.txt\/s\.json": ".*file\.txt" is a file, not a folder/);
    assert.equal(r.out, "", "nothing scored or printed");
    assert.deepEqual(readdirSync(d).sort(), ["file.txt", "in.csv"]);
  });

  it("score: a bad --statements-out leaves no temporary file of --out", async () => {
    const d = tempDir();
    const input = sampleInput(d);
    const r = await run(["score", input, "--out", path.join(d, "t.csv"), "--statements-out", path.join(input, "st.csv"), "--judge", "offline", "--no-progress"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /score: --statements-out: cannot write/);
    assert.doesNotMatch(r.err, /\.tmp/);
    assert.deepEqual(readdirSync(d), ["in.csv"]);
  });

  it("a folder that does not exist yet is made", async () => {
    const out = path.join(dir, "new", "deeper", "report.html");
    const r = await run(["report", scored, "--out", out]);
    assert.equal(r.code, 0, r.err);
    assert.ok(statSync(out).isFile());
  });

  it("a folder this user cannot write: exit 2 (skipped as root, who writes anywhere)", { skip: process.getuid?.() === 0 && "root" }, async () => {
    const ro = path.join(dir, "ro");
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    const r = await run(["report", scored, "--out", path.join(ro, "r.html")]);
    chmodSync(ro, 0o755);
    assert.equal(r.code, 2);
    assert.match(r.err, /--out: cannot write ".*ro\/r\.html": the folder ".*ro" is not writable/);
  });
});

describe("the atomic writer and files that are not regular files", () => {
  it("follows a symbolic link: the target is written atomically, the link stays", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "runs"));
    const target = path.join(dir, "runs", "0412.csv");
    writeFileSync(target, "old\n");
    const link = path.join(dir, "latest.csv");
    symlinkSync(path.join("runs", "0412.csv"), link);
    await writeFileAtomic(link, "new\n");
    assert.ok(lstatSync(link).isSymbolicLink(), "the link is still a link");
    assert.equal(readFileSync(target, "utf8"), "new\n");
    // A link to nothing yet: the file is made where it points.
    const dangling = path.join(dir, "next.csv");
    symlinkSync(path.join("runs", "0413.csv"), dangling);
    const out = await AtomicFileWriter.open(dangling);
    await out.write("a\n");
    await out.commit();
    assert.ok(lstatSync(dangling).isSymbolicLink());
    assert.equal(readFileSync(path.join(dir, "runs", "0413.csv"), "utf8"), "a\n");
    assert.deepEqual(tempFiles(dir), []);
    assert.deepEqual(tempFiles(path.join(dir, "runs")), []);
  });

  it("writes a FIFO in place: the reader gets the bytes and the FIFO stays", async () => {
    const dir = tempDir();
    const pipe = fifo(path.join(dir, "pipe"));
    const copy = path.join(dir, "copy.txt");
    const reading = cat(pipe, copy);
    await writeFileAtomic(pipe, "through the pipe\n");
    await reading;
    assert.equal(readFileSync(copy, "utf8"), "through the pipe\n");
    assert.ok(lstatSync(pipe).isFIFO(), "still a FIFO");
    assert.deepEqual(readdirSync(dir).sort(), ["copy.txt", "pipe"]);
  });

  it("writes /dev/null in place, and it stays a device", async () => {
    assertWrittenInPlace("/dev/null");
    await writeFileAtomic("/dev/null", "nothing");
    const out = await AtomicFileWriter.open("/dev/null");
    await out.write("nothing");
    await out.commit();
    assert.ok(statSync("/dev/null").isCharacterDevice());
  });

  it("a failed write leaves no temporary file and names the target, not the temporary file", async () => {
    const dir = tempDir();
    const taken = path.join(dir, "taken");
    mkdirSync(taken);
    const error = await writeFileAtomic(taken, "new").then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    assert.ok(error instanceof Error);
    assert.doesNotMatch(error.message, /\.tmp/);
    assert.deepEqual(readdirSync(dir), ["taken"]);
  });

  it("a writer opened and left when opening another fails leaves nothing behind", async () => {
    const dir = tempDir();
    const file = path.join(dir, "file.txt");
    writeFileSync(file, "x");
    const first = await AtomicFileWriter.open(path.join(dir, "scored.csv"));
    await assert.rejects(AtomicFileWriter.open(path.join(file, "st.csv")));
    assert.deepEqual(readdirSync(dir), ["file.txt"], "no temporary file of the first");
    await first.abort();
  });
});

describe("the command line writes devices and reads pipes", () => {
  it("report --out a FIFO writes into it; --out /dev/null exits 0", async () => {
    const dir = tempDir();
    const scored = path.join(dir, "scored.csv");
    await toCSV(AFTER, scored);
    const pipe = fifo(path.join(dir, "page"));
    const copy = path.join(dir, "copy.html");
    const reading = cat(pipe, copy);
    const r = await run(["report", scored, "--out", pipe]);
    await reading;
    assert.equal(r.code, 0, r.err);
    assert.match(readFileSync(copy, "utf8"), /^<!doctype html>/i);
    assert.ok(lstatSync(pipe).isFIFO());
    assertWrittenInPlace("/dev/null");
    assert.equal((await run(["report", scored, "--out", "/dev/null"])).code, 0);
    assert.ok(statSync("/dev/null").isCharacterDevice());
  });

  it("score reads its input from a FIFO (read twice, from a private copy that is removed)", async () => {
    const dir = tempDir();
    const input = sampleInput(dir);
    const pipe = fifo(path.join(dir, "in.pipe"));
    // The command's own temporary folder (TMPDIR): other processes' copies in the shared one come and go meanwhile.
    const privateTmp = tempDir();
    const copies = () => readdirSync(privateTmp).filter((name) => name.startsWith("evalframe-input-"));
    const writing = cat(input, pipe);
    const out = path.join(dir, "o.csv");
    const summary = path.join(dir, "s.json");
    const r = await runChild(["score", pipe, "--format", "csv", "--out", out, "--summary-json", summary, "--no-progress"], undefined, { TMPDIR: privateTmp });
    await writing;
    assert.equal(r.code, 0, r.err);
    assert.equal(readFileSync(out, "utf8").trim().split("\n").length, 5, "header and 4 rows");
    assert.equal((JSON.parse(readFileSync(summary, "utf8")) as { input: string }).input, pipe);
    assert.deepEqual(copies(), [], "the copy is removed");
  });

  it("score of a FIFO names the FIFO, not its copy, when the input is unusable", async () => {
    const dir = tempDir();
    const input = path.join(dir, "bad.csv");
    writeFileSync(input, "id,user_input\n1,q\n");
    const pipe = fifo(path.join(dir, "bad.pipe"));
    const writing = cat(input, pipe);
    const r = await runChild(["score", pipe, "--format", "csv", "--out", path.join(dir, "o.csv"), "--no-progress"]);
    await writing;
    assert.equal(r.code, 1);
    assert.match(r.err, new RegExp(`^evalframe: ${pipe.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: nothing to score`));
    assert.doesNotMatch(r.err, /evalframe-input-/);
  });

  it("score - reads standard input (with --format), naming it - in messages; the other commands refuse - with a usage error", async () => {
    const dir = tempDir();
    const text = readFileSync(sampleInput(dir), "utf8");
    const out = path.join(dir, "o.csv");
    const scored = await runChild(["score", "-", "--format", "csv", "--out", out, "--no-progress"], text);
    assert.equal(scored.code, 0, scored.err);
    assert.equal(readFileSync(out, "utf8").trim().split("\n").length, 5, "header and 4 rows");
    assert.deepEqual(readdirSync(dir).sort(), ["in.csv", "o.csv"], "no file named - is read or made");
    // A bad row is named in the input's words.
    const bad = await runChild(["score", "-", "--format", "csv", "--out", out, "--no-progress"], text.replace(/\n[^\n]*\n$/, "\nq99,x,y\n"));
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^evalframe: -, line 5: this record has 3 fields but the header has 6/m);
    assert.doesNotMatch(bad.err, /evalframe-input-/);
    const noFormat = await runChild(["score", "-", "--out", out], text);
    assert.equal(noFormat.code, 2);
    assert.match(noFormat.err, /^evalframe: score: - reads the input from standard input, which has no extension to tell its format: give --format csv, tsv, jsonl or json/);
    const summarize = await run(["summarize", "-", "--format", "csv"]);
    assert.equal(summarize.code, 2);
    assert.match(summarize.err, /^evalframe: summarize: "-" \(standard input\) is read by evalframe score only; summarize reads its file more than once: give the file's path/);
    const diff = await run(["diff", out, "-"]);
    assert.equal(diff.code, 2);
    assert.match(diff.err, /^evalframe: diff: "-" \(standard input\) is read by evalframe score only/);
  });

  it("score /dev/stdin reads a pipe, and --out /dev/stdout writes to the process's stdout", async () => {
    const dir = tempDir();
    const input = readFileSync(sampleInput(dir), "utf8");
    const out = path.join(dir, "o.csv");
    const scored = await runChild(["score", "/dev/stdin", "--format", "csv", "--out", out, "--no-progress"], input);
    assert.equal(scored.code, 0, scored.err);
    assert.equal(readFileSync(out, "utf8").trim().split("\n").length, 5);
    assertWrittenInPlace("/dev/stdout");
    const printed = await runChild(["report", out, "--out", "/dev/stdout"]);
    assert.equal(printed.code, 0, printed.err);
    assert.match(printed.out, /^<!doctype html>[\s\S]*<\/html>\s*wrote \/dev\/stdout/i);
    assert.ok(lstatSync("/dev/stdout").isSymbolicLink(), "/dev/stdout is still a link");
  });
});

describe("report --previous that cannot be compared", () => {
  const dir = tempDir();
  let scored = "";
  before(async () => {
    scored = path.join(dir, "scored.csv");
    await toCSV(AFTER, scored);
  });

  it("no shared answer: the report is written, and stderr says why", async () => {
    const unrelated = path.join(dir, "unrelated.csv");
    await toCSV(BEFORE.map((r) => ({ ...r, id: `x${r.id}` })), unrelated);
    const out = path.join(dir, "r.html");
    const r = await run(["report", scored, "--previous", unrelated, "--out", out]);
    assert.equal(r.code, 0, r.err);
    assert.match(readFileSync(out, "utf8"), /Not computed/);
    assert.match(r.err, /^evalframe: warning: --previous: cannot compare answer_correctness of ".*unrelated\.csv" with this run, so the report shows "Not computed": .*the runs share no answer to pair/m);
  });

  it("an answer twice: the same", async () => {
    const twice = path.join(dir, "twice.csv");
    await toCSV([...BEFORE, BEFORE[0]!], twice);
    const r = await run(["report", scored, "--previous", twice, "--out", path.join(dir, "r2.html")]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /^evalframe: warning: --previous: .*appears twice/m);
  });

  it("no score column in common: the same", async () => {
    const bare = path.join(dir, "bare.csv");
    await toCSV(BEFORE.map(({ id, model, user_input, response }) => ({ id, model, user_input, response })), bare);
    const r = await run(["report", scored, "--previous", bare, "--out", path.join(dir, "r3.html")]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /^evalframe: warning: --previous: ".*bare\.csv" has none of this run's score columns \(answer_correctness\)/m);
  });

  it("runs that can be compared: no warning", async () => {
    const earlier = path.join(dir, "before.csv");
    await toCSV(BEFORE, earlier);
    const r = await run(["report", scored, "--previous", earlier, "--out", path.join(dir, "r4.html")]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, "");
  });
});
