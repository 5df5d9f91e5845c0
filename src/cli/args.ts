/**
 * Command-line arguments: `node:util` parseArgs in strict mode, its errors
 * turned into one-line usage errors, and checked conversions of option
 * values (numbers, lists, choices).
 */
import { decimalText, wholeNumberText } from "../dataset/number-text";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { DatasetFormat } from "../dataset/load";
import { UsageError } from "./errors";
import { errorText } from "../display/words";

/** An option of a subcommand. */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** The option may be given more than once (read it with {@link stringList}). */
  multiple?: boolean;
}

/** Parsed arguments: positionals and option values by name. */
export interface ParsedArgs {
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
}

/** Options every subcommand takes. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  help: { type: "boolean", short: "h" },
};

/**
 * Parses `argv` for a subcommand: unknown options, missing values and
 * repeated-value problems become a {@link UsageError} naming the option.
 */
export function parseCommand(command: string, argv: readonly string[], options: Record<string, OptionSpec>): ParsedArgs {
  try {
    const args = negativeValues(argv, options);
    const { values, positionals } = parseArgs({ args, options: { ...COMMON_OPTIONS, ...options }, strict: true, allowPositionals: true });
    return { positionals, values: values as ParsedArgs["values"] };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const raw = errorText(error);
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const option = /'([^']+)'/.exec(raw)?.[1] ?? raw;
      const near = closestOption(option, Object.keys({ ...COMMON_OPTIONS, ...options }));
      throw new UsageError(`${command}: unknown option ${option}${near ? `; did you mean --${near}?` : ""}`, command);
    }
    if (code.startsWith("ERR_PARSE_ARGS")) {
      const first = (raw.split(/\.\s/)[0] ?? raw).replace(/^Option/, "option");
      const option = /'(--[^' ]+)/.exec(first)?.[1];
      const hint = /ambiguous/.test(first) && option ? `; for a value that starts with "-", write ${option}=VALUE` : "";
      throw new UsageError(`${command}: ${first}${hint}`, command);
    }
    throw error;
  }
}

/**
 * `--option -0.05` read as `--option=-0.05` for an option that takes a
 * value: node's parser takes a value that starts with "-" for another
 * option, and a negative number is a usual value of some (a change, a gate).
 */
