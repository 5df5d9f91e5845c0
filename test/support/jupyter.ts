/**
 * Real Jupyter for tests: registers the tslab kernel inside the project
 * (.jupyter/) when it is missing, and executes notebooks through
 * scripts/run_notebook.py, which prints a failing cell's real stderr.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

/** The repository root. */
export const ROOT = path.resolve(__dirname, "..", "..");
const PYTHON = "/usr/bin/python3";
const JUPYTER_PATH = path.join(ROOT, ".jupyter", "share", "jupyter");
const TSLAB = path.join(ROOT, "node_modules", ".bin", "tslab");

/**
 * Environment in which Jupyter finds the project's tslab kernel and node
 * tools, without a judge key, server or other judge setting: the notebooks' committed outputs are
 * the keyless ones (hand labels), whatever the machine running the tests has set.
 */
export function jupyterEnv(): NodeJS.ProcessEnv {
  // No judge settings of the machine's (OPENAI_*, EVALFRAME_*) reach the notebooks.
  const rest = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(OPENAI|EVALFRAME)_/.test(name)));
  return {
    ...rest,
    JUPYTER_PATH,
    PATH: `${path.join(ROOT, "node_modules", ".bin")}${path.delimiter}${process.env["PATH"] ?? ""}`,
  };
}

/** Registers the tslab kernel under .jupyter/ unless a working registration is there. */
export function ensureTslabKernel(): void {
  const spec = path.join(JUPYTER_PATH, "kernels", "tslab", "kernel.json");
  if (existsSync(spec)) {
    const argv = (JSON.parse(readFileSync(spec, "utf8")) as { argv: string[] }).argv;
    if (argv[0] === TSLAB) return;
  }
  const result = spawnSync(
    TSLAB,
    ["install", `--python=${PYTHON}`, `--binary=${TSLAB}`, `--prefix=${path.join(ROOT, ".jupyter")}`],
    { encoding: "utf8" },
  );
  if (result.status !== 0) {
    throw new Error(`could not register the tslab kernel: ${result.stderr || result.stdout || result.error?.message}`);
  }
}

/** What executing one notebook gave. */
export interface NotebookRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The executed copy, with its outputs. */
  executed: string;
}

/** Executes a notebook with its folder as working directory; the copy goes to `outDir`. */
export function runNotebook(notebook: string, outDir: string): NotebookRun {
  const result = spawnSync(PYTHON, [path.join(ROOT, "scripts", "run_notebook.py"), notebook, outDir, "--timeout", "600"], {
    encoding: "utf8",
    env: jupyterEnv(),
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr + (result.error ? String(result.error) : ""),
    executed: path.join(outDir, path.basename(notebook)),
  };
}

/** A notebook's cells with their outputs. */
export interface NotebookCell {
  cell_type: string;
  source: string | string[];
  outputs?: { output_type: string; name?: string; text?: string | string[]; data?: Record<string, unknown> }[];
}

/** Reads a notebook's cells. */
export function readCells(notebook: string): NotebookCell[] {
  return (JSON.parse(readFileSync(notebook, "utf8")) as { cells: NotebookCell[] }).cells;
}

/** All text a notebook printed (stdout and stderr streams, text/plain and text/html results). */
export function outputText(cells: readonly NotebookCell[]): string {
  const join = (t: unknown): string => (Array.isArray(t) ? t.join("") : typeof t === "string" ? t : "");
  return cells
    .flatMap((c) => c.outputs ?? [])
    .map((o) => join(o.text) + join(o.data?.["text/plain"]) + join(o.data?.["text/html"]))
    .join("\n");
}
