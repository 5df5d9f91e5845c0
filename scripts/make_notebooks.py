#!/usr/bin/python3
"""Writes the tslab notebooks in notebooks/ (without outputs).

The notebooks are the product; this script is how their cells are kept in
one readable place. After changing it, run `bash scripts/refresh-notebooks.sh`
to execute them (without a key: the hand-labelled judge, see below) and
commit them with their outputs.
"""
import os

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "notebooks")

QA_LABELS = "data/qa-models.labels.jsonl"
MM_LABELS = "data/multimodal.labels.jsonl"

QA_HAND = (
    "the scores a careful human reader gives: every answer and reference split into statements and every verdict "
    "(TP, FP, covered, FN) written by reading, never copied from a model"
)
MM_HAND = "the verdicts a careful human reader gives, having looked at every image: relevant or not, with a reason"


def judge_md(labels, hand, semantic_note=True):
    """What each judge is, and which one the next cell picks."""
    return (
        "**Three judges, one interface.** The cell below picks one:\n\n"
        "- **A real judge**, any OpenAI-compatible model: when `OPENAI_API_KEY` or `OPENAI_BASE_URL` is set "
        "(`OPENAI_BASE_URL` for Azure, Ollama, vLLM, LM Studio or a llama.cpp server; set them before starting Jupyter). "
        "`createJudge()` reads the rest from the environment too: the models from `EVALFRAME_MODEL`, `EVALFRAME_VISION_MODEL` "
        "and `EVALFRAME_EMBEDDING_MODEL`, a separate embeddings server from `EVALFRAME_EMBEDDING_BASE_URL` (README, \"The judge\"); "
        "`npx evalframe config` shows what it finds. Or pass options in the cell.\n"
        f"- **hand-labelled**, with neither variable set: {hand}, replayed from `{labels}` "
        "(`docs/labelling.md` says how they were made). So without a key the outputs below are the ground truth for the "
        "bundled data, not a guess."
        + (
            " (A reader gives no embedding: the semantic quarter of the score is the offline judge's cosine.)"
            if semantic_note
            else ""
        )
        + "\n"
        "- **offline (approximate)**: deterministic, no network, lexical matching; the judge for data that has no labels. "
        "Your own data without labels falls back to it: set `labels` to `undefined` in the cell (that is `createJudge()`, "
        "which chooses it when no key is set, with a one-line notice). How far it agrees with the hand labels: "
        "`05-calibrate`."
    )


def judge_cell(labels):
    """A real judge with a key; else the hand labels of the bundled data; else (labels undefined) the offline judge."""
    return f"""// Hand labels of the bundled data; for your own data without labels, write undefined.
const labels: string | undefined = "../{labels}";
const withKey = resolveJudgeConfig().kind === "openai";     // a key or a server is set in the environment
const judge = withKey || labels === undefined
  ? createJudge()                                           // the real judge, from the environment (without a key: the offline judge)
  : createJudge({{ judge: "labels", labels: labels }});       // hand-labelled: replays the labels
console.log(`judge: ${{judge.label}}`);"""


JUDGE_MD = judge_md(QA_LABELS, QA_HAND)
JUDGE_CELL = judge_cell(QA_LABELS)


def notebook(cells):
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"name": "tslab", "display_name": "TypeScript", "language": "typescript"}
    nb.metadata["language_info"] = {"name": "typescript", "file_extension": ".ts", "mimetype": "text/typescript"}
    nb.cells = [new_markdown_cell(c[3:]) if c.startswith("md:") else new_code_cell(c) for c in cells]
    return nb


