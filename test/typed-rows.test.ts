/**
 * Rows typed by the user's own interface: `interface Row { … }` has no index
 * signature, so an API typed for `Record<string, unknown>[]` refuses `Row[]`
 * at compile time though it reads it fine at run time. This file type-checks
 * a user's code with the TypeScript compiler (strict, as the project is, and
 * with exactOptionalPropertyTypes, as `tsc --init` sets it) and runs the same
 * calls.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import ts from "typescript";
import { compareModels, frameRecords, loadDataset, scoreAnswerCorrectness, summarize, toDataFrame, createJudge } from "../src/index";

const ROOT = path.join(__dirname, "..");

/** A user's file, written in the test folder so that "../src/index" resolves. */
const USER_CODE = `
import { compareModels, createJudge, estimate, answerCorrectness, loadDataset, notebookProgress, scoreAnswerCorrectness, summarize, toCSV, toDataFrame, frameRecords } from "../src/index";

interface Row { id: string; model: string; question: string; answer: string; reference: string }
interface Scored { id: string; model: string; answer_correctness: number }

export async function run(rows: Row[], scores: readonly Scored[]): Promise<number> {
  const judge = createJudge({ judge: "offline" });
  const df = await loadDataset(rows);
  // notebookProgress() is undefined outside a notebook: taken as the default under exactOptionalPropertyTypes too.
  const scored = await scoreAnswerCorrectness(rows, { judge, progress: notebookProgress() });
  await estimate(rows, [answerCorrectness()], { judge });
  toDataFrame(rows);
  await toCSV(scores, "scores.csv");
  compareModels(scores);
  return summarize(scores, { by: "model" }).shape[0]! + df.shape[0]! + frameRecords(scored).length;
}
`;

/** The type errors of USER_CODE under the project's compiler options. */
function typeErrors(): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const file = path.join(ROOT, "test", "__typed-rows-user.ts");
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => (path.resolve(name) === file ? USER_CODE : readFile(name));
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  // As strict as `tsc --init` makes a new project (exactOptionalPropertyTypes on); only the user's file is checked.
  const program = ts.createProgram({ rootNames: [file], options: { ...config.options, noEmit: true, rootDir: ROOT, exactOptionalPropertyTypes: true }, host });
  const source = program.getSourceFile(file)!;
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]!);
}

describe("rows typed by an interface of the user's own", () => {
  it("type-check in every function that takes row objects (an interface has no index signature), under tsc --init's strict options, progress: notebookProgress() too", () => {
    assert.deepEqual(typeErrors(), []);
  });

  it("and are read as row objects are", async () => {
    interface Row { id: string; model: string; question: string; answer: string; reference: string }
    const rows: Row[] = [
      { id: "q1", model: "a", question: "Who discovered penicillin?", answer: "Alexander Fleming.", reference: "Alexander Fleming discovered penicillin." },
      { id: "q1", model: "b", question: "Who discovered penicillin?", answer: "Louis Pasteur.", reference: "Alexander Fleming discovered penicillin." },
    ];
    assert.deepEqual(toDataFrame(rows).columns, ["id", "model", "question", "answer", "reference"]);
    assert.deepEqual((await loadDataset(rows)).columns, ["id", "model", "user_input", "response", "reference"]);
    const scored = await scoreAnswerCorrectness(rows, { judge: createJudge({ judge: "offline", quiet: true }), progress: false, quiet: true });
    const scores = frameRecords(scored).map((r) => ({ id: String(r["id"]), model: String(r["model"]), answer_correctness: Number(r["answer_correctness"]) }));
    assert.ok(scores[0]!.answer_correctness > scores[1]!.answer_correctness);
    assert.equal(summarize(scores, { by: "model" }).shape[0], 2);
    assert.equal(compareModels(scores).shape[0], 1);
  });
});
