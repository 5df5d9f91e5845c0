/**
 * The labels judge: hand labels (docs/labelling.md) replayed through the real
 * scoring API, label files checked on load with errors naming file, line and
 * field, and `evalframe score --judge labels` in-process. Every label file is
 * a real file in a temporary folder.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { createJudge, loadDataset, readLabels, scoreAnswerCorrectness, scoreMultimodalRelevance, scoreRun } from "../src/index";
import { LABELS_JUDGE_LABEL } from "../src/judge/labels-judge";
import { OfflineJudge } from "../src/judge/offline-judge";
import { LabelFileError, type LabelLine } from "../src/labels/types";
import { parseDetails } from "../src/metrics/answer-correctness/details";
import { cosineSimilarity, fbeta } from "../src/metrics/math";
import { runCliCaptured } from "./support/cli";
import { records } from "./support/frames";
import { tempDir, writeText } from "./support/files";

const Q1 = "What is the boiling point of water at sea level?";
const R1 = "At sea level, water boils at 100 degrees Celsius, which is 212 degrees Fahrenheit.";
const Q2 = "Who discovered penicillin, and when?";
const R2 = "Alexander Fleming discovered penicillin in 1928.";
const Q3 = "What is the capital of Australia?";

const R1_STATEMENTS = ["At sea level, water boils at 100 degrees Celsius.", "100 degrees Celsius is equal to 212 degrees Fahrenheit."];
const R2_STATEMENTS = ["Alexander Fleming discovered penicillin.", "Alexander Fleming discovered penicillin in 1928."];

const ref = (statements: string[], verdicts: ("covered" | "FN")[]) => statements.map((statement, i) => ({ statement, verdict: verdicts[i]!, reason: `reference ${i + 1}: ${verdicts[i]}` }));

/** Four labelled rows: counts (TP, FP, FN) = (1,1,1), (2,0,0), (1,1,1), (0,0,2). */
const AC_LABELS: LabelLine[] = [
  {
    id: "q1", model: "swift", user_input: Q1, response: "Water boils at 100 °C. That is 180 °F.", reference: R1,
    response_statements: [
      { statement: "Water boils at 100 °C.", verdict: "TP", reason: "the reference gives 100 degrees Celsius" },
      { statement: "Water boils at 180 °F.", verdict: "FP", reason: "the reference says 212 degrees Fahrenheit" },
    ],
    reference_statements: ref(R1_STATEMENTS, ["covered", "FN"]),
  },
  {
    id: "q1", model: "atlas", user_input: Q1, response: "At sea level water boils at 100 degrees Celsius, or 212 degrees Fahrenheit.", reference: R1,
    response_statements: [
      { statement: "At sea level, water boils at 100 degrees Celsius.", verdict: "TP", reason: "same as reference 1" },
      { statement: "At sea level, water boils at 212 degrees Fahrenheit.", verdict: "TP", reason: "reference 2" },
    ],
    reference_statements: ref(R1_STATEMENTS, ["covered", "covered"]),
  },
  {
    id: "q2", model: "swift", user_input: Q2, response: "Penicillin was discovered by Alexander Fleming in 1929.", reference: R2,
    response_statements: [
      { statement: "Alexander Fleming discovered penicillin.", verdict: "TP", reason: "reference 1" },
      { statement: "Alexander Fleming discovered penicillin in 1929.", verdict: "FP", reason: "the reference says 1928" },
    ],
    reference_statements: ref(R2_STATEMENTS, ["covered", "FN"]),
  },
  { id: "q2", model: "atlas", user_input: Q2, response: "", reference: R2, response_statements: [], reference_statements: ref(R2_STATEMENTS, ["FN", "FN"]) },
];
const EXPECTED_COUNTS = [[1, 1, 1], [2, 0, 0], [1, 1, 1], [0, 0, 2]];

/** The labelled rows as a dataset, plus one row (q3) that has no label. */
const AC_ROWS = [
  ...AC_LABELS.map((l) => ({ id: l.id, model: l.model, user_input: l.user_input, response: l.response, reference: l.reference })),
  { id: "q3", model: "swift", user_input: Q3, response: "Sydney.", reference: "Canberra is the capital of Australia." },
];