QUICKSTART = [
    "md:# Quickstart: score answers in a DataFrame\n\n"
    "Load a table of questions, model answers and reference answers, add answer-correctness scores with one call, "
    "summarise them, draw a chart and export the scored table.\n\n"
    "Inside this repository the notebooks import the compiled package from `../dist` (`npm run build`); "
    "in your own project, install it as the README says (\"Install in your project\": from a tarball or from git, with two npm overrides; it is not on the npm registry) and import from `\"evalframe\"`.",
    "import { loadDataset, createJudge, resolveJudgeConfig, scoreAnswerCorrectness, summarize, show, showTable, scoreBox, toCSV, scoreRun, estimate, answerCorrectness, type AnswerCorrectnessOptions } from \"../dist\";",
    "md:## 1. Load the data\n\n"
    "`data/qa-models.csv` holds 42 questions (science, history, geography, software, finance, and some in Korean), "
    "each answered by three models, with a reference answer. Column names follow Ragas (`user_input`, `response`, "
    "`reference`, `model`, `id`); aliases such as `question`, `answer` or `ground_truth` are accepted too.",
    'const df = await loadDataset("../data/qa-models.csv");\n'
    'console.log(`${df.shape[0]} rows; columns: ${df.columns.join(", ")}`);\n'
    'showTable(df.head(4));',
    "md:## 2. Choose the judge\n\n" + JUDGE_MD,
    JUDGE_CELL,
    "md:## 3. Score answer correctness\n\n"
    "For every row the judge splits the answer and the reference into statements and classifies them as TP "
    "(supported), FP (unsupported) or FN (missed); the F1 of those counts is blended with the cosine similarity "
    "of the two texts' embeddings: `0.75 · factual + 0.25 · semantic`. The progress line updates in place, and the "
    "last line tells what the run cost.",
    "const scored = await scoreAnswerCorrectness(df, { judge: judge });",
    'showTable(scored.loc({ columns: ["id", "model", "answer_correctness", "answer_correctness_factual", "answer_correctness_semantic", "answer_correctness_tp", "answer_correctness_fp", "answer_correctness_fn"] }).head(6));',
    "md:## 4. Summarise\n\n"
    "Mean, spread, quartiles and a 95% bootstrap confidence interval of the mean per model. Failed rows are counted "
    "in `n_error`, never averaged in as 0. The bootstrap is seeded: the same scores give the same interval.",
    'showTable(summarize(scored, { by: "model", metrics: "answer_correctness" }));',
    "md:## 5. One chart\n\n"
    "A box per model (quartiles), with every score as a tick. In JupyterLab and VS Code the chart is interactive "
    "(hover for values); a PNG copy travels with it for viewers without Vega, such as GitHub.",
    "await show(scoreBox(scored));",
    "md:## 6. Export\n\n"
    "RFC 4180 CSV that spreadsheets open safely: text starting with `=`, `+`, `-` or `@` gets a leading `'` so it "
    "is not run as a formula (`loadDataset` removes it again). The statements behind every score travel along in "
    "`answer_correctness_statements`, so the drill-down works on the CSV later.",
    'await toCSV(scored, "../out/quickstart-scored.csv");\n'
    'const back = await loadDataset("../out/quickstart-scored.csv");\n'
    'console.log(`wrote ../out/quickstart-scored.csv and read back ${back.shape[0]} rows × ${back.shape[1]} columns`);\n'
    "const run = scoreRun(scored);\n"
    'console.log(`the run made ${run?.usage.chatCalls} chat calls (${run?.usage.chatCacheHits} from the cache)`);',
    "md:## 7. Before paying for a real judge\n\n`estimate` plans every call a run would make and counts its tokens with the model's tokenizer; it sends nothing, so it needs no key. Here: this table judged by gpt-4o-mini at list price, in each way answer correctness can ask. The default asks in Ragas' layout (one call splits each answer, one each reference, one classifies); `fused` splits and classifies an answer in one call; `answersPerCall: 8` puts up to 8 answers in a call, a question's answers together; `reasons: true` asks for a short reason before each verdict, as Ragas does (the default gives the verdicts alone). The same statement rules and arithmetic in all four; what each trades is in the README (\"Fewer calls\", \"Verdicts and reasons\"), and measured costs are in BENCHMARKS.md.",
    "const layouts: [string, AnswerCorrectnessOptions][] = [\n  [\"ragas, reasons\", { reasons: true }],\n  [\"ragas (default)\", {}],\n  [\"fused\", { layout: \"fused\" }],\n  [\"fused, 8 answers a call\", { layout: \"fused\", answersPerCall: 8 }],\n];\nconst costs: Record<string, string | number>[] = [];\nfor (const [layout, options] of layouts) {\n  const e = await estimate(df, [answerCorrectness(options)], { judge: { judge: \"openai\", model: \"gpt-4o-mini\" } });\n  costs.push({ layout, chat_calls: e.chatCalls, prompt_tokens: e.promptTokens, reply_tokens: e.completionTokens, usd_per_1000_rows: ((e.costUSD ?? Number.NaN) / df.shape[0]) * 1000 });\n}\nshowTable(costs, { digits: 4 });",
]

