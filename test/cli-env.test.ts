/**
 * Environment variables a user meant for evalframe but misnamed
 * (`EVALFRAME_MODLE`, other tools' `OPENAI_API_BASE` / `OPENAI_KEY`): `score`
 * and `config` name each on stderr with the variable to use, never its
 * value, instead of silently taking the default (the offline judge, or
 * api.openai.com with the user's key). A key in the environment given to
 * runCli is redacted from its errors, as one in the process's is, and the
 * offline judge's notice goes to runCli's stderr writer.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCliCaptured as run } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { writeSampleHead } from "./support/sample";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const KEY = "kq93jf02mdk38fj20dk48fj3";
const VALUE = "llama-meant-for-the-judge";

/** The lines of a stream's text that are warnings. */
function warnings(text: string): string[] {
  return text.split("\n").filter((l) => l.startsWith("evalframe: warning:"));
}

describe("misnamed environment variables", () => {
  const dir = tempDir();
  const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));

  it("config names an EVALFRAME_* variable it does not read, with the one meant, and not its value", async () => {
    const r = await run(["config"], { EVALFRAME_MODLE: VALUE, EVALFRAME_APIKEY: KEY, evalframe_cache_dir: "/tmp/x" });
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(warnings(r.err), [
      "evalframe: warning: EVALFRAME_APIKEY is set, but evalframe reads no such variable (did you mean EVALFRAME_API_KEY?); " +
        "EVALFRAME_MODLE is set, but evalframe reads no such variable (did you mean EVALFRAME_MODEL?); " +
        "evalframe_cache_dir is set, but variable names are read in capitals: EVALFRAME_CACHE_DIR",
    ]);
    assert.match(r.out, /^model\s+gpt-4o-mini\s+default$/m, "the table still shows what is used");
    assert.doesNotMatch(r.out + r.err, new RegExp(`${VALUE}|${KEY}`), "values are never shown");
    // Well-named variables give no warning.
    const clean = await run(["config"], { EVALFRAME_MODEL: VALUE, EVALFRAME_DEBUG: "0" });
    assert.equal(clean.code, 0);
    assert.deepEqual(warnings(clean.err), []);
  });

  it("score --judge openai without a key names the other tool's key variable that is set", async () => {
    const input = writeSampleHead(dir, 1);
    const r = await run(["score", input, "--out", `${dir}/never.csv`, "--judge", "openai"], { OPENAI_KEY: KEY });
    assert.equal(r.code, 2);
    assert.match(r.err, /needs OPENAI_API_KEY or EVALFRAME_API_KEY in the environment .*; OPENAI_KEY is set, but evalframe reads the key from EVALFRAME_API_KEY or OPENAI_API_KEY, which are not set/);
    assert.doesNotMatch(r.out + r.err, new RegExp(KEY));
  });

  it("a dry run with OPENAI_API_BASE says the key would go to api.openai.com instead, before anything is read", async () => {
    const input = writeSampleHead(dir, 1, "dry.csv");
    const r = await run(["score", input, "--dry-run"], { OPENAI_API_KEY: KEY, OPENAI_API_BASE: url() });
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(warnings(r.err), ["evalframe: warning: OPENAI_API_BASE is set, but evalframe reads the server from EVALFRAME_BASE_URL or OPENAI_BASE_URL, which are not set"]);
    assert.match(r.out, /with gpt-4o-mini @ api\.openai\.com/);
    assert.doesNotMatch(r.out + r.err, new RegExp(KEY));
    // Once the variable evalframe reads is set, the other tool's name is its own business.
    const set = await run(["score", input, "--dry-run"], { OPENAI_API_KEY: KEY, OPENAI_API_BASE: url(), OPENAI_BASE_URL: url() });
    assert.deepEqual(warnings(set.err), []);
    // Nor when the server is given by --base-url (and the model by --model): the flag wins over any variable.
    const flagged = await run(["score", input, "--dry-run", "--base-url", url(), "--model", "m"], { OPENAI_API_KEY: KEY, OPENAI_API_BASE: url(), OPENAI_MODEL: "x" });
    assert.equal(flagged.code, 0, flagged.err);
    assert.deepEqual(warnings(flagged.err), []);
    // And an offline judge chosen by name reads no server at all.
    const offline = await run(["score", input, "--dry-run", "--judge", "offline"], { OPENAI_API_BASE: url() });
    assert.deepEqual(warnings(offline.err), []);
  });

  it("a real run warns on stderr and scores with what it does read", async () => {
    const input = writeSampleHead(dir, 2, "real.csv");
    server.reset();
    const r = await run(["score", input, "--out", `${dir}/scored.csv`, "--no-progress", "--no-cache"], { OPENAI_BASE_URL: url(), EVALFRAME_MODLE: VALUE });
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(warnings(r.err), ["evalframe: warning: EVALFRAME_MODLE is set, but evalframe reads no such variable (did you mean EVALFRAME_MODEL?)"]);
    const models = new Set(server.requests.filter((q) => q.path.endsWith("/chat/completions")).map((q) => q.body.model as string));
    assert.deepEqual([...models], ["gpt-4o-mini"], "the warning tells the truth: the misnamed model was not used");
    assert.doesNotMatch(r.out + r.err, new RegExp(VALUE));
  });

  it("runCli's own environment: a key pasted into another variable is redacted from the error, as it is from the process's", async () => {
    assert.equal(process.env["EVALFRAME_API_KEY"], undefined, "the key is only in the environment given to runCli");
    const r = await run(["config"], { EVALFRAME_API_KEY: KEY, EVALFRAME_CONCURRENCY: KEY });
    assert.equal(r.code, 2);
    assert.match(r.err, /^evalframe: EVALFRAME_CONCURRENCY must be a whole number .*got "\[redacted\]"/);
    assert.doesNotMatch(r.out + r.err, new RegExp(KEY));
  });

  it("the notice that no key or server is set goes to runCli's stderr, on every run, not to the process's", async () => {
    const input = writeSampleHead(dir, 1, "notice.csv");
    const NOTICE = /^evalframe: no OPENAI_API_KEY or OPENAI_BASE_URL is set .*offline judge/m;
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    let first, second;
    try {
      first = await run(["score", input, "--out", `${dir}/n1.csv`, "--no-progress"], {});
      second = await run(["score", input, "--dry-run"], {});
    } finally {
      process.stderr.write = write;
    }
    assert.equal(first.code, 0, first.err);
    assert.match(first.err, NOTICE);
    assert.match(second.err, NOTICE, "a second run in the same process says it too");
    assert.doesNotMatch(written.join(""), NOTICE, "nothing bypasses the writers runCli was given");
  });
});

