/**
 * The files a command reads and writes, checked before it does any work: an
 * output must not be a file the command reads, nor another of its outputs
 * (the same file under two names too, through a symbolic or hard link), and
 * its path must be writable: not a folder, in a folder that exists or can
 * be made, and that this user can write to. A problem is a usage error
 * (exit 2) naming the option and the path.
 */
import { accessSync, constants, realpathSync, statSync, type Stats } from "node:fs";
import * as path from "node:path";
import { writeTarget } from "../dataset/atomic-write";
import { errorText } from "../display/words";
import { UsageError } from "./errors";

/** A file of a command, as the user named it. */
export interface CommandFile {
  /** How the user gave it, for messages: the option ("--out") or what a positional argument is ("the input file"). */
  name: string;
  /** The path as given; undefined (an option not given) is skipped. */
  path: string | undefined;
  /** For an output: a file name to suggest in a folder given instead of a file, e.g. "scored.csv". */
  example?: string;
  /** For an output written as CSV whatever its name: a name that says another format is refused. */
  csv?: boolean;
}

/** Names of formats a CSV output must not be named as (a reader would take the file for one). */
const NOT_CSV: ReadonlyMap<string, string> = new Map([
  [".jsonl", "JSON Lines"],
  [".ndjson", "JSON Lines"],
  [".json", "JSON"],
  [".tsv", "TSV"],
  [".tab", "TSV"],
  [".xlsx", "Excel"],
  [".xls", "Excel"],
  [".parquet", "Parquet"],
]);

/** The files a command reads and writes. */
export interface CommandFiles {
  inputs: readonly CommandFile[];
  outputs: readonly CommandFile[];
}

/** What a path is now: stat through links; undefined when nothing is there. */
function statOf(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined; // a folder of the path is a file, or a link loops: nothing to read or write over
  }
}

/** The path with its existing folders' links resolved: two names of one file to be made compare equal. */
function canonical(absolute: string): string {
  const rest: string[] = [];
  for (let at = absolute; ; at = path.dirname(at)) {
    try {
      return path.join(realpathSync(at), ...rest.reverse());
    } catch {
      if (path.dirname(at) === at) return absolute;
      rest.push(path.basename(at));
    }
  }
}

/**
 * Which file a path is, to tell two names of one file: a regular file by
 * device and inode (links and hard links agree); a file not made yet by its
 * resolved path; undefined for what is not a regular file (a device, a FIFO,
 * /dev/stdout: written twice, they lose no file).
 */
function identity(file: string, output: boolean): string | undefined {
  const target = output ? writeTarget(file) : undefined;
  if (target !== undefined && target.how !== "replace") return undefined;
  const stats = statOf(file);
  if (stats !== undefined) return stats.isFile() ? `inode ${stats.dev}:${stats.ino}` : undefined;
  return output ? `path ${canonical(target!.path)}` : undefined; // an input not there is reported when it is read
}

/** The path for a message: as given, or both names when they differ. */
function sameFile(a: string, b: string): string {
  return a === b ? `"${a}"` : `("${a}" and "${b}")`;
}

/** A folder's name for a message. */
function folderName(dir: string): string {
  return dir === "." ? "the current folder" : `the folder "${dir}"`;
}

/**
 * Why `file` cannot be written, or undefined when it can: a folder, a path
 * through a file, a folder (the nearest that exists) this user cannot write.
 */
