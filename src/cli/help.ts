/**
 * The `--help` texts of the `evalframe` command and its subcommands. Metric
 * names and labels come from the metric registry when a text is read, so a
 * metric added with `registerMetric` is listed too.
 */
import { defaultScoreColumns, metricDefinitions, metricNames } from "../metrics/registry";
import { MULTIMODAL_FLAGS } from "../context/option-names";
import { MULTIMODAL_RELEVANCE_COLUMNS } from "../metrics/multimodal-relevance/columns";

/** The help's right margin: text is wrapped at this column. */
const WIDTH = 100;

/**
 * `text` after `lead` (an option's name and its padding), wrapped at
 * {@link WIDTH} with the lines after the first indented as far as `lead`.
 */
function wrap(lead: string, text: string): string {
  const lines: string[] = [];
  let line = lead;
  let empty = true;
  for (const word of text.split(" ")) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = " ".repeat(lead.length);
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines.join("\n");
}

/** "a", "a and b", "a, b and c". */
function and(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]!}`;
}

/** The default metric of compare and diff, as help says it: "a, else b, else c" (the first registered metric the table has). */
function defaultMetricText(): string {
  return metricNames().join(", else ");
}

/** The --fail-under options of score and summarize. */
const failUnderHelp = (): string => `CI gate (exit 1 with one line saying which score fell short):
  --fail-under X             fail when a model's mean score (the pass rate, for 0/1 scores) is under X
                             (0 to 1); failed rows are left out of the mean (the line then says
                             how many rows were scored), and a model with no scored row fails.
                             Default: every model must reach X