const jsonl = (lines: readonly unknown[]) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
const quiet = { progress: false as const, quiet: true };

describe("labels judge: answer correctness", () => {
  const dir = tempDir();
  const labelFile = writeText(dir, "qa.labels.jsonl", jsonl(AC_LABELS));

  it("reproduces the label file's TP/FP/FN exactly through scoreAnswerCorrectness, with the offline judge's embeddings", async () => {
    const judge = createJudge({ judge: "labels", labels: labelFile });
    assert.equal(judge.kind, "labels");
    assert.equal(judge.label, "hand-labelled");
    const scored = await scoreAnswerCorrectness(AC_ROWS, { judge, ...quiet });
    const rows = records(scored);
    assert.equal(rows.length, 5);
    const offline = new OfflineJudge();
    for (const [i, [tp, fp, fn]] of EXPECTED_COUNTS.entries()) {
      const row = rows[i]!;
      assert.equal(row["answer_correctness_error"], "", `row ${i}: ${String(row["answer_correctness_error"])}`);
      assert.deepEqual([row["answer_correctness_tp"], row["answer_correctness_fp"], row["answer_correctness_fn"]], [tp, fp, fn], `row ${i}`);
      const factual = fbeta(tp!, fp!, fn!);
      assert.equal(row["answer_correctness_factual"], factual);
      const [reference, response] = await offline.embed([AC_LABELS[i]!.reference!, AC_LABELS[i]!.response || " "]);
      const semantic = cosineSimilarity(reference!, response!);
      assert.ok(Math.abs((row["answer_correctness_semantic"] as number) - semantic) < 1e-6);
      assert.ok(Math.abs((row["answer_correctness"] as number) - (0.75 * factual + 0.25 * semantic)) < 1e-6);
      assert.equal(row["answer_correctness_judge"], LABELS_JUDGE_LABEL);
      // The statements and verdicts are the label's, in the labelled order; so are the reasons when a
      // classification ran (with an empty response the metric needs none, and gives its own reason).
      const details = parseDetails(row["answer_correctness_statements"])!;
      assert.equal(details.judge, "hand-labelled");
      const withoutReason = (list: readonly { statement: string; verdict: string }[]) => list.map((v) => ({ statement: v.statement, verdict: v.verdict }));
      assert.deepEqual(withoutReason(details.response), withoutReason(AC_LABELS[i]!.response_statements!));
      assert.deepEqual(withoutReason(details.reference), withoutReason(AC_LABELS[i]!.reference_statements!));
      if (AC_LABELS[i]!.response !== "") {
        assert.deepEqual(details.response, AC_LABELS[i]!.response_statements);
        assert.deepEqual(details.reference, AC_LABELS[i]!.reference_statements);
      }
    }
    // F1 by hand: (1,1,1): p = r = 1/2 → 0.5; (2,0,0) → 1; (0,0,2) → 0.
    assert.deepEqual(rows.slice(0, 4).map((r) => r["answer_correctness_factual"]), [0.5, 1, 0.5, 0]);
    assert.deepEqual(scoreRun(scored)?.judges, ["hand-labelled"]);
    assert.equal(scoreRun(scored)?.usage.judge, "hand-labelled");
  });

  it("fails only the unlabelled row, with a reason that names its question and says to add a label line", async () => {
    const scored = await scoreAnswerCorrectness(AC_ROWS, { judge: { judge: "labels", labels: labelFile }, ...quiet });
    const rows = records(scored);
    assert.deepEqual(rows.slice(0, 4).map((r) => r["answer_correctness_error"]), ["", "", "", ""]);
    const failed = rows[4]!;
    assert.ok(Number.isNaN(failed["answer_correctness"]));
    const reason = String(failed["answer_correctness_error"]);
    assert.match(reason, /statement extraction of the (response|reference) failed: no hand label for the text "(Sydney\.|Canberra is the capital of Australia\.)" of question "What is the capital of Australia\?"/);
    assert.match(reason, /add a label line with this "user_input" and this text as its "response" \(or "reference"\), and its statements to .*qa\.labels\.jsonl/);
    assert.equal(failed["answer_correctness_judge"], "hand-labelled");
  });

  it("reads several files (array of paths) and label objects to the same scores", async () => {
    const first = writeText(dir, "part1.jsonl", jsonl(AC_LABELS.slice(0, 2)));
    const second = writeText(dir, "part2.jsonl", jsonl(AC_LABELS.slice(2)));
    const rows = AC_ROWS.slice(0, 4);
    const fromFile = records(await scoreAnswerCorrectness(rows, { judge: createJudge({ judge: "labels", labels: labelFile }), ...quiet }));
    const fromParts = records(await scoreAnswerCorrectness(rows, { judge: createJudge({ judge: "labels", labels: [first, second] }), ...quiet }));
    const fromObjects = records(await scoreAnswerCorrectness(rows, { judge: createJudge({ labels: AC_LABELS }), ...quiet })); // labels alone choose the labels judge
    const fromSet = records(await scoreAnswerCorrectness(rows, { judge: createJudge({ judge: "labels", labels: readLabels(labelFile) }), ...quiet }));
    assert.deepEqual(fromParts, fromFile);
    assert.deepEqual(fromObjects, fromFile);
    assert.deepEqual(fromSet, fromFile);
  });

  it("finds a row whose response matches its label's after CRLF and surrounding spaces are normalised", async () => {
    const row = { ...AC_ROWS[0]!, response: `  ${AC_LABELS[0]!.response}\r\n` };
    const [scored] = records(await scoreAnswerCorrectness([row], { judge: createJudge({ judge: "labels", labels: labelFile }), ...quiet }));
    assert.equal(scored!["answer_correctness_error"], "");
    assert.equal(scored!["answer_correctness_tp"], 1);
  });
});

