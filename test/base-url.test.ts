/**
 * Secrets in a base URL ([E] item 6): a query string works (its parameters
 * go on every request, after the endpoint's path) and its values never
 * appear in an error, a scored table or the CLI's output; a user name or
 * password in the URL is refused at start without echoing it; a URL of
 * another scheme is refused without echoing its password.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { createJudge, frameRecords, JudgeError, scoreAnswerCorrectness, toCSV } from "../src/index";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { echoChat, echoRequest } from "./support/requests";

const TOKEN = "gw-token-Zq81x7TT";
const PASSWORD = "pw-Hunter2-secret";

const { server, url } = useFakeOpenAI(() => ({ chat: echoChat }));

describe("base URL secrets", () => {
  it("sends the base URL's query on every request, after the path, with { query } added", async () => {
    const judge = createJudge({ judge: "openai", baseURL: `${url()}?api-version=2024-06-01&token=${TOKEN}`, query: { extra: "1" }, cache: false });
    const reply = await judge.complete(echoRequest("hi"));
    assert.equal(reply.answer, "echo: hi");
    const [request] = server.chatRequests();
    assert.equal(request!.path, "/v1/chat/completions");
    assert.deepEqual(request!.query, { "api-version": "2024-06-01", token: TOKEN, extra: "1" });
  });

  it("never shows a query value: not in the error, the scored row's reason or the CSV", async () => {
    server.options.fault = () => ({ kind: "status", status: 400, body: { error: { message: `bad request for token=${TOKEN}` } } });
    const judge = createJudge({ judge: "openai", baseURL: `${url()}?token=${TOKEN}`, cache: false, maxRetries: 0 });
    await assert.rejects(judge.complete(echoRequest("x")), (error: unknown) => {
      assert.ok(error instanceof JudgeError);
      assert.match(error.message, /HTTP 400 from http:\/\/127\.0\.0\.1:\d+\/v1/);
      assert.ok(!error.message.includes(TOKEN), error.message);
      return true;
    });
    const scored = await scoreAnswerCorrectness([{ user_input: "q", response: "An answer.", reference: "A reference." }], { judge, progress: false, quiet: true });
    const reason = String(frameRecords(scored)[0]!["answer_correctness_error"]);
    assert.match(reason, /HTTP 400/);
    const dir = tempDir();
    const file = path.join(dir, "scored.csv");
    await toCSV(scored, file);
    assert.ok(!readFileSync(file, "utf8").includes(TOKEN));
  });

  it("refuses user:password@ in the base URL at start, without echoing the password, and sends nothing", () => {
    const before = server.requests.length;
    const at = url().replace("http://", `http://judge:${PASSWORD}@`);
    assert.throws(
      () => createJudge({ judge: "openai", baseURL: at, cache: false }),
      (error: unknown) => {
        assert.ok(error instanceof RangeError);
        assert.match(error.message, /user name or password .* headers option/);
        assert.ok(!error.message.includes(PASSWORD), error.message);
        return true;
      },
    );
    assert.equal(server.requests.length, before);
  });

  it("says an ftp:// base URL is not http(s), without echoing its password (library and CLI)", async () => {
    assert.throws(
      () => createJudge({ judge: "openai", baseURL: `ftp://user:${PASSWORD}@files.example/v1`, apiKey: "sk-test-x1234567" }),
      (error: unknown) => error instanceof RangeError && /http\(s\) URL/.test(error.message) && !error.message.includes(PASSWORD),
    );
    const dir = tempDir();
    const input = path.join(dir, "in.csv");
    writeFileSync(input, "user_input,response,reference\nq,a,r\n");
    const run = await runCliCaptured(["score", input, "--out", path.join(dir, "out.csv"), "--base-url", `ftp://user:${PASSWORD}@files.example/v1?token=${TOKEN}`]);
    assert.notEqual(run.code, 0);
    assert.match(run.err, /http\(s\) URL/);
    assert.ok(!run.err.includes(PASSWORD) && !run.err.includes(TOKEN), run.err);
    assert.ok(!run.out.includes(PASSWORD) && !run.out.includes(TOKEN), run.out);
  });
});
