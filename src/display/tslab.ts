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

/**
 * Text with each lone surrogate (half of a character beyond U+FFFF, from a
 * JSON file's "\\ud800" escape, say) replaced by U+FFFD: Jupyter cannot
 * save a notebook whose outputs hold one ("surrogates not allowed"), and
 * would write the file empty.
 */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

/** A display whose text outputs are made {@link wellFormed} first. */
function wellFormedDisplay(display: NotebookDisplay): NotebookDisplay {
  return {
    text: (s) => display.text(wellFormed(s)),
    html: (s) => display.html(wellFormed(s)),
    markdown: (s) => display.markdown(wellFormed(s)),
    svg: (s) => display.svg(wellFormed(s)),
    png: (b) => display.png(b),
    raw: (contentType, data) => display.raw(contentType, typeof data === "string" ? wellFormed(data) : data),
  };
}

/** The module with its displays made safe to save (see {@link wellFormed}). */
function wellFormedModule(module: TslabModule): TslabModule {
  return { display: wellFormedDisplay(module.display), newDisplay: () => wellFormedDisplay(module.newDisplay()) };
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
  if (found) cached = wellFormedModule(found);
  return cached ?? undefined;
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
  // Every text in it, a chart's data values too (JSON.stringify would only escape a lone surrogate, not mend it).
  const data = JSON.parse(JSON.stringify(bundle), (_key, value: unknown) => (typeof value === "string" ? wellFormed(value) : value)) as Record<string, unknown>;
  write({ data, metadata: {}, transient: {} }, false);
  return true;
}