COMPARE = [
    "md:# Compare models, honestly\n\n"
    "Three models answered the same 42 questions. Which is better, and by how much? Means alone hide how noisy "
    "they are, so this notebook pairs the answers question by question, puts confidence intervals on everything, "
    "and tests the differences.",
    'import { loadDataset, createJudge, resolveJudgeConfig, scoreAnswerCorrectness, summarize, compareModels, disagreements, showTable, show, meanWithCI, pairedDifferences, questionHeatmap, winTieLoss, thresholdSweep } from "../dist";',
    "md:" + JUDGE_MD,
    JUDGE_CELL,
    'const scored = await scoreAnswerCorrectness(await loadDataset("../data/qa-models.csv"), { judge: judge, progress: false });',
    "md:## Means with 95% bootstrap confidence intervals\n\nOverlapping intervals are a first hint that a gap may be noise.",
    'const summary = summarize(scored, { by: "model", metrics: "answer_correctness" });\n'
    "showTable(summary);",
    "await show(meanWithCI(summary));",
    "md:## Paired comparison\n\n"
    "Each pair of models is compared on the questions both answered: the mean of the per-question differences with a "
    "paired-bootstrap CI, wins/ties/losses, a Wilcoxon signed-rank test (a sign test for 0/1 scores), and p-values "
    "adjusted for the number of pairs (Holm). The verdict says \"better\" only when the adjusted p-value is below 0.05.",
    'const comparison = compareModels(scored, { metric: "answer_correctness" });\n'
    "showTable(comparison);",
    "await show(winTieLoss(comparison));",
    "md:## Question by question\n\n"
    "Dots right of zero are questions where the first model scored higher. The heatmap sorts questions by how much "
    "the models disagree: the top rows are where to look.",
    'await show(pairedDifferences(scored, { a: "atlas-pro", b: "swift-mini" }));',
    "await show(questionHeatmap(scored, { maxQuestions: 20 }));",
    'showTable(disagreements(scored, { top: 5 }), { maxChars: 160 });',
    "md:## Does the ranking depend on the bar?\n\n"
    "With a threshold, answer correctness becomes pass/fail. Where the lines cross, the winner depends on where you "
    "set the bar.",
    "await show(thresholdSweep(scored));",
]