describe("labels judge: multimodal relevance", () => {
  const dir = tempDir();
  const QUESTION = "What colour is the circle in the picture?";
  const CONTEXTS = ["The picture shows a red circle next to a blue square."];
  const labels = [
    { id: "m1", model: "swift", user_input: QUESTION, response: "The circle is red.", relevant: true, reason: "the context says a red circle" },
    { id: "m1", model: "atlas", user_input: QUESTION, response: "The circle is green.", relevant: false, reason: "the context says red, not green" },
  ];
  const rows = [
    ...labels.map((l) => ({ id: l.id, model: l.model, user_input: l.user_input, response: l.response, retrieved_contexts: JSON.stringify(CONTEXTS) })),
    { id: "m2", model: "swift", user_input: "How many sides does the square have?", response: "Four.", retrieved_contexts: JSON.stringify(CONTEXTS) },
  ];

  it("gives the labelled relevance and reason, and fails only the unlabelled row", async () => {
    const file = writeText(dir, "mm.labels.jsonl", jsonl(labels));
    const scored = records(await scoreMultimodalRelevance(rows, { judge: createJudge({ judge: "labels", labels: file }), ...quiet }));
    assert.deepEqual(scored.map((r) => r["multimodal_relevance"]).slice(0, 2), [1, 0]);
    assert.deepEqual(scored.map((r) => r["multimodal_relevance_reason"]).slice(0, 2), ["the context says a red circle", "the context says red, not green"]);
    assert.deepEqual(scored.map((r) => r["multimodal_relevance_error"]).slice(0, 2), ["", ""]);
    assert.deepEqual(scored.map((r) => r["multimodal_relevance_judge"]), ["hand-labelled", "hand-labelled", "hand-labelled"]);
    assert.ok(Number.isNaN(scored[2]!["multimodal_relevance"]));
    assert.match(
      String(scored[2]!["multimodal_relevance_error"]),
      /relevance judgement failed: no hand label for the response "Four\." to question "How many sides does the square have\?"; add a label line \{"id", "model", "user_input", "response", "relevant": true\|false, "reason"\} for this row to .*mm\.labels\.jsonl/,
    );
  });
});