${wrap("  --fail-under-metric LIST   ", `the score column(s) gated (default ${and(metricNames())}, those present); one the run does not score or the summary leaves out is bad usage (exit 2), found before any output`)}
  --fail-under-model LIST    gate only these models (e.g. yours, not the baselines)
  --fail-under-overall       gate the mean of all rows together instead of each model`;

/** The column option descriptions start at (two spaces, the option, padding). */
const OPTION_COLUMN = 29;

/** Multimodal relevance's flags of score: the two any metric takes, then those of `MULTIMODAL_FLAGS`. */
const multimodalHelp = (): string => `Multimodal relevance:
  --image-root DIR           folder local images must be in (default: the input file's folder);
                             it must exist (exit 2 otherwise)
  --allow-private-network    allow image URLs on private and loopback addresses
${MULTIMODAL_FLAGS.map((f) => wrap(`  --${f.flag} ${f.value}`.padEnd(OPTION_COLUMN), f.help)).join("\n")}
${wrap(" ".repeat(OPTION_COLUMN), `(--${MULTIMODAL_FLAGS[0]!.flag} to --${MULTIMODAL_FLAGS.at(-1)!.flag} are refused when ${MULTIMODAL_RELEVANCE_COLUMNS.score} is not scored)`)}`;

/** The judge flags, shared by score and config. */
const JUDGE_FLAGS_HELP = `Judge (each flag wins over its variable; then OPENAI_*; then the default):
  --judge openai|offline|labels
                             EVALFRAME_JUDGE (openai|offline); default: labels with --labels, else openai
                             when an API key or base URL is set, else offline
  --labels FILE              hand-label file(s) the labels judge replays (repeatable or comma-separated;
                             format in docs/labelling.md); embeddings come from the offline judge
  --model M                  chat model; EVALFRAME_MODEL (default gpt-4o-mini)
  --vision-model M           model for images; EVALFRAME_VISION_MODEL (default gpt-4o)
  --embedding-model M        embedding model; EVALFRAME_EMBEDDING_MODEL (default text-embedding-3-small)
  --base-url URL             OpenAI-compatible server, e.g. http://localhost:11434/v1;
                             EVALFRAME_BASE_URL, else OPENAI_BASE_URL (default OpenAI's)
  --embedding-base-url URL   a server of its own for embeddings (e.g. a second vLLM);
                             EVALFRAME_EMBEDDING_BASE_URL (default: the chat server). Its key:
                             EVALFRAME_EMBEDDING_API_KEY; the chat key goes to it only on the same host
  --concurrency N            requests in flight at once; EVALFRAME_CONCURRENCY (default 16)
  --max-tokens N             largest reply, in tokens; EVALFRAME_MAX_TOKENS (default: the server's).
                             Below 4096, --answers-per-call puts fewer answers in a call to fit it
  --timeout-ms N             time one request may take; EVALFRAME_TIMEOUT_MS (default 60000). A local
                             server loading its model, or queueing requests, may need more
  --cache-dir DIR            reply cache; EVALFRAME_CACHE_DIR (default .evalframe-cache)
  --no-cache                 do not read or write the cache
`;

/**
 * Help of the command itself, with the metrics registered now.
 *
 * @example
 * mainHelp().startsWith("evalframe — score LLM answers"); // true
 */
export function mainHelp(): string {
  return `evalframe — score LLM answers and compare models

Usage:
  evalframe score <input.csv|.tsv|.jsonl|.json> --out scored.csv [options]
  evalframe summarize <scored.csv> [--by model] [--metrics m1,m2] [--json] [--fail-under X]
  evalframe compare <scored.csv> [--metric ${metricNames()[0] ?? "M"}] [--by model] [--pair-by id] [--baseline M] [--json]
  evalframe diff <old.csv> <new.csv> [--metric M] [--top N] [--out changes.csv] [--chart change.png] [--json]
  evalframe chart <scored.csv> --kind <kind> --out chart.png|.svg|.json [--metric M] [--by model]
  evalframe report <scored.csv> --out report.html [--title T] [--usage-json summary.json] [--previous old.csv]
  evalframe score <input> --out scored.csv --batch [--batch-dir DIR]   (or --batch-export / --batch-import FILE)
  evalframe batch status [--batch-dir DIR]
  evalframe calibrate <scored.csv> --labels labels.jsonl [--label-score COL] [--top N] [--json]
  evalframe config [judge flags] [--json]

Commands:
${wrap("  score      ", `judge every row (${metricDefinitions().map((d) => d.label).join(", ")}) and write the scored table`)}
  summarize  count, errors, mean, spread and a 95% CI of each score, per model
  compare    paired comparison of models: mean difference with CI, wins/ties/losses, tests
  diff       two runs of the same data: change per model with CI and test, answers that changed
  chart      draw one chart to PNG, SVG or a Vega-Lite JSON spec
  report     write one self-contained HTML report (tables, charts, worst answers)
  batch      where the batches of a batch-mode run stand (evalframe batch status)
  calibrate  how well the judge agrees with hand labels: statements, scores, model ranking
  config     the judge settings score would use, and where each comes from (flag, environment, default)

Options:
  -h, --help     help (also after a command: evalframe score --help)
  -V, --version  the version

The judge: each setting comes from its flag, else EVALFRAME_* variables, else OPENAI_API_KEY /
OPENAI_BASE_URL, else the default (evalframe config shows them); keys only from the environment.
With no key or base URL set, the offline judge (approximate) is used and says so.

Exit codes: 0 done (rows that failed are counted in the output, not a failure);
1 the input could not be read or used, the run failed as a whole (every row failed), or a
gate was not met (--fail-under, diff --fail-under-change / --fail-on-worse / --fail-on-scoring-change);
2 bad usage (unknown command or option, missing or malformed value). Numbers are written plainly:
a count in digits only (--concurrency 8, not " 8" or "+8"), a decimal as 0.8 or .8 (not 8e-1).
Set EVALFRAME_DEBUG=1 to see the stack of an unexpected error.
`;
}

/** Help of each subcommand, made when read. */
const SUBCOMMAND_HELP: Readonly<Record<string, () => string>> = {
  score: () => `evalframe score — judge every row and write the scored table

Usage:
  evalframe score <input.csv|.tsv|.jsonl|.json> --out scored.csv [options]

Output:
  --out FILE                 the scored table as CSV (required; a path other than the input file's;
                             not -: the summary goes to stdout)
  --statements-out FILE      one row per statement with its verdict and reason, as CSV (answer correctness)
  --summary-json FILE        the run's usage, the summary per model and the --fail-under verdict, as JSON
  --no-progress              no progress bar on stderr (it fits the terminal width; TERM=dumb gets
                             no escape codes; when stderr is no terminal, as in CI: a line at every
                             tenth of the way and at least one a minute)
  --where COL=V              score and write only the rows whose COL is V (V1|V2 for either;
                             repeat to narrow), e.g. --where model=my-model; COL may be an alias
                             the file uses (question for user_input), as on every command

Cost before you pay:
  --dry-run                  print the calls, tokens (the model's tokenizer), cache hits, cost at
                             list and batch price and the time, without any chat or embedding
                             call (--out optional); then the cheaper layouts of answer
                             correctness, each with its cost and what it gives up. Local
                             images are checked without loading them (there, inside
                             --image-root, size, type); rows that will fail before any call
                             are named in one line and not counted
  --rpm N, --tpm N           the server's requests / tokens per minute, for the time estimate

${failUnderHelp()}

Metrics:
${wrap("  --metrics LIST             ", `${metricNames().join(", ")} (comma-separated);`)}
                             default: every metric whose columns the input has
  --weights W0,W1            answer correctness: factual and semantic weights (default 0.75,0.25)
  --beta B                   F-beta's beta (default 1)
  --threshold T              answer_correctness becomes 1 when the score >= T, else 0
  --similarity-threshold T   the semantic part becomes 1 when the cosine >= T, else 0
  --layout ragas|fused       answer correctness's calls: ragas (default; as Ragas asks) or
                             fused (one call per answer, references 8 to a call: about
                             half the calls and tokens; see docs/architecture.md)
  --answers-per-call N       with --layout fused: up to N answers (1-12) split and judged in
                             one call, grouped by question (default 1; 8: about a sixth of
                             the calls and under half the prompt tokens)
  --reasons                  answer correctness: a short reason before each verdict, as
                             Ragas asks (about twice the completion tokens; the default
                             is the verdicts alone, --no-reasons)

${multimodalHelp()}

${JUDGE_FLAGS_HELP}
Input:
  --format csv|tsv|jsonl|json  when the extension does not tell, and for - (the input read from
                             standard input: cat data.csv | evalframe score - --format csv ...)
  --strict                   refuse a file that is not valid UTF-8 (default: read bad
                             bytes as U+FFFD and warn, naming the first such line); a UTF-16
                             file is refused either way: save it as UTF-8
  --chunk-rows N             rows read, scored and written at a time (default 10,000):
                             memory depends on this, not on the size of the file

Batch mode (OpenAI Batch API: half the price, results within 24 h):
  --batch                    send the requests as batches (Files + Batches API), poll, and score
  --batch-dir DIR            where batch ids and stages are kept, so a stopped run resumes (default .evalframe-batch)
  --poll-interval S          seconds between status polls (default 30)
  --batch-max-lines N        with --batch or --batch-export: at most N requests a batch or file (default 50,000,
                             the API's limit); fewer keep each batch under your organisation's enqueued token limit
  --batch-export FILE        write the next stage's requests as Batch JSONL without submitting (--out optional;
                             no API key needed: nothing is sent)
  --batch-import FILE        read a batch output file made elsewhere (e.g. vLLM's batch runner) into the cache

Keys are read from the environment only (EVALFRAME_API_KEY, else OPENAI_API_KEY; EVALFRAME_EMBEDDING_API_KEY).
Column aliases work (question, answer,
ground_truth, contexts, ...). A row that cannot be scored gets NaN and a reason in
<metric>_error; the run still exits 0 unless every row failed.
`,
  batch: () => `evalframe batch — batch mode bookkeeping

Usage:
  evalframe batch status [--batch-dir DIR] [--live [--base-url URL] ...]

Lists each batch the batch folder recorded: its stage, endpoint, id, lines, status and whether
its results were read back. --live asks the Batches API for the current status: the server and
key are found as for score (judge flags, EVALFRAME_*, then OPENAI_*).
`,
  config: () => `evalframe config — the judge settings, and where each comes from

Usage:
  evalframe config [judge flags] [--json]

Prints the settings evalframe score would use with the same flags and environment: the judge,
models, base URLs, keys (masked: at most their last 4 characters), concurrency and cache, each
with its source: the flag, the environment variable (EVALFRAME_* before OPENAI_*) or the default.
Nothing is sent anywhere.

${JUDGE_FLAGS_HELP}
Options:
  --json                     print a JSON object instead: { "model": { "value": ..., "from": ... }, ... }
`,
  calibrate: () => `evalframe calibrate — how well the judge of a scored table agrees with hand labels

Usage:
  evalframe calibrate <scored.csv> --labels labels.jsonl [--labels more.jsonl] [--where split=test] [--top N] [--json]
  evalframe calibrate <scored.csv> --labels grades.csv --label-score human_score

Rows are matched by (id, model) when both sides have ids, else by (user_input, model); a
label whose response text differs from the row's is stale and left out (and listed).

Prints: coverage (labels matched, stale, unlabelled rows, labelled rows the judge failed);
statement agreement per side (judge statements aligned to the labelled ones: identical
text, else greedily by word overlap >= 0.5; n, accuracy, Cohen's kappa); row agreement of
the factual part and of the final score with the labels' F-beta (n, Spearman, MAE, bias;
overall and per model); the model ranking under the judge and under the labels; the
largest disagreements with the statements whose verdicts differ; multimodal relevance
agreement (n, accuracy, kappa).

Options:
  --labels FILE        hand-label JSONL file(s) (docs/labelling.md; or a .json array of labels),
                       repeatable or comma-separated;
                       with --label-score, one table (.csv, .tsv, .jsonl, .json) of human scores
  --label-score COL    the labels are a plain human score (0-1 or 0/1) in column COL
  --top N              rows in the disagreement table (default 10)
  --align-threshold T  word overlap at which two different statements align (default 0.5)
  --where COL=V        only the scored rows whose COL is V (V1|V2 for either; repeat to narrow),
                       e.g. --where split=test; labels of the rows left out count as unused
  --json               print JSON records instead of tables
  --format F           csv|tsv|jsonl|json for the scored table when the extension does not tell
`,
  summarize: () => `evalframe summarize — summary statistics of the scores

Usage:
  evalframe summarize <scored.csv> [--by model] [--metrics m1,m2] [--json]

Options:
  --by COLUMNS      group by these columns (comma-separated; default model when present)
${wrap("  --metrics LIST    ", `score columns (default: ${defaultScoreColumns().join(", ")}, those present)`)}
  --seed N          bootstrap seed (default fixed: a rerun gives the same interval, and
                    groups with the same scores the same interval)
  --where COL=V     only the rows whose COL is V (V1|V2 for either); repeat to narrow further
  --json            print JSON records instead of a table
  --format F        csv|tsv|jsonl|json when the extension does not tell

${failUnderHelp()}
`,
  diff: () => `evalframe diff — what changed between two scored runs of the same data

Usage:
  evalframe diff <old.csv> <new.csv> [options]

Pairs each answer of the old run (before) with the same answer of the new run (after), by
(id, model), else (question text, model). Prints the change per model and over all models:
mean before and after over the answers scored in both runs, change with a paired bootstrap
95% CI, a Wilcoxon signed-rank test (sign test for 0/1 scores) with Holm's correction across
models, a verdict, answers improved / worsened / unchanged, added, dropped and failed in one
run only (failed rows are never counted as 0). Then the answers that changed most.

Options:
${wrap("  --metric M              ", `score column (default ${defaultMetricText()})`)}
  --by COLUMN             model column (default model; runs without one are one system)
  --pair-by COLUMN        column that pairs answers (default id, else user_input)
  --top N                 changed answers printed (default 10; 0 for none)
  --out FILE              every changed answer as CSV, with both answers' texts when they differ
  --chart FILE            the change per model with its CI: .png, .svg or .json (Vega-Lite spec)
  --seed N                bootstrap seed
  --json                  print JSON (summary and the top changed answers) instead of tables
  --where COL=V           only the rows whose COL is V, in both runs (V1|V2 for either; repeat to narrow)
  --format F              csv|tsv|jsonl|json when the extensions do not tell
  --low-memory            hold a digest of each answer, not its text, and read the texts of the
                          changed answers written out again at the end: less memory, more time with
                          --out or --json (on by itself when the two files pass 1 GB together)

CI gates (exit 1 with one line, after everything is printed and written):
  --fail-under-change X   fail when a model's mean change is under X (-1 to 1), e.g. -0.05
  --fail-on-worse         fail when a model is significantly worse (verdict "before better than after",
                          or the mean change's CI wholly below 0, at 95% corrected for the models
                          compared, from 2 answers, whatever the verdict)
  (either gate also fails when a model scored before has no scored answer after: all failed, or gone)
  --fail-on-scoring-change  fail when the runs were scored differently (judge, the offline judge's rules,
                          layout, reasons, answers per call, prompts, embedding model, weights, beta,
                          thresholds, image detail)
`,
  compare: () => `evalframe compare — compare models question by question

Usage:
  evalframe compare <scored.csv> [--metric ${metricNames()[0] ?? "M"}] [--by model] [--pair-by id] [--baseline M] [--json]

Options:
${wrap("  --metric M        ", `score column (default ${defaultMetricText()})`)}
  --by COLUMN       model column (default model)
  --pair-by COLUMN  question column that pairs answers (default id; without an id
                    column, the question text user_input)
  --baseline M      compare every model with M (default: all pairs)
  --seed N          bootstrap seed
  --where COL=V     only the rows whose COL is V (V1|V2 for either); repeat to narrow further
  --json            print JSON records instead of a table
  --format F        csv|tsv|jsonl|json when the extension does not tell
`,
  chart: () => `evalframe chart — draw one chart

Usage:
  evalframe chart <scored.csv> --kind KIND --out chart.png|.svg|.json [options]

Kinds:
  box        score distribution per model (box plot with every score)
  histogram  histogram of a score per model
  mean       mean per model with its 95% CI (bootstrap; Wilson for 0/1 scores)
  scatter    factual vs semantic part of answer correctness
  heatmap    score per question and model
  paired     per-question differences of every pair of models (or --models A,B)
  wtl        wins, ties and losses per model pair (--baseline M)
  verdicts   TP / FP / FN statements per model
  sweep      pass rate by threshold per model
  relevance  multimodal relevance rate per model (a 0/1 score: multimodal_relevance,
             or a 0/1 --metric; for 0-1 scores use mean)

Options:
  --out FILE        .png, .svg or .json (the Vega-Lite spec) (required)
  --metric M        score column (default per kind: answer_correctness, or multimodal_relevance)
  --by COLUMN       model column (default model)
  --pair-by COLUMN  question column for heatmap and paired (default id)
  --models A,B      the two models of a paired chart (default every pair)
  --baseline M      compare every model with M (wtl)
  --where COL=V     only the rows whose COL is V (V1|V2 for either); repeat to narrow further
  --format F        csv|tsv|jsonl|json when the extension does not tell
`,
  report: () => `evalframe report — one self-contained HTML report

Usage:
  evalframe report <scored.csv> --out report.html [--title T] [--usage-json summary.json] [--previous old.csv]

The page holds the judge(s) (with a banner when the offline judge scored), the summary per
model, the model comparison, the charts, the lowest-scoring answers with their statements
and verdicts, and the failed rows. Vega is inlined: it opens without a network.

Options:
  --out FILE     the HTML file (required)
  --title T      page title (default "evalframe report")
  --worst N      lowest-scoring answers shown per model (default 3)
  --usage-json F the usage line from the JSON that evalframe score --summary-json wrote
  --previous F   an earlier scored run of the same data: adds "Change since the previous run"
                 (the change per model with CI and verdict, a chart, the answers that changed most)
  --where COL=V  only the rows (of --previous too) whose COL is V (V1|V2 for either); repeat to narrow further
  --format F     csv|tsv|jsonl|json when the extension does not tell
`,
};

/**
 * Help of each subcommand by name, each text made from the metric registry
 * when it is read; undefined for a name that is no subcommand.
 *
 * @example
 * COMMAND_HELP["diff"]?.startsWith("evalframe diff"); // true
 */
export const COMMAND_HELP: Readonly<Record<string, string>> = Object.defineProperties(
  Object.create(null) as Record<string, string>,
  Object.fromEntries(Object.entries(SUBCOMMAND_HELP).map(([name, text]) => [name, { get: text, enumerable: true }])),
);
