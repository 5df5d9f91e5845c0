/**
 * What the HTML report inlines: the vega, vega-lite and vega-embed browser
 * builds from node_modules, and JSON data, each made safe to sit inside a
 * `<script>` element (nothing in them can close the element early).
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

/** The browser builds the report inlines, in load order. */
export const CHART_LIBRARIES = [
  { name: "vega", file: "build/vega.min.js" },
  { name: "vega-lite", file: "build/vega-lite.min.js" },
  { name: "vega-embed", file: "build/vega-embed.min.js" },
] as const;

/**
 * The folder of an installed package. These packages' `exports` do not
 * expose `package.json`, so `require.resolve("vega/package.json")` fails:
 * look in the folders Node itself would search, then walk up from the
 * package's resolved entry point.
 */
export function packageDir(name: string): string {
  for (const base of require.resolve.paths(name) ?? []) {
    const dir = path.join(base, name);
    if (existsSync(path.join(dir, "package.json"))) return dir;
  }
  let dir = path.dirname(require.resolve(name));
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown };
      if (parsed.name === name) return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the installed package "${name}"; run npm install`);
    dir = parent;
  }
}

/**
 * JavaScript made safe to inline in a `<script>` element: `</script` becomes
 * `<\/script` and `<!--` becomes `\x3c!--` (both mean the same inside JS
 * strings and regular expressions, where such text can occur in minified
 * code), so the HTML parser cannot end the element early or enter its
 * "double escaped" state.
 */
export function scriptSafe(code: string): string {
  return code.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "\\x3c!--");
}

/**
 * JSON text safe inside `<script type="application/json">`: `<`, `>` and `&`
 * (and the JS line separators) written as `\u` escapes, which `JSON.parse`
 * reads back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

let cached: { name: string; code: string }[] | undefined;

/** The three libraries' code, read once per process and made script-safe. */
export function chartLibraries(): { name: string; code: string }[] {
  cached ??= CHART_LIBRARIES.map(({ name, file }) => {
    const full = path.join(packageDir(name), file);
    let code: string;
    try {
      code = readFileSync(full, "utf8");
    } catch (error) {
      throw new Error(`cannot read ${name}'s browser build at ${full} (${(error as Error).message}); run npm install`);
    }
    return { name, code: scriptSafe(code) };
  });
  return cached;
}