DRILL = [
    "md:# Drill down: the statements behind a score\n\n"
    "A score is only as useful as the evidence behind it. Every answer-correctness score keeps its statements "
    "and their verdicts; asked with `reasons: true`, as here, a model judge also writes a short reason before each verdict "
    "(by default it gives the verdicts alone, at about half the reply tokens; the hand labels and the offline judge always carry their reasons).",
    'import { loadDataset, createJudge, resolveJudgeConfig, scoreAnswerCorrectness, statements, explain, worst, showTable, show, verdictBars, summarize } from "../dist";',
    "md:" + JUDGE_MD,
    JUDGE_CELL,
    'const scored = await scoreAnswerCorrectness(await loadDataset("../data/qa-models.csv"), { judge: judge, progress: false, reasons: true });',
    "md:## Every statement, one row each\n\n"
    "`statements()` returns one row per statement: the scored row it belongs to, the side (response or reference), "
    "the verdict (TP/FP for answer statements, covered/FN for reference statements) and the reason.",
    "const st = statements(scored);\n"
    'console.log(`${st.shape[0]} statements`);\n'
    'showTable(st.query(st["verdict"].eq("FP")).head(8), { maxChars: 140 });',
    "md:## Why did this answer score low?\n\n`worst()` finds the lowest scores; `explain()` tells one row's story, with the arithmetic.",
    'showTable(worst(scored, { n: 5 }).loc({ columns: ["id", "model", "response", "answer_correctness"] }), { maxChars: 120 });',
    "const lowest = worst(scored, { n: 1 });   // a frame with the lowest-scoring row and all its columns\nexplain(lowest, 0);",
    "md:## Supported, unsupported, missed\n\n"
    "Verbose answers pile up FP statements (claims the reference does not support); incomplete ones pile up FN.",
    "await show(verdictBars(scored));",
    "md:## Weights, beta and threshold move the ranking\n\n"
    "`weights` blend the factual and semantic parts; `beta` > 1 rewards recall (covering the reference), < 1 precision "
    "(not adding unsupported claims); a `threshold` turns scores into pass/fail. The judge's replies are cached, so "
    "rescoring with other settings costs no calls.",
    "const settings = {\n"
    '  "default [0.75, 0.25], β = 1": {},\n'
    '  "facts only [1, 0]": { weights: [1, 0] as [number, number] },\n'
    '  "recall first, β = 2": { weights: [1, 0] as [number, number], beta: 2 },\n'
    '  "precision first, β = 0.5": { weights: [1, 0] as [number, number], beta: 0.5 },\n'
    '  "pass at ≥ 0.5": { threshold: 0.5 },\n'
    "};\n"
    "const rows: Record<string, unknown>[] = [];\n"
    "for (const [name, options] of Object.entries(settings)) {\n"
    "  const s = await scoreAnswerCorrectness(scored, { judge: judge, progress: false, quiet: true, ...options });\n"
    '  const summary = summarize(s, { by: "model", metrics: "answer_correctness", bootstrap: 0 });\n'
    '  const means = summary.values as unknown[][];\n'
    '  const model = summary.columns.indexOf("model"), mean = summary.columns.indexOf("mean");\n'
    "  rows.push({ setting: name, ...Object.fromEntries(means.map((r) => [r[model] as string, r[mean] as number])) });\n"
    "}\n"
    "showTable(rows);",
]

