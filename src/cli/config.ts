/**
 * `evalframe config`: the judge settings that `score` would use with the same
 * flags and environment, each with where it came from, keys masked. Light on
 * purpose: no danfojs, no HTTP client.
 */
import { displayWidth } from "../display/width";
import { describeJudgeConfig, type EnvironmentVariables, type JudgeSettingRow } from "../judge/config";
import { flag, parseCommand, type OptionSpec } from "./args";
import type { CliIO } from "./command";
import { UsageError } from "./errors";
import { JUDGE_OPTIONS, judgeFlags } from "./judge-flags";

const b: OptionSpec = { type: "boolean" };

/** Rows as aligned plain text: a header, a line of dashes, one line each. */
function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, j) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[j]!))));
  const line = (cells: readonly string[]) => cells.map((cell, j) => cell + " ".repeat(widths[j]! - displayWidth(cell))).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/**
 * `evalframe config`: prints the resolved judge settings (table, or `--json`)
 * with the source of each: a flag, an environment variable or the default.
 *
 * @param env where environment settings are read (default `process.env`).
 */
export async function configCommand(argv: readonly string[], io: CliIO, env: EnvironmentVariables = process.env): Promise<number> {
  const c = "config";
  const args = parseCommand(c, argv, { ...JUDGE_OPTIONS, json: b });
  if (args.positionals.length > 0) throw new UsageError(`${c}: takes no file, only judge flags; got ${args.positionals.join(" ")}`, c);
  const { config, flags, labels, warning } = await judgeFlags(c, args, env);
  if (warning !== undefined) io.err(`${warning}\n`);
  const rows: JudgeSettingRow[] = describeJudgeConfig(config, flags);
  if (flag(args, "json")) {
    // Numbers as numbers, for scripts (the table shows them as text: "the server's limit").
    const numbers: Partial<Record<string, number | null>> = { concurrency: config.concurrency, maxTokens: config.maxTokens ?? null, timeoutMs: config.timeoutMs };
    const body = {
      ...Object.fromEntries(rows.map((r) => [r.setting, { value: r.setting in numbers ? numbers[r.setting] : r.value, from: r.from }])),
      ...(labels !== undefined ? { labels: { value: labels, from: "--labels" } } : {}),
    };
    io.out(`${JSON.stringify(body, null, 2)}\n`);
    return 0;
  }
  const table = rows.map((r) => [r.name, r.value, r.from]);
  if (labels !== undefined) table.splice(1, 0, ["labels", labels.join(", "), "--labels"]);
  io.out(`${textTable(["setting", "value", "from"], table)}\n\n`);
  if (config.kind === "offline") {
    io.out(
      config.sources.judge === "default"
        ? "No API key or base URL is set, so the offline judge (approximate) scores; set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server) to use a real model.\n"
        : "The offline judge uses no server: the model, URL and key settings apply to --judge openai.\n",
    );
  } else if (config.kind === "labels") {
    io.out("The labels judge replays the label files: the model, URL and key settings apply to --judge openai.\n");
  }
  io.out("Each setting comes from its flag, else its EVALFRAME_* variable, else OPENAI_* (key and base URL), else the default.\n");
  return 0;
}
