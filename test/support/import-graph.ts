/**
 * The import graph of a source tree, read from the files' text (static
 * imports and re-exports, `import type`, `require("…")` and `import("…")` of
 * relative paths), and the two rules the architecture holds it to: no cycle
 * between files, and no import from a lower layer to a higher one.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

/** Files (relative to the root, with "/") and the files each imports. */
export type ImportGraph = Map<string, string[]>;

const IMPORT = /(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*)["'](\.{1,2}\/[^"']+)["']/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolve(from: string, spec: string): string | undefined {
  const base = path.join(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, "index.ts"), base]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next
    }
  }
  return undefined;
}

/** Reads the import graph of every .ts file under `root`. */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sources(root)) {
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, "$1");
    const targets = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const target = resolve(file, m[1]!);
      if (target !== undefined) targets.add(path.relative(root, target).split(path.sep).join("/"));
    }
    graph.set(path.relative(root, file).split(path.sep).join("/"), [...targets].sort());
  }
  return graph;
}

/** Every cycle's files, one list per strongly connected group of two or more files (or a file that imports itself). */
export function cycles(graph: ImportGraph): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, order.get(w)!));
      }
    }
    if (low.get(v) === order.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

/**
 * The imports that go up: `layers` lists the layers from the bottom, each a
 * path prefix (a folder "judge/" or a file "display/html.ts"); a file belongs
 * to the longest prefix it starts with. Imports within a layer are fine.
 */
export function upwardImports(graph: ImportGraph, layers: readonly (readonly string[])[]): string[] {
  const rank = (file: string): number => {
    let best = -1;
    let length = -1;
    layers.forEach((prefixes, r) => {
      for (const p of prefixes) if (file.startsWith(p) && p.length > length) [best, length] = [r, p.length];
    });
    if (best < 0) throw new Error(`${file} is in no layer; add it to the layer list`);
    return best;
  };
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) if (rank(target) > rank(file)) found.push(`${file} -> ${target}`);
  }
  return found;
}
