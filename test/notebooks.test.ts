import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { ensureTslabKernel, outputText, readCells, ROOT, runInKernel, runNotebook } from "./support/jupyter";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const NOTEBOOKS = path.join(ROOT, "notebooks");
mkdirSync(path.join(ROOT, ".test-notebooks"), { recursive: true });

/**
 * What each notebook must show when it runs (without a key: the bundled data
 * scored by its hand labels, the offline judge checked in 05); every notebook
 * must at least run.
 */
const EXPECTED_OUTPUT: Record<string, RegExp[]> = {
  "00-smoke.ipynb": [/rows: 126, columns: id, domain, model, user_input, response, reference/, /42 questions answered by 3 models: atlas-pro, chatter-xl, swift-mini/, /q01\s*│ atlas-pro/],
  "01-quickstart.ipynb": [
    /judge: hand-labelled/,
    /126 rows · 290 chat calls \(0 cached\) .*· hand-labelled/,
    /ci_low/,
    /wrote \.\.\/out\/quickstart-scored\.csv and read back 126 rows/,
    // The cost of a real judge, priced with no key: fewer calls in each cheaper layout.
    /ragas \(default\)<\/td><td[^>]*>290<\/td>[\s\S]*fused<\/td><td[^>]*>130<\/td>[\s\S]*fused, 8 answers a call<\/td><td[^>]*>22<\/td>/,
  ],
  "02-compare-models.ipynb": [/judge: hand-labelled/, /model_a[\s\S]*p_holm[\s\S]*verdict/, /atlas-pro_response/],
  "03-drill-down.ipynb": [/\d+ statements/, /judge: hand-labelled/, /precision = TP\/\(TP\+FP\)/, /recall first, β = 2/],
  "04-multimodal.ipynb": [/judge: hand-labelled/, /multimodal_relevance/, /30 of 30 rows judged/, /<img src="data:image\/png;base64,/],
  "05-calibrate.ipynb": [
    /126 rows · 290 chat calls \(0 cached\) .*· offline \(approximate\)/,
    /answer_correctness<\/td>(<td[^>]*>126<\/td>){2}/,
    /kappa[\s\S]*TP\/FP[\s\S]*covered\/FN/,
    /spearman[\s\S]*high_on_label_zero/,
    /n_pairs[\s\S]*ordered[\s\S]*reversed[\s\S]*share_ordered/,
    /judge_rank[\s\S]*label_rank/,
    /ranking agrees with the labels: true/,
    // The held-out set's test split: 540 answers the judge was not built on.
    /864 rows · [\d,]+ chat calls \(0 cached\) .*· offline \(approximate\)/,
    /factual<\/td><td[^>]*>answer_correctness_factual<\/td><td[^>]*>label_f1<\/td><td[^>]*>\(all\)<\/td><td[^>]*>540<\/td>/,
    /difference[\s\S]*statements/,
    /no OPENAI_API_KEY or OPENAI_BASE_URL is set: checking the offline judge only/,
    /human_score/,
  ],
};

/** Notebooks whose outputs must include charts (Vega-Lite with a PNG) and HTML tables. */
const SHOWCASE = ["01-quickstart.ipynb", "02-compare-models.ipynb", "03-drill-down.ipynb", "04-multimodal.ipynb"];

function richOutputs(cells: ReturnType<typeof readCells>): { charts: number; tables: number } {
  const data = cells.flatMap((c) => c.outputs ?? []).map((o) => o.data ?? {});
  return {
    charts: data.filter((d) => "application/vnd.vegalite.v5+json" in d && "image/png" in d).length,
    tables: data.filter((d) => {
      const html = d["text/html"];
      return (Array.isArray(html) ? html.join("") : String(html ?? "")).includes("<table");
    }).length,
  };
}

/**
 * A fresh folder for a test notebook inside the repository (git-ignored):
 * tslab type-checks cells, and a DataFrame's type must resolve danfojs-node
 * from the notebook's folder, as it does for a user's notebook in a project.
 */
function notebookDir(): string {
  const dir = mkdtempSync(path.join(ROOT, ".test-notebooks", "nb-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const dist = path.join(ROOT, "dist", "index");
const data = path.join(ROOT, "data", "qa-models.csv");

/** Writes a notebook of these code cells inside the repository, runs it, and returns its executed cells. */
function runCells(name: string, sources: string[]): ReturnType<typeof readCells> {
  const dir = notebookDir();
  const notebook = path.join(dir, `${name}.ipynb`);
  writeFileSync(notebook, notebookJson(sources));
  const run = runNotebook(notebook, path.join(dir, "out"));
  assert.equal(run.status, 0, run.stderr);
  return readCells(run.executed);
}

/** A tslab notebook with these code cells. */
function notebookJson(sources: string[]): string {
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: "tslab", display_name: "TypeScript", language: "typescript" } },
    cells: sources.map((source, i) => ({ id: `c${i}`, cell_type: "code", metadata: {}, execution_count: null, outputs: [], source })),
  });
}