function negativeValues(argv: readonly string[], options: Record<string, OptionSpec>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const takesValue = arg.startsWith("--") && options[arg.slice(2)]?.type === "string";
    if (takesValue && next !== undefined && /^-(?:\d|\.\d)/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** The known option nearest to a mistyped one (at most 2 edits, or a prefix of it), if any. */
function closestOption(typed: string, known: readonly string[]): string | undefined {
  const name = typed.replace(/^-+/, "").replace(/=.*$/, "");
  let best: { option: string; distance: number } | undefined;
  for (const option of known) {
    const distance = option.startsWith(name) && name.length >= 3 ? 1 : editDistance(name, option);
    if (distance <= 2 && (!best || distance < best.distance)) best = { option, distance };
  }
  return best?.option;
}

/** Levenshtein distance with adjacent swaps counted as one edit ("weigths" → "weights"). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

export { counted } from "../display/words";

/** A string option's value, or undefined. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === "string" ? v : undefined;
}

/**
 * The values of a string option that may be repeated and comma-separated
 * (`--labels a.jsonl --labels b.jsonl,c.jsonl`), empty items dropped;
 * undefined when the option is absent.
 */
export function stringList(args: ParsedArgs, name: string): string[] | undefined {
  const v = args.values[name];
  if (v === undefined || typeof v === "boolean") return undefined;
  return (Array.isArray(v) ? v : [v]).flatMap((item) => list(item) ?? []);
}

/** A boolean option's value. */
export function flag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** The one input file of a subcommand. */
export function onePositional(command: string, args: ParsedArgs, what: string): string {
  if (args.positionals.length === 0) throw new UsageError(`${command}: give the ${what}`, command);
  if (args.positionals.length > 1) {
    throw new UsageError(`${command}: expected one ${what}, got ${args.positionals.length}: ${args.positionals.join(" ")}`, command);
  }
  return args.positionals[0]!;
}

/** A required string option. */
export function requiredOption(command: string, args: ParsedArgs, name: string, example: string): string {
  const v = stringOption(args, name);
  if (v === undefined || v.trim() === "") throw new UsageError(`${command}: --${name} is required, e.g. --${name} ${example}`, command);
  return v;
}

/** Bounds and an example value of a numeric option, for {@link wholeNumber}. */
export interface WholeNumberRange {
  /** The largest value allowed; default the largest whole number a double holds exactly (9007199254740991). */
  max?: number;
  /** A value to show in the message, e.g. "8" for `--concurrency 8`; default `min`, or 10 when that is 0. */
  example?: string;
}

/**
 * A whole number from `min` to `max`, written in plain digits only ("8";
 * not " 8", "+8", "8.0" or "1e3"). Anything else is a usage error (exit 2)
 * naming the option, the allowed range, the value given and an example.
 */
export function wholeNumber(command: string, name: string, text: string | undefined, min: number, range: WholeNumberRange = {}): number | undefined {
  if (text === undefined) return undefined;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  const value = wholeNumberText(text, min, max);
  if (value === undefined) {
    const example = range.example ?? String(min === 0 ? 10 : min);
    throw new UsageError(`${command}: --${name} must be a whole number from ${min} to ${max}, in digits only (e.g. --${name} ${example}); got ${JSON.stringify(text)}`, command);
  }
  return value;
}

/** Bounds and an example value of a numeric option, for {@link finiteNumber}. */
export interface NumberRange {
  min?: number;
  max?: number;
  /** The value must be greater than this. */
  above?: number;
  /** A value to show in the message, e.g. "0.8" for `--fail-under 0.8`. */
  example?: string;
}

/** An example value within a range, for messages: the middle of [min, max], else the lower bound plus one, else 1. */
function exampleIn(range: NumberRange): string {
  const low = range.min ?? range.above;
  if (range.min !== undefined && range.max !== undefined) return String((range.min + range.max) / 2);
  if (low !== undefined) return String(low + 1);
  return range.max !== undefined ? String(range.max - 1) : "1";
}

/**
 * A finite plain decimal number ("0.8", ".5", "-0.1", "12"; not " 0.8",
 * "+0.8", "1e-3", "0x1" or "Infinity"), optionally within [min, max] or
 * above a bound. Anything else is a usage error (exit 2) naming the option,
 * the allowed range, the value given and an example.
 */
export function finiteNumber(command: string, name: string, text: string | undefined, range: NumberRange = {}): number | undefined {
  if (text === undefined) return undefined;
  const value = decimalText(text) ?? Number.NaN;
  const bounds = [
    range.above !== undefined ? `greater than ${range.above}` : undefined,
    range.min !== undefined ? `at least ${range.min}` : undefined,
    range.max !== undefined ? `at most ${range.max}` : undefined,
  ].filter(Boolean);
  const fail = () =>
    new UsageError(`${command}: --${name} must be a number${bounds.length ? ` ${bounds.join(" and ")}` : ""}, written as a plain decimal (e.g. --${name} ${range.example ?? exampleIn(range)}); got ${JSON.stringify(text)}`, command);
  if (!Number.isFinite(value)) throw fail();
  if (range.above !== undefined && !(value > range.above)) throw fail();
  if (range.min !== undefined && value < range.min) throw fail();
  if (range.max !== undefined && value > range.max) throw fail();
  return value;
}

/** A comma-separated list (empty items dropped); undefined when the option is absent. */
export function list(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** One of a fixed set of values. */
export function choice<T extends string>(command: string, name: string, text: string | undefined, allowed: readonly T[]): T | undefined {
  if (text === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(text)) {
    throw new UsageError(`${command}: --${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(text)}`, command);
  }
  return text as T;
}

/** Input formats by extension, as `loadDataset` reads them. */
const FORMATS: Readonly<Record<string, DatasetFormat>> = { ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json" };

/** The input format: `--format`, else from the extension; a usage error when neither tells. */
export function inputFormat(command: string, file: string, format: string | undefined): DatasetFormat {
  const chosen = choice(command, "format", format, ["csv", "tsv", "jsonl", "json"] as const);
  if (chosen) return chosen;
  const byExtension = FORMATS[path.extname(file).toLowerCase()];
  if (!byExtension) {
    throw new UsageError(`${command}: cannot tell the format of "${file}" from its extension; use .csv, .tsv, .jsonl or .json, or give --format`, command);
  }
  return byExtension;
}
