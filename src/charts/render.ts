/**
 * Chart rendering: compile Vega-Lite with vega-lite (warnings collected),
 * render headless in Node with vega (`renderer: "none"`) to SVG, rasterise
 * with @resvg/resvg-js to PNG, and show specs in a tslab notebook.
 *
 * vega and vega-lite are ES modules with top-level await: they are loaded
 * with a real dynamic `import()`, which this CommonJS build keeps.
 */
import * as path from "node:path";
import { writeFileAtomic } from "../dataset/atomic-write";
import type { VegaLiteSpec } from "./spec";
import { chartText } from "./text";

/** The part of vega-lite we use. */
interface VegaLiteModule {
  compile(spec: unknown, options: { logger: unknown }): { spec: unknown };
}

/** The part of vega we use. */
interface VegaModule {
  parse(spec: unknown): unknown;
  View: new (runtime: unknown, options: { renderer: "none" }) => { toSVG(): Promise<string>; finalize(): void };
}

let vegaLite: Promise<VegaLiteModule> | undefined;
let vega: Promise<VegaModule> | undefined;

/** Loads vega-lite once. */
function loadVegaLite(): Promise<VegaLiteModule> {
  vegaLite ??= import("vega-lite") as unknown as Promise<VegaLiteModule>;
  return vegaLite;
}

/** Loads vega once. */
function loadVega(): Promise<VegaModule> {
  vega ??= import("vega") as unknown as Promise<VegaModule>;
  return vega;
}

/** A compiled chart: the Vega spec and every warning vega-lite raised. */
export interface CompiledChart {
  vega: Record<string, unknown>;
  warnings: string[];
}

/**
 * Compiles a Vega-Lite spec with vega-lite, collecting its warnings (a chart
 * builder that makes vega-lite warn is a bug: the tests treat any warning as
 * a failure).
 *
 * @example
 * const { vega, warnings } = await compileChart(scoreBox(scored)); // warnings: []
 */
export async function compileChart(spec: VegaLiteSpec): Promise<CompiledChart> {
  const vl = await loadVegaLite();
  const warnings: string[] = [];
  let level = 0;
  const logger = {
    level(value?: number) {
      if (value === undefined) return level;
      level = value;
      return logger;
    },
    error(...args: readonly unknown[]) {
      throw new Error(`vega-lite: ${args.map(String).join(" ")}`);
    },
    warn(...args: readonly unknown[]) {
      warnings.push(args.map(String).join(" "));
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  const { spec: compiled } = vl.compile(spec, { logger });
  return { vega: compiled as unknown as Record<string, unknown>, warnings };
}

/** Characters XML 1.0 does not allow (C0 controls but tab, line feed and carriage return; lone surrogates; U+FFFE, U+FFFF). */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** SVG text with every character XML does not allow replaced as {@link chartText} replaces it. */
function xmlSafe(svg: string): string {
  NOT_XML.lastIndex = 0;
  return NOT_XML.test(svg) ? svg.replace(NOT_XML, (c) => chartText(c)) : svg;
}

/**
 * Renders a chart to SVG text, headless (no browser). The text is always
 * well-formed XML: a character XML does not allow (e.g. ESC in a label of a
 * hand-made spec) is written as a visible escape (`\x1b`; see {@link chartText}).
 *
 * @example
 * const svg = await toSVG(scoreBox(scored));
 */
export async function toSVG(spec: VegaLiteSpec): Promise<string> {
  const [{ vega: compiled }, vg] = await Promise.all([compileChart(spec), loadVega()]);
  const view = new vg.View(vg.parse(compiled), { renderer: "none" });
  try {
    // The builders' specs hold no control character (finishSpec); a hand-made spec may: keep the SVG well-formed XML.
    return xmlSafe(await view.toSVG());
  } finally {
    view.finalize();
  }
}

/** Options of {@link toPNG}. */
export interface PngOptions {
  /** Pixel density; 2 gives a sharp image on high-DPI screens. Default 2. */
  scale?: number;
  /** Font used where the chart asks for none or an unavailable one; default "DejaVu Sans". */
  defaultFontFamily?: string;
}

/**
 * Renders a chart to PNG bytes, headless: vega's SVG rasterised by resvg with
 * the system fonts (without them no text would be drawn).
 *
 * @example
 * await writeFile("box.png", await toPNG(scoreBox(scored), { scale: 2 }));
 */
export async function toPNG(spec: VegaLiteSpec, options: PngOptions = {}): Promise<Buffer> {
  const svg = await toSVG(spec);
  const { Resvg } = await import("@resvg/resvg-js");
  const scale = options.scale ?? 2;
  if (!(scale > 0 && scale <= 10)) throw new RangeError(`scale must be between 0 and 10, got ${scale}`);
  const resvg = new Resvg(svg, {
    background: "white",
    fitTo: { mode: "zoom", value: scale },
    font: { loadSystemFonts: true, defaultFontFamily: options.defaultFontFamily ?? "DejaVu Sans", sansSerifFamily: options.defaultFontFamily ?? "DejaVu Sans" },
  });
  return resvg.render().asPng();
}

/**
 * Saves a chart as `.svg`, `.png` or `.json` (the Vega-Lite spec), by the
 * file's extension, creating the folder if needed.
 *
 * @example
 * await saveChart(meanWithCI(summary), "out/means.png");
 */
export async function saveChart(spec: VegaLiteSpec, file: string, options: PngOptions = {}): Promise<void> {
  const ext = path.extname(file).toLowerCase();
  let body: string | Buffer;
  if (ext === ".svg") body = await toSVG(spec);
  else if (ext === ".png") body = await toPNG(spec, options);
  else if (ext === ".json") body = `${JSON.stringify(spec, null, 2)}\n`;
  else throw new Error(`saveChart: cannot tell the format of "${file}"; use .svg, .png or .json`);
  await writeFileAtomic(file, body);
}