const notebooks = readdirSync(NOTEBOOKS).filter((f) => f.endsWith(".ipynb")).sort();

describe("notebooks run top to bottom in Jupyter with the tslab kernel", () => {
  const out = tempDir();
  before(() => {
    assert.ok(existsSync(path.join(ROOT, "dist", "index.js")), "run `npm run build` first: notebooks import ../dist");
    ensureTslabKernel();
  });

  it("has the smoke notebook", () => assert.ok(notebooks.includes("00-smoke.ipynb")));

  for (const name of notebooks) {
    it(name, () => {
      const run = runNotebook(path.join(NOTEBOOKS, name), out);
      assert.equal(run.status, 0, `${name} failed:\n${run.stderr}`);
      const cells = readCells(run.executed);
      const errors = cells.flatMap((c) => c.outputs ?? []).filter((o) => o.output_type === "error");
      assert.deepEqual(errors, [], `${name} has error outputs`);
      const text = outputText(cells);
      for (const pattern of EXPECTED_OUTPUT[name] ?? []) assert.match(text, pattern, `${name} output`);
      if (SHOWCASE.includes(name)) {
        const rich = richOutputs(cells);
        assert.ok(rich.charts >= 1 && rich.tables >= 1, `${name}: ${rich.charts} charts, ${rich.tables} tables`);
      }
    });
  }

  it("shows a run's progress as one line updated in place", () => {
    const source = [
      `import { notebookProgress } from ${JSON.stringify(dist)};\n` +
        `import { ProgressTracker } from ${JSON.stringify(path.join(ROOT, "dist", "judge"))};\n` +
        `import { inNotebook } from ${JSON.stringify(path.join(ROOT, "dist", "display"))};`,
      "console.log(`in notebook: ${inNotebook()}`);",
      "const tracker = new ProgressTracker(5, notebookProgress(), 0);",
      "for (let i = 0; i < 5; i++) { await new Promise((r) => setTimeout(r, 20)); tracker.step(i === 2); }",
    ].join("\n");
    const cells = runCells("progress", [source]);
    const outputs = cells[0]!.outputs ?? [];
    const displays = outputs.filter((o) => o.output_type === "display_data");
    assert.equal(displays.length, 1, "one display, updated in place");
    assert.match(String(displays[0]!.data?.["text/plain"]), /5\/5 rows · 1 error/);
    assert.match(outputText(cells), /in notebook: true/);
  });

  it("saves a notebook that showed text with lone surrogates (a JSON file's \"\\ud800\" escape), showing U+FFFD for them", () => {
    // Jupyter cannot write such an output ("surrogates not allowed") and would leave the file empty.
    const cells = runCells("surrogates", [
      `import { showTable } from ${JSON.stringify(dist)};\n` + `showTable([{ id: "q\\ud800x", answer: "lone \\udc00 half", ok: "pair 😀" }]);`,
    ]);
    const text = outputText(cells);
    assert.match(text, /q\ufffdx/);
    assert.match(text, /lone \ufffd half/);
    assert.match(text, /pair 😀/, "a whole character beyond U+FFFF is kept");
  });

  it("scores a frame in a notebook and explains a row as HTML", () => {
    const cells = runCells("explain", [
      `import { loadDataset, scoreAnswerCorrectness, explain, statements, createJudge } from ${JSON.stringify(dist)};`,
      `const df = await loadDataset(${JSON.stringify(data)});\n` +
        `const scored = await scoreAnswerCorrectness(df.head(6), { judge: createJudge({ judge: "offline" }) });\n` +
        "console.log(`scored ${scored.shape[0]} rows, ${statements(scored).shape[0]} statements`);",
      "explain(scored, 2);",
    ]);
    const scoring = cells[1]!.outputs ?? [];
    assert.equal(scoring.filter((o) => o.output_type === "display_data").length, 1, "one progress line, updated in place");
    assert.match(outputText([cells[1]!]), /6 rows · \d+ chat calls \(0 cached\) .* offline \(approximate\)/);
    assert.match(outputText([cells[1]!]), /scored 6 rows, \d+ statements/);
    const html = (cells[2]!.outputs ?? []).find((o) => o.output_type === "display_data")?.data?.["text/html"];
    assert.match(String(html), /row 2 · q01 · swift-mini/);
    assert.match(String(html), /judge: offline \(approximate\)/);
  });

  it("shows a chart as Vega-Lite with a PNG in the same output, a summary as an HTML table, and a bare frame as a table too", () => {
    const cells = runCells("show", [
      `import { loadDataset, scoreAnswerCorrectness, createJudge, scoreBox, summarize, show } from ${JSON.stringify(dist)};\n` +
        `const scored = await scoreAnswerCorrectness(await loadDataset(${JSON.stringify(data)}), { judge: createJudge({ judge: "offline" }), progress: false, quiet: true });`,
      "await show(scoreBox(scored));",
      'await show(summarize(scored, { by: "model" }));',
      "scored.head(3)",
      // A spec of one's own, written without $schema as Vega-Lite's examples often are.
      'await show({ mark: "bar", data: { values: [{ model: "a", n: 3 }] }, encoding: { x: { field: "model", type: "nominal" }, y: { field: "n", type: "quantitative" } } });',
    ]);
    const own = (cells[4]!.outputs ?? []).find((o) => o.output_type === "display_data")?.data ?? {};
    assert.equal((own["application/vnd.vegalite.v5+json"] as { $schema?: string }).$schema, "https://vega.github.io/schema/vega-lite/v5.json");
    assert.ok(String(own["image/png"]).startsWith("iVBORw0KGgo"), "drawn as a PNG too");
    const chart = (cells[1]!.outputs ?? []).filter((o) => o.output_type === "display_data");
    assert.equal(chart.length, 1);
    const bundle = chart[0]!.data ?? {};
    assert.equal((bundle["application/vnd.vegalite.v5+json"] as { $schema?: string }).$schema, "https://vega.github.io/schema/vega-lite/v5.json");
    assert.ok(String(bundle["image/png"]).startsWith("iVBORw0KGgo"), "a base64 PNG in the same output");
    const table = (cells[2]!.outputs ?? []).find((o) => o.output_type === "display_data")?.data?.["text/html"];
    assert.match(String(table), /<table[\s\S]*ci_low[\s\S]*atlas-pro/);
    assert.match(String(table), /<td style="text-align:left;[^"]*">atlas-pro<\/td>/, "text cells left-aligned and wrapping, whatever Jupyter's own style says");
    // A bare frame as the cell's last value: an HTML table and its shape, not danfojs' internals.
    const bare = cells[3]!.outputs ?? [];
    const bareTable = bare.find((o) => o.output_type === "display_data")?.data?.["text/html"];
    assert.match(String(bareTable), /<table class="evalframe-table"[\s\S]*answer_correctness[\s\S]*<\/table>/);
    assert.match(outputText([cells[3]!]), /DataFrame: 3 rows × \d+ columns/);
    assert.doesNotMatch(outputText([cells[3]!]), /\$data|\$index|dataIncolumnFormat/);
  });

  it("shows a frame the user built with danfojs alone as a table, whichever package was imported first", () => {
    const cells = runCells("own-frame", [
      `import { loadDataset } from ${JSON.stringify(dist)};\nimport * as dfd from "danfojs-node";`,
      'const raw = new dfd.DataFrame({ Question: ["What is <b>2+2</b>?"], model_answer: ["4"], id: [7] });\nraw',
      'raw["Question"]',
    ]);
    const column = (cells[2]!.outputs ?? []).find((o) => o.output_type === "display_data")?.data?.["text/html"];
    assert.match(String(column), /<table class="evalframe-table"[\s\S]*Question[\s\S]*What is &lt;b&gt;2\+2&lt;\/b&gt;\?/, "a column shows as a table too");
    assert.match(outputText([cells[2]!]), /Series "Question": 1 value \(string\)/);
    assert.doesNotMatch(outputText([cells[2]!]), /\$data|\$index|dataIncolumnFormat/);
    const html = (cells[1]!.outputs ?? []).find((o) => o.output_type === "display_data")?.data?.["text/html"];
    assert.match(String(html), /<table class="evalframe-table"[\s\S]*model_answer[\s\S]*What is &lt;b&gt;2\+2&lt;\/b&gt;\?/);
    assert.match(outputText([cells[1]!]), /DataFrame: 1 row × 3 columns/);
    assert.doesNotMatch(outputText([cells[1]!]), /\$data|\$index|dataIncolumnFormat/);
  });

  it("runs in a project that installed evalframe from a folder (a symlink): tslab can name a frame's type", () => {
    // npm install ../evalframe, or npm link: node_modules/evalframe is a link to the checkout, and
    // danfojs-node is only in the checkout's node_modules, out of the notebook's reach.
    const project = tempDir();
    mkdirSync(path.join(project, "node_modules"));
    symlinkSync(ROOT, path.join(project, "node_modules", "evalframe"), "dir");
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "my-evals", private: true }));
    const notebook = path.join(project, "linked.ipynb");
    writeFileSync(
      notebook,
      notebookJson([
        'import { loadDataset, scoreAnswerCorrectness, createJudge, type DataFrame } from "evalframe";',
        `const df = await loadDataset(${JSON.stringify(data)});`,
        'const scored = await scoreAnswerCorrectness(df, { judge: createJudge({ judge: "offline" }), quiet: true, progress: false });\nconst named: DataFrame = scored;\nconsole.log(`scored ${named.shape[0]} rows`);',
      ]),
    );
    const run = runNotebook(notebook, path.join(project, "out"));
    assert.equal(run.status, 0, run.stderr);
    assert.match(outputText(readCells(run.executed)), /scored 126 rows/);
  });

  it("reports the real error of a failing cell (tslab hides it from nbconvert)", () => {
    const dir = tempDir();
    const broken = path.join(dir, "broken.ipynb");
    writeFileSync(broken, notebookJson(['const n: number = "not a number";', 'console.log("never runs");']));
    const run = runNotebook(broken, path.join(dir, "out"));
    assert.equal(run.status, 1);
    assert.match(run.stderr, /Type 'string' is not assignable to type 'number'/);
    assert.match(run.stderr, /const n: number = "not a number";/, "names the failing cell's source");
  });
});

