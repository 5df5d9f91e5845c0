/**
 * The package root stays small, and what the README and the notebooks teach
 * comes from it: at most 60 values at the root ([D] 2), and every name
 * their code imports from the package ("evalframe", or "../dist" in this
 * repository) is a root export, a value or a type. The advanced pieces are
 * under the subpaths package.json exports, each named in the README.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";

const ROOT = path.join(__dirname, "..");

/** Every name src/index.ts exports, types included (it exports by name only, never `export *`). */
function rootNames(): Set<string> {
  const source = readFileSync(path.join(ROOT, "src", "index.ts"), "utf8");
  assert.ok(!/export \*/.test(source), "src/index.ts exports by name");
  const names = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const part of m[1]!.split(",")) {
      const name = part.replace(/^\s*type\s+/, "").split(/\s+as\s+/).pop()!.trim();
      if (name !== "") names.add(name);
    }
  }
  return names;
}

/** The names a text imports from the package, with where: `import { a, type B } from "evalframe"` (or "../dist"). */
function packageImports(text: string, where: string): { name: string; where: string }[] {
  const found: { name: string; where: string }[] = [];
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'](evalframe|\.\.\/dist)["']/g)) {
    for (const part of m[1]!.split(",")) {
      const name = part.replace(/^\s*type\s+/, "").split(/\s+as\s+/)[0]!.trim();
      // Prose may write `import { … } from "evalframe"`: only identifiers are names.
      if (/^[A-Za-z_$][\w$]*$/.test(name)) found.push({ name, where });
    }
  }
  return found;
}

/** The code of a notebook's cells, joined. */
function notebookCode(file: string): string {
  const notebook = JSON.parse(readFileSync(file, "utf8")) as { cells: { cell_type: string; source: string | string[] }[] };
  return notebook.cells
    .filter((c) => c.cell_type === "code")
    .map((c) => (Array.isArray(c.source) ? c.source.join("") : c.source))
    .join("\n");
}

describe("the public API", () => {
  it("the package root exports at most 60 values", () => {
    const values = Object.keys(require("../src/index") as object);
    assert.ok(values.length <= 60, `${values.length} values: ${values.join(", ")}`);
    const declared = rootNames();
    for (const name of values) assert.ok(declared.has(name), `${name} is exported at run time but not by name in src/index.ts`);
  });

  it("the README and the notebooks import only root names", () => {
    const names = rootNames();
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const dir = path.join(ROOT, "notebooks");
    const imports = [
      ...packageImports(readme, "README.md"),
      ...readdirSync(dir)
        .filter((f) => f.endsWith(".ipynb"))
        .flatMap((f) => packageImports(notebookCode(path.join(dir, f)), `notebooks/${f}`)),
    ];
    assert.ok(imports.length >= 20, `found the imports (${imports.length})`);
    const outside = imports.filter((i) => !names.has(i.name)).map((i) => `${i.name} (${i.where})`);
    assert.deepEqual(outside, []);
  });

  it("every subpath of package.json's exports is documented and has its module, and the advanced names live there", () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { exports: Record<string, { default?: string } | string> };
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const reachable = new Map<string, string>();
    const subpaths = Object.entries(manifest.exports).filter(([key]) => key !== "." && key !== "./package.json");
    assert.ok(subpaths.length >= 10, `${subpaths.length} subpaths`);
    for (const [key, target] of subpaths) {
      const built = typeof target === "string" ? target : target.default!;
      const source = path.join(ROOT, built.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
      const values = Object.keys(require(source) as object);
      assert.ok(values.length > 0, `${key} (${source}) exports nothing`);
      const name = `evalframe/${key.slice(2)}`;
      assert.ok(readme.includes(name), `the README does not name ${name}`);
      for (const v of values) if (!reachable.has(v)) reachable.set(v, name);
    }
    // What the root used to export and a user may still want (issue [D]): under a subpath now.
    for (const name of ["Scheduler", "cacheKey", "stableJson", "bmpToPng", "mulberry32", "erf"]) {
      assert.ok(reachable.has(name), `${name} is under no subpath`);
    }
  });

  it("tells a name outside the root from one in it", () => {
    const names = rootNames();
    const imports = packageImports('import { loadDataset, type VegaLiteSpec, Scheduler } from "evalframe";', "example");
    assert.deepEqual(
      imports.filter((i) => !names.has(i.name)).map((i) => i.name),
      ["Scheduler"],
    );
  });
});