MULTIMODAL = [
    "md:# Multimodal relevance: answers against text and image contexts\n\n"
    "Each row's retrieved contexts mix text passages, image files (PNG, JPEG, GIF, WebP, BMP), an inline data URI and "
    "remote image URLs. A vision model reads them all and says whether the answer is in line with them: 1 or 0, with "
    "a reason.",
    'import { loadDataset, createJudge, resolveJudgeConfig, scoreMultimodalRelevance, summarize, showTable, show, relevanceRate, ImageLoader, classifyContext, escapeHtml } from "../dist";\n'
    'import * as tslab from "tslab";',
    "md:" + judge_md(MM_LABELS, MM_HAND, semantic_note=False)
    + "\n\nThe offline judge cannot see images: rows whose verdict depends on one come out as NaN, with that reason.",
    judge_cell(MM_LABELS),
    'const mm = await loadDataset("../data/multimodal.csv");\n'
    'showTable(mm.loc({ columns: ["id", "model", "user_input", "response", "retrieved_contexts"] }).head(6), { maxChars: 90 });',
    "md:## Judge relevance\n\n"
    "For a real judge, images are loaded by evalframe, never fetched by the model: local files only inside `imageRoot`, "
    "URLs only on public addresses (no loopback, private or cloud-metadata addresses, checked on every redirect), at "
    "most 10 MiB, and the bytes decide the type (SVG is refused; BMP is converted to PNG). The hand-labelled and "
    "offline judges do not look at images, so nothing is loaded or fetched for them: with the labels, every row "
    "scores, the two with remote images included.",
    'const judged = await scoreMultimodalRelevance(mm, { judge: judge, imageRoot: "../data", progress: false });\n'
    'const relevance = judged["multimodal_relevance"].values as number[];\n'
    'console.log(`${relevance.filter((v) => !Number.isNaN(v)).length} of ${judged.shape[0]} rows judged, ${relevance.filter((v) => v === 1).length} relevant`);\n'
    'showTable(judged.loc({ columns: ["id", "model", "multimodal_relevance", "multimodal_relevance_reason", "multimodal_relevance_error"] }), { maxChars: 110, maxRows: 30 });',
    "md:## Relevance rate per model\n\nThe share of rows judged relevant, with a 95% Wilson score interval (honest even at a rate of 0 or 1); failed rows are counted apart, not as 0.",
    'showTable(summarize(judged, { by: "model", metrics: "multimodal_relevance" }));',
    "await show(relevanceRate(judged));",
    "md:## Look at the answers judged not relevant (or not judged), with their images\n\n"
    "One block per question: its contexts, images inline, then each answer the judge did not find in line with them, "
    "with the reason (or the error). Judge for yourself. A remote image is shown only where it can be downloaded.",
    "const loader = new ImageLoader({ imageRoot: \"../data\" });\n"
    "const values = judged.values as unknown[][];\n"
    "const col = (name: string) => judged.columns.indexOf(name);\n"
    "const flagged = values.filter((r) => (r[col(\"multimodal_relevance\")] as number) !== 1);\n"
    "for (const id of [...new Set(flagged.map((r) => r[col(\"id\")] as string))]) {\n"
    '  const rows = flagged.filter((r) => r[col("id")] === id);\n'
    '  const contexts = JSON.parse(rows[0]![col("retrieved_contexts")] as string) as string[];\n'
    "  const parts: string[] = [];\n"
    "  for (const item of contexts) {\n"
    "    const c = classifyContext(item);\n"
    '    if (c.kind === "text") { parts.push(`<p><i>${escapeHtml(c.text)}</i></p>`); continue; }\n'
    "    try {\n"
    "      const image = await loader.load(c);\n"
    '      parts.push(`<img src="${image.dataUri}" style="max-height:140px;margin:4px;border:1px solid #ccc">`);\n'
    "    } catch (error) {\n"
    '      parts.push(`<p style="color:#b3261e">${escapeHtml((error as Error).message)}</p>`);\n'
    "    }\n"
    "  }\n"
    "  const answers = rows.map((r) => {\n"
    '    const failed = Number.isNaN(r[col("multimodal_relevance")] as number);\n'
    '    const why = String(r[col(failed ? "multimodal_relevance_error" : "multimodal_relevance_reason")]).slice(0, 220);\n'
    '    return `<li><b>${escapeHtml(r[col("model")] as string)}</b>: ${escapeHtml(r[col("response")] as string)}<br>` +\n'
    '      `<i>${failed ? "not judged" : "not relevant"}:</i> ${escapeHtml(why)}</li>`;\n'
    "  });\n"
    '  tslab.display.html(`<h4>${escapeHtml(id)}: ${escapeHtml(rows[0]![col("user_input")] as string)}</h4>` + parts.join("") + `<ul>${answers.join("")}</ul>`);\n'
    "}",
]