describe("label files are checked on load", () => {
  const dir = tempDir();
  const good = AC_LABELS[0]!;

  /** The LabelFileError that loading `lines` (text or objects) gives, via createJudge. */
  function loadError(name: string, text: string): LabelFileError {
    const file = writeText(dir, name, text);
    try {
      createJudge({ judge: "labels", labels: file });
    } catch (error) {
      assert.ok(error instanceof LabelFileError, String(error));
      return error;
    }
    assert.fail("expected a LabelFileError");
  }

  it("names the file and line of malformed JSON", () => {
    const error = loadError("json.jsonl", `${JSON.stringify(good)}\n{"id": "q1", "model": \n`);
    assert.equal(error.problems.length, 1);
    assert.match(error.message, /^bad label: .*json\.jsonl, line 2: not valid JSON \(.*\); each line must be one JSON object$/);
  });

  it("names the field of a bad verdict, and says which verdicts are allowed", () => {
    const bad = { ...good, response_statements: [good.response_statements![0], { statement: "Water boils at 180 °F.", verdict: "tp" }] };
    const badReference = { ...AC_LABELS[1]!, reference_statements: [{ statement: R1_STATEMENTS[0], verdict: "TP" }, { statement: R1_STATEMENTS[1], verdict: "covered" }] };
    const error = loadError("verdict.jsonl", jsonl([bad, badReference]));
    assert.deepEqual(error.problems.map((p) => [path.basename(p.where), p.field]), [
      ["verdict.jsonl, line 1", "response_statements[1].verdict"],
      ["verdict.jsonl, line 2", "reference_statements[0].verdict"],
    ]);
    assert.match(error.message, /verdict\.jsonl, line 1, field response_statements\[1\]\.verdict: "tp" is not a verdict here; use "TP" or "FP"/);
    assert.match(error.message, /line 2, field reference_statements\[0\]\.verdict: "TP" is not a verdict here; use "covered" or "FN"/);
  });

  it("finds reference statements that differ between models of the same question", () => {
    const other = { ...AC_LABELS[1]!, reference_statements: ref([R1_STATEMENTS[0]!, "100 °C equals 212 °F."], ["covered", "covered"]) };
    const error = loadError("reference.jsonl", jsonl([good, other]));
    assert.equal(error.problems.length, 1);
    assert.equal(error.problems[0]!.field, "reference_statements");
    assert.match(error.message, /reference\.jsonl, line 2, field reference_statements: differ from those of question "q1" at .*reference\.jsonl, line 1 \(statement 2 is "100 degrees Celsius is equal to 212 degrees Fahrenheit\." there and "100 °C equals 212 °F\." here\)/);
  });

  it("finds a duplicate (id, model), across files too", () => {
    const first = writeText(dir, "dup-a.jsonl", jsonl([good]));
    const second = writeText(dir, "dup-b.jsonl", jsonl([AC_LABELS[2], { ...good, response: good.response }]));
    assert.throws(() => readLabels([first, second]), (error: unknown) => {
      assert.ok(error instanceof LabelFileError);
      assert.equal(error.problems.length, 1);
      assert.match(error.message, /dup-b\.jsonl, line 2, field id: a second label for \(id "q1", model "swift"\), already labelled at .*dup-a\.jsonl, line 1; keep one line per row/);
      return true;
    });
  });

  it("lists every problem of a file at once, each with its line and field", () => {
    const lines = [
      { ...good, user_input: "" },
      { id: "m1", model: "swift", user_input: "Q?", response: "A.", relevant: "yes" },
      { id: "x", model: "swift", user_input: "Q?", response: "A." },
      { ...AC_LABELS[3], response_statements: [{ statement: "Something.", verdict: "FP" }] },
    ];
    const error = loadError("many.jsonl", jsonl(lines));
    assert.deepEqual(error.problems.map((p) => [p.where.replace(/^.*many/, "many"), p.field]), [
      ["many.jsonl, line 1", "user_input"],
      ["many.jsonl, line 2", "relevant"],
      ["many.jsonl, line 3", ""],
      ["many.jsonl, line 4", "response_statements"],
    ]);
    assert.match(error.message, /^4 problems in the labels:/);
    assert.match(error.message, /line 2, field relevant: must be true or false, got the text "yes"/);
    assert.match(error.message, /line 3: neither response_statements and reference_statements .* nor relevant/);
    assert.match(error.message, /line 4, field response_statements: the response is empty, and an empty response has no statements/);
  });

  it("refuses the same text labelled two ways, since a judge's task carries only texts", () => {
    const split = { ...AC_LABELS[1]!, id: "q9", user_input: Q1, response: good.response, response_statements: [{ statement: "Water boils at 100 °C and 180 °F.", verdict: "FP" }] };
    const error = loadError("ambiguous.jsonl", jsonl([good, { ...split, reference_statements: good.reference_statements }]));
    assert.match(error.message, /line 2, field response_statements: the same text \(question .*\) is split into other statements at .*line 1 \(response_statements\); label the same text the same way/);
  });

  it("says what is wrong with a missing file, and with options that do not fit", () => {
    assert.throws(() => createJudge({ judge: "labels", labels: path.join(dir, "nope.jsonl") }), /nope\.jsonl: cannot read the label file \(no such file\)/);
    assert.throws(() => createJudge({ judge: "labels" }), /judge "labels" needs labels: a label file/);
    assert.throws(() => createJudge({ judge: "offline", labels: [good] }), /labels are replayed only by judge "labels", and judge is "offline"/);
  });
});

