/**
 * The architecture's two rules, checked on the import graph of src/: data
 * flows one way through the layers (nothing imports upward) and no file
 * imports itself back through others. docs/architecture.md draws the layers.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { tempDir } from "./support/files";
import { cycles, importGraph, upwardImports } from "./support/import-graph";

/** The layers from the bottom; a file belongs to the longest prefix it starts with. */
const LAYERS: readonly (readonly string[])[] = [
  ["dataset/", "display/html.ts", "display/tslab.ts", "display/words.ts", "display/width.ts"],
  ["stats/"],
  ["context/", "labels/"],
  ["judge/"],
  ["metrics/"],
  ["frame/"],
  ["display/", "batch/"],
  ["analysis/"],
  ["charts/"],
  ["report/"],
  ["cli/"],
  ["index.ts", "cli.ts"],
];

describe("layers of src/", () => {
  const graph = importGraph(path.join(__dirname, "..", "src"));

  it("reads the graph (every layer holds files, and imports were found)", () => {
    assert.ok(graph.size > 100);
    assert.ok(graph.get("frame/score.ts")!.includes("judge/create.ts"));
    assert.ok(graph.get("cli/score.ts")!.includes("cli/args.ts"));
    assert.ok(graph.get("cli/commands.ts")!.includes("cli/score.ts"));
  });

  it("has no upward import", () => {
    assert.deepEqual(upwardImports(graph, LAYERS), []);
  });

  it("has no import cycle", () => {
    assert.deepEqual(cycles(graph), []);
  });

  it("catches a deliberately bad import and a cycle in a fixture tree", () => {
    const root = tempDir();
    const writeText = (dir: string, name: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    };
    writeText(root, "dataset/load.ts", 'import { score } from "../frame/score";\nexport const load = score;\n');
    writeText(root, "frame/score.ts", 'export const score = 1;\n// import { load } from "../dataset/load"; (a comment is not an import)\n');
    writeText(root, "judge/a.ts", 'export { b } from "./b";\nexport const a = 1;\n');
    writeText(root, "judge/b.ts", 'import type { a } from "./a";\nexport const b: typeof a = 2;\n');
    writeText(root, "judge/c.ts", 'const lazy = () => require("../metrics/m") as unknown;\nexport { lazy };\n');
    writeText(root, "metrics/m.ts", "export const m = 1;\n");
    const fixture = importGraph(root);
    assert.deepEqual(upwardImports(fixture, LAYERS), ["dataset/load.ts -> frame/score.ts", "judge/c.ts -> metrics/m.ts"]);
    assert.deepEqual(cycles(fixture), [["judge/a.ts", "judge/b.ts"]]);
  });
});