describe("committed notebooks", () => {
  for (const name of notebooks) {
    it(`${name} carries no error output and runs in the tslab kernel`, () => {
      const file = path.join(NOTEBOOKS, name);
      const cells = readCells(file);
      const meta = (JSON.parse(readFileSync(file, "utf8")) as { metadata: { kernelspec?: { name?: string } } }).metadata;
      assert.equal(meta.kernelspec?.name, "tslab");
      const errors = cells.flatMap((c) => c.outputs ?? []).filter((o) => o.output_type === "error");
      assert.deepEqual(errors, []);
      assert.doesNotMatch(outputText(cells), /\/tmp\/|\/work\/|evalframe-test-/, "no machine-specific paths in outputs");
      // Committed as scripts/refresh-notebooks.sh runs them: without a key, so they show what a fresh run shows.
      for (const pattern of EXPECTED_OUTPUT[name] ?? []) assert.match(outputText(cells), pattern, `committed ${name} output`);
      assert.ok(cells.filter((c) => c.cell_type === "code").every((c) => (c as { execution_count?: number | null }).execution_count != null), `${name} was committed executed, top to bottom`);
      if (SHOWCASE.includes(name)) {
        const rich = richOutputs(cells);
        assert.ok(rich.charts >= 1 && rich.tables >= 1, `committed ${name} shows ${rich.charts} charts and ${rich.tables} tables`);
      }
    });
  }
});