describe("evalframe score --judge labels", () => {
  const dir = tempDir();
  const input = writeText(dir, "rows.jsonl", jsonl(AC_ROWS.slice(0, 4)));
  const first = writeText(dir, "a.labels.jsonl", jsonl(AC_LABELS.slice(0, 2)));
  const second = writeText(dir, "b.labels.jsonl", jsonl(AC_LABELS.slice(2)));

  const run = runCliCaptured;

  it("scores with label files given as a comma-separated list or repeated, and writes the labelled counts", async () => {
    for (const [name, labelArgs] of [["comma", ["--labels", `${first},${second}`]], ["repeated", ["--labels", first, "--labels", second]]] as const) {
      const out = path.join(dir, `scored-${name}.csv`);
      const result = await run(["score", input, "--out", out, "--judge", "labels", ...labelArgs, "--no-progress"]);
      assert.equal(result.code, 0, result.err);
      assert.match(result.out, /answer_correctness: 0 of 4 rows failed/);
      assert.match(result.out, /hand-labelled/);
      const scored = records(await loadDataset(out));
      assert.deepEqual(scored.map((r) => [r["answer_correctness_tp"], r["answer_correctness_fp"], r["answer_correctness_fn"]]), EXPECTED_COUNTS);
      assert.deepEqual([...new Set(scored.map((r) => r["answer_correctness_judge"]))], ["hand-labelled"]);
    }
  });

  it("exits 2 for --judge labels without --labels (or --labels with another judge), and 1 with one line for a bad label file", async () => {
    const missing = await run(["score", input, "--out", path.join(dir, "x.csv"), "--judge", "labels"]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^evalframe: score: --judge labels needs --labels FILE .*\(see evalframe score --help\)\n$/);
    const mixed = await run(["score", input, "--out", path.join(dir, "x.csv"), "--judge", "offline", "--labels", first]);
    assert.equal(mixed.code, 2);
    assert.match(mixed.err, /--labels goes with --judge labels/);
    const bad = writeText(dir, "bad.labels.jsonl", `${JSON.stringify({ ...AC_LABELS[0], response_statements: [{ statement: "X.", verdict: "true" }] })}\n`);
    const failed = await run(["score", input, "--out", path.join(dir, "x.csv"), "--labels", bad]);
    assert.equal(failed.code, 1);
    assert.equal(failed.err.split("\n").filter(Boolean).length, 1);
    assert.match(failed.err, /bad\.labels\.jsonl, line 1, field response_statements\[0\]\.verdict: "true" is not a verdict here; use "TP" or "FP"/);
  });
});
