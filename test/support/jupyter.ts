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

/** One cell for {@link runInKernel}: its source, and when to press the kernel's interrupt while it runs. */
export interface KernelCell {
  source: string;
  /** Interrupt the kernel (SIGINT, as Jupyter's ■ button) this long after the cell was sent. */
  interruptAfterMs?: number;
}

/** What one cell of {@link runInKernel} gave: its status, its outputs' text, and when an interrupt was sent (ms since the epoch). */
export interface KernelCellRun {
  status: string;
  text: string;
  interruptedAt?: number;
}

/** Drives a tslab kernel cell by cell with jupyter_client, as a person at the notebook does: one cell after the other finished, a pause between them. */
const KERNEL_DRIVER = String.raw`
import json, sys, time
from jupyter_client.manager import start_new_kernel
cells = json.load(sys.stdin)
km, kc = start_new_kernel(kernel_name="tslab", cwd=sys.argv[1])
runs = []
try:
    for cell in cells:
        time.sleep(1)  # a person's pause: tslab cancels what arrives within 200 ms of an error
        msg_id = kc.execute(cell["source"])
        started = time.time()
        interrupt = cell.get("interruptAfterMs")
        run = {"text": ""}
        while True:
            if interrupt is not None and "interruptedAt" not in run and (time.time() - started) * 1000 >= interrupt:
                run["interruptedAt"] = int(time.time() * 1000)
                km.interrupt_kernel()
            try:
                msg = kc.get_iopub_msg(timeout=0.1)
            except Exception:
                if time.time() - started > 300:
                    raise
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                run["text"] += content["text"]
            elif kind in ("display_data", "update_display_data", "execute_result"):
                run["text"] += str(content["data"].get("text/plain", "")) + "\n"
            elif kind == "error":
                run["text"] += content["ename"] + ": " + content["evalue"] + "\n"
            elif kind == "status" and content["execution_state"] == "idle":
                break
        reply = kc.get_shell_msg(timeout=30)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = kc.get_shell_msg(timeout=30)
        run["status"] = reply["content"]["status"]
        runs.append(run)
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
print(json.dumps(runs))
`;

/**
 * Runs cells in a fresh tslab kernel whose working directory is `cwd`, one
 * after another, interrupting where a cell asks; does not block the event
 * loop (a fake server in the test's process answers meanwhile).
 */
export async function runInKernel(cells: readonly KernelCell[], cwd: string): Promise<KernelCellRun[]> {
  ensureTslabKernel();
  const { spawn } = await import("node:child_process");
  const child = spawn(PYTHON, ["-c", KERNEL_DRIVER, cwd], { env: jupyterEnv() });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(JSON.stringify(cells));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (status !== 0) throw new Error(`the kernel driver failed (${status}): ${stderr}`);
  return JSON.parse(stdout) as KernelCellRun[];
}