function unwritable(file: string, example: string | undefined): string | undefined {
  let target;
  try {
    target = writeTarget(file);
  } catch (error) {
    return errorText(error);
  }
  if (target.how === "stdout" || target.how === "stderr") return undefined;
  if (target.how === "in-place") {
    try {
      accessSync(file, constants.W_OK);
      return undefined;
    } catch {
      return "it is not writable";
    }
  }
  if (statOf(target.path)?.isDirectory()) {
    return `it is a folder; name a file in it${example !== undefined ? `, e.g. "${path.join(file, example)}"` : ""}`;
  }
  // "out/" names a folder: written as a file "out", it would surprise whoever looks for the folder.
  if (/[\\/]$/.test(file)) {
    return `it ends with "${file.at(-1)!}", so it names a folder, not a file; name a file in it${example !== undefined ? `, e.g. "${path.join(file, example)}"` : ""}`;
  }
  // The folders as the user wrote them, unless a link leads elsewhere: then those of its target.
  const through = target.path === path.resolve(file) ? file : target.path;
  const via = through === file ? "" : ` (where "${file}" leads)`;
  for (let dir = path.dirname(through); ; dir = path.dirname(dir)) {
    let stats: Stats | undefined;
    try {
      stats = statSync(dir, { throwIfNoEntry: false });
    } catch {
      stats = undefined; // a folder above is a file: found further up
    }
    if (stats !== undefined) {
      if (!stats.isDirectory()) return `"${dir}" is a file, not a folder; give a path inside a folder`;
      try {
        accessSync(dir, constants.W_OK);
        return undefined;
      } catch {
        const missing = path.dirname(through) === dir ? "" : `, so "${path.dirname(through)}" cannot be made in it`;
        return `${folderName(dir)}${via} is not writable${missing}; choose a folder you can write to`;
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Checks a command's outputs before it reads or scores anything: none is
 * the same file as an input (`score --out` over its input too) or as another
 * output, and each can be written; "-" (stdout elsewhere) is refused. Throws
 * a {@link UsageError} naming the options and the path.
 *
 * @example
 * checkCommandFiles("report", { inputs: [{ name: "the scored table", path: "scored.csv" }], outputs: [{ name: "--out", path: "scored.csv" }] });
 * // throws: report: --out and the scored table are the same file "scored.csv"; writing --out would overwrite it: give --out another path
 */
export function checkCommandFiles(command: string, files: CommandFiles): void {
  const given = (list: readonly CommandFile[]) => list.filter((f): f is CommandFile & { path: string } => f.path !== undefined && f.path !== "");
  const inputs = given(files.inputs).map((f) => ({ ...f, id: identity(f.path, false) }));
  const outputs = given(files.outputs);
  // "-" is not stdout here (the command prints its own summary there): a file named "-" is surely not what was meant.
  const dash = outputs.find((o) => o.path === "-");
  if (dash !== undefined) {
    throw new UsageError(
      `${command}: ${dash.name} "-": writing to stdout is not supported (the command prints its summary there); give a file path${dash.example !== undefined ? `, e.g. ${dash.name} ${dash.example}` : ""} (for a file named "-", write ./-)`,
      command,
    );
  }
  const seen: (CommandFile & { path: string; id: string | undefined })[] = [];
  for (const out of outputs) {
    let id: string | undefined;
    try {
      id = identity(out.path, true);
    } catch {
      id = undefined; // a path that cannot be looked at: reported below
    }
    if (id !== undefined) {
      const input = inputs.find((i) => i.id === id);
      if (input !== undefined) {
        throw new UsageError(
          `${command}: ${out.name} and ${input.name} are the same file ${sameFile(out.path, input.path)}; writing ${out.name} would overwrite it: give ${out.name} another path`,
          command,
        );
      }
      const other = seen.find((o) => o.id === id);
      if (other !== undefined) {
        throw new UsageError(
          `${command}: ${other.name} and ${out.name} are the same file ${sameFile(other.path, out.path)}; one would overwrite the other: give them different paths`,
          command,
        );
      }
    }
    seen.push({ ...out, id });
  }
  for (const out of outputs) {
    const format = out.csv ? NOT_CSV.get(path.extname(out.path).toLowerCase()) : undefined;
    if (format !== undefined) {
      const csvName = `${out.path.slice(0, out.path.length - path.extname(out.path).length)}.csv`;
      throw new UsageError(`${command}: ${out.name} "${out.path}" is named as ${format}, and evalframe writes it as CSV: name it "${csvName}"`, command);
    }
    const problem = unwritable(out.path, out.example);
    if (problem !== undefined) throw new UsageError(`${command}: ${out.name}: cannot write "${out.path}": ${problem}`, command);
  }
}