CALIBRATE = [
    "md:# Check a judge against human labels\n\n"
    "A judge's scores are worth as much as its agreement with careful human readers. `calibrate(scored, labels)` "
    "compares a scored table with hand labels statement by statement, row by row and in the ranking of models. "
    "This notebook checks the offline judge (and, when `OPENAI_API_KEY` or `OPENAI_BASE_URL` is set, the real judge) "
    "against `data/qa-models.labels.jsonl`: all 126 rows of the bundled data, every statement and verdict written by "
    "reading (`docs/labelling.md`).",
    'import { loadDataset, createJudge, resolveJudgeConfig, scoreAnswerCorrectness, calibrate, showTable, frameRecords, readLabels, labelFactual, type CalibrationReport } from "../dist";',
    "md:## 1. Score the bundled data\n\n"
    "With the offline judge always; with the real judge too when a key or a server is set.",
    'const df = await loadDataset("../data/qa-models.csv");\n'
    'const labels = "../data/qa-models.labels.jsonl";\n'
    'const offline = await scoreAnswerCorrectness(df, { judge: createJudge({ judge: "offline" }), progress: false });\n'
    "const realJudge = resolveJudgeConfig().kind === \"openai\" ? createJudge() : undefined; // a key or a server is set: the judge the environment sets up\n"
    "const real = realJudge ? await scoreAnswerCorrectness(df, { judge: realJudge, progress: false }) : undefined;\n"
    'if (!realJudge) console.log("no OPENAI_API_KEY or OPENAI_BASE_URL is set: checking the offline judge only");',
    'const report = calibrate(offline, labels);\n'
    'console.log(`rows matched by ${report.matchedBy}; labels\' F-beta with beta = ${report.beta}; statements aligned at word overlap ≥ ${report.alignThreshold}`);',
    "md:## 2. Coverage: did every label find its row?\n\n"
    "Labels find their rows by `(id, model)` (by `(user_input, model)` when there is no id). `matched` should equal "
    "`labels`. A **stale** label is one whose row's response or reference text has changed since it was written: it "
    "is left out and listed in `report.stale`, so relabel those rows. `unlabelled_rows` are scored rows without a "
    "label; `unused_labels` are labels without a row.",
    "showTable(report.coverage);",
    "md:## 3. Statement agreement: does the judge give the verdicts a reader gives?\n\n"
    "Per side (answer statements TP/FP, reference statements covered/FN), the judge's statements are aligned with the "
    "label's (the same text, else the best word overlap of at least 0.5), and the verdicts of aligned pairs compared. "
    "`n_aligned` against `n_label` says how often the judge split the text as the reader did; `accuracy` is the share "
    "of aligned verdicts that agree; **kappa** (Cohen's) is that agreement beyond chance: 1 perfect, 0 no better than "
    "chance; above 0.6 is usually read as substantial, above 0.8 as almost perfect.",
    "showTable(report.statements!);",
    "md:## 4. Row agreement: Spearman, MAE, bias\n\n"
    "`factual` compares the judge's `answer_correctness_factual` with the labels' F1 (from their TP/FP/FN counts); "
    "`score` compares the final `answer_correctness` with the same F1, so even a judge that agrees with every verdict "
    "shows some error there (the final score blends in the semantic similarity). Read `factual` for the judge's "
    "verdicts, `score` for the numbers you will report.\n\n"
    "- **spearman**: rank agreement, from −1 to 1: do the rows the labels score higher get higher scores?\n"
    "- **mae**: mean absolute error, in score points (0.1 = ten points off on average).\n"
    "- **bias**: mean of judge − label: above 0 the judge is too generous, below 0 too strict.\n"
    "- **n_label_zero** / **high_on_label_zero**: the rows the labels score 0 (plainly wrong answers) and the share "
    "of them the judge scores 0.5 or more: the mistakes a reader notices first. NaN where a model has no such row.\n\n"
    "The per-model lines say whether the judge is as fair to one model as to another.",
    "showTable(report.rows!);",
    "md:## 5. Does the judge pick the better answer, and rank the models as the labels do?\n\n"
    "**Answer order** takes every pair of answers to the same question that the labels score differently and counts "
    "how often the judge scores the better one higher (`ordered`), the same (`tied`) or lower (`reversed`). That is the "
    "comparison you make when two models answer one question, and a judge can fail it while its Spearman over the "
    "whole table looks fine (by telling easy questions from hard ones).\n\n"
    "In the **ranking**, `judge_mean` is the mean final score, `label_mean` the mean of the labels' F1 over the same "
    "rows; rank 1 is best. A judge can be off in level (bias) and still rank the models right, which is what a model "
    "comparison needs.",
    "showTable(report.answerOrder!);\n"
    "showTable(report.ranking!);\n"
    "console.log(`ranking agrees with the labels: ${report.rankingAgrees}`);",
    "md:## 6. Where they disagree most\n\n"
    "The rows with the largest |judge − label|, and why: each aligned statement whose verdicts differ (`judge TP, "
    "label FP`, with the judge's own wording in brackets when it differs), then `label only:` statements the reader "
    "wrote that the judge did not produce and `judge only:` the reverse. Read a few: is the judge wrong, or the label?",
    "showTable(report.disagreements!, { maxChars: 160 });",
    "md:## 7. Judges side by side\n\n"
    "One line per judge: the factual agreement over all rows, the statement kappas and the ranking. With a key set, "
    "the real judge's line is here too, and its full tables below.",
    "function headline(name: string, r: CalibrationReport): Record<string, unknown> {\n"
    '  const all = frameRecords(r.rows!).find((row) => row["target"] === "factual" && row["model"] === "(all)")!;\n'
    '  const kappa = (side: string) => frameRecords(r.statements!).find((row) => row["side"] === side)?.["kappa"];\n'
    "  return {\n"
    '    judge: name, n: all["n"], spearman: all["spearman"], mae: all["mae"], bias: all["bias"], high_on_label_zero: all["high_on_label_zero"],\n'
    '    kappa_response: kappa("response"), kappa_reference: kappa("reference"), ranking_agrees: r.rankingAgrees,\n'
    "  };\n"
    "}\n"
    "const realReport = real ? calibrate(real, labels) : undefined;\n"
    'const lines = [headline("offline (approximate)", report)];\n'
    "if (realJudge && realReport) lines.push(headline(realJudge.label, realReport));\n"
    "showTable(lines);",
    "if (realReport) {\n"
    "  showTable(realReport.statements!);\n"
    "  showTable(realReport.rows!);\n"
    "  showTable(realReport.ranking!);\n"
    "  showTable(realReport.disagreements!, { maxChars: 160 });\n"
    "} else {\n"
    '  console.log("set OPENAI_API_KEY (or OPENAI_BASE_URL) and rerun to check the real judge the same way");\n'
    "}",
    "md:## 8. On answers it has never seen\n\n"
    "The offline judge was built on the data above, so its agreement there flatters it. `data/qa-heldout.csv` holds "
    "288 other questions (84 in Korean), each answered right, wrong and in part, hand-labelled the same way; its "
    "`test` split was never read while the judge was built (`docs/labelling.md`). This is the agreement to expect on "
    "answers of your own. (On the command line: `evalframe calibrate scored.csv --labels data/qa-heldout.labels.jsonl --where split=test`.)",
    'const heldOut = await scoreAnswerCorrectness(await loadDataset("../data/qa-heldout.csv"), { judge: createJudge({ judge: "offline" }), progress: false });\n'
    'const testRows = frameRecords(heldOut).filter((row) => row["split"] === "test");\n'
    'const unseen = calibrate(testRows, "../data/qa-heldout.labels.jsonl", { top: 5 });\n'
    "showTable(unseen.rows!);\n"
    "showTable(unseen.answerOrder!);",
    "md:## 9. Your own data\n\n"
    "**Hand labels**, as bundled: one JSON line per row with the row's `id`, `model` and texts, its statements and "
    "verdicts, each with a reason. `docs/labelling.md` is the rule book (how to split statements, when a statement is "
    "TP or FP, covered or FN). Then `calibrate(scored, \"my.labels.jsonl\")` gives every table above, "
    "`createJudge({ judge: \"labels\", labels: \"my.labels.jsonl\" })` replays them, and on the command line "
    "`evalframe calibrate scored.csv --labels my.labels.jsonl` prints the same.\n\n"
    "**A plain human score column** is quicker to collect: a table with `id` (or `user_input`), `model` and a score "
    "from 0 to 1 (or 0/1, pass/fail) per row, say `human_score`, loaded with `loadDataset`. "
    "`calibrate(scored, grades, { labelScore: \"human_score\" })` compares the final score with it: row agreement, "
    "ranking and disagreements, without the statement tables. Below, to show the call, the grades are pass/fail "
    "derived from the bundled labels (pass when their F1 is at least 0.5); yours come from your readers. Against "
    "pass/fail grades, MAE is the distance to 0 or 1, so read Spearman and `high_on_label_zero` first; a model "
    "whose answers all pass has no Spearman (NaN).",
    "const grades = readLabels(labels).answerCorrectness.map((l) => ({ id: l.id, model: l.model, human_score: labelFactual(l) >= 0.5 ? 1 : 0 }));\n"
    'const byGrade = calibrate(offline, grades, { labelScore: "human_score" });\n'
    "showTable(byGrade.rows!);\n"
    "console.log(`ranking agrees with the grades: ${byGrade.rankingAgrees}`);",
]


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, cells in [
        ("01-quickstart.ipynb", QUICKSTART),
        ("02-compare-models.ipynb", COMPARE),
        ("03-drill-down.ipynb", DRILL),
        ("04-multimodal.ipynb", MULTIMODAL),
        ("05-calibrate.ipynb", CALIBRATE),
    ]:
        nbformat.write(notebook(cells), os.path.join(OUT, name))
        print("wrote", name)


if __name__ == "__main__":
    main()
