/**
 * Access to tslab's display functions when our code runs inside a tslab
 * kernel, found without making tslab a dependency: first as a package next to
 * evalframe, then next to the running kernel.
 */
import { realpathSync } from "node:fs";
import * as path from "node:path";

/** The part of tslab's `Display` we use. */
export interface NotebookDisplay {
  text(s: string): void;
  html(s: string): void;
  markdown(s: string): void;
  svg(s: string): void;
  png(b: Uint8Array): void;
  raw(contentType: string, data: string | Uint8Array): void;
}

interface TslabModule {
  display: NotebookDisplay;
  newDisplay(): NotebookDisplay;
}

type WriteDisplayData = (message: { data: Record<string, unknown>; metadata: Record<string, unknown>; transient: Record<string, unknown> }, update: boolean) => void;

let jupyterModule: { lastWriteDisplayData?: WriteDisplayData | null } | undefined;

let cached: TslabModule | null | undefined;

function load(from: string | undefined): TslabModule | undefined {
  try {
    const options = from === undefined ? undefined : { paths: [from] };
    const jupyter = require(require.resolve("tslab/dist/jupyter", options)) as { lastWriteDisplayData?: WriteDisplayData | null };
    if (jupyter.lastWriteDisplayData == null) return undefined;
    jupyterModule = jupyter;
    return require(require.resolve("tslab", options)) as TslabModule;
  } catch {
    return undefined;
  }
}

/** tslab's display module when running inside a tslab kernel, else undefined. */
export function tslab(): TslabModule | undefined {
  if (cached !== undefined) return cached ?? undefined;
  let found = load(undefined);
  const script = process.argv[1];
  if (!found && script) {
    try {
      found = load(path.dirname(realpathSync(script)));
    } catch {
      found = undefined;
    }
  }
  // Only remember a success: the kernel may not be ready on the first call.
  if (found) cached = found;
  return found;
}

/** True inside a tslab notebook kernel. */
export function inNotebook(): boolean {
  return tslab() !== undefined;
}

/**
 * Sends one output with several MIME types at once (e.g. a Vega-Lite spec and
 * its PNG), so that each front end shows the richest one it can. Returns
 * false outside a notebook.
 */
export function displayBundle(bundle: Record<string, unknown>): boolean {
  if (!tslab()) return false;
  const write = jupyterModule?.lastWriteDisplayData;
  if (typeof write !== "function") return false;
  write({ data: bundle, metadata: {}, transient: {} }, false);
  return true;
}