describe("interrupting a scoring run in a notebook", () => {
  // A judge server in this process: the kernel runs in a child that this process does not wait on
  // synchronously, so that the server answers meanwhile.
  const { server, url } = useFakeOpenAI(() => ({ latencyMs: 100, chat: scriptedAnswerCorrectness, embed: (text) => scriptedEmbedding(text) }));

  const scoring = [
    ["the run's judge", "scoreAnswerCorrectness(df, { judge: judge })"],
    // The run's own judge answers nothing here: every request goes through the metric's judge.
    ["a judge given to the metric itself, and its embeddings judge", 'score(df, [answerCorrectness({ judge: judge, embeddings: judge })], { judge: createJudge({ judge: "offline" }) })'],
  ] as const;
  for (const [whose, call] of scoring) {
  it(`stops sending requests, drawing progress and printing into later cells; the cell run again takes the replies received from the cache (${whose})`, async () => {
    const cache = tempDir();
    const runs = await runInKernel(
      [
        {
          source:
            `import { loadDataset, scoreAnswerCorrectness, score, answerCorrectness, createJudge } from ${JSON.stringify(dist)};\n` +
            `const df = await loadDataset(${JSON.stringify(data)});\n` +
            `const judge = createJudge({ baseURL: ${JSON.stringify(url())}, apiKey: "sk-test", cacheDir: ${JSON.stringify(cache)}, concurrency: 2 });`,
        },
        { source: `const scored = await ${call};`, interruptAfterMs: 2000 },
        { source: 'await new Promise((r) => setTimeout(r, 3000));\nconsole.log("waited");' },
        { source: `const again = await ${call};` },
      ],
      notebookDir(),
    );
    assert.deepEqual(runs.map((r) => r.status), ["ok", "error", "ok", "ok"], JSON.stringify(runs, null, 1));
    assert.match(runs[1]!.text, /scoring stopped \(interrupted\)/);
    assert.equal(runs[2]!.text, "waited\n", "the stopped run draws and prints nothing into the next cell");
    const interruptedAt = runs[1]!.interruptedAt!;
    const chats = server.chatRequests();
    const before = chats.filter((r) => r.receivedAt < interruptedAt).length;
    const sentAfter = chats.filter((r) => r.receivedAt >= interruptedAt && r.receivedAt < interruptedAt + 4000).length;
    assert.ok(before > 0, "the run had started");
    // At most what the judge had handed to its scheduler (twice its concurrency) still goes out.
    assert.ok(sentAfter <= 4, `${sentAfter} requests sent after the interrupt`);
    const cached = Number(/290 chat calls \((\d+) cached\)/.exec(runs[3]!.text)?.[1]);
    assert.ok(cached >= before, `the run again took ${cached} replies from the cache; ${before} were received`);
  });
  }
});
