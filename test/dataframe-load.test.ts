/**
 * The first DataFrame does not load mathjs, xlsx or request: danfojs calls
 * them only for a few statistics, Excel files and files from URLs, and
 * those still work (the module loads then). This file runs in its own
 * process, so nothing loaded them before.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as path from "node:path";
import { toDataFrame } from "../src/frame/dataframe";
import { waitingModules } from "../src/frame/defer-module";
import { tempDir } from "./support/files";

const mathjsLoaded = () => Object.keys(require.cache).some((file) => /[\\/]mathjs[\\/]lib[\\/].+[\\/]function[\\/]/.test(file));
/** Whether a package's stand-in still waits to load it. */
const waits = (name: string) => waitingModules().some((file) => file.includes(`${path.sep}node_modules${path.sep}${name}${path.sep}`));

describe("loading danfojs", () => {
  it("builds a frame without loading mathjs, and loads it for the statistics danfojs takes from it", () => {
    const df = toDataFrame({ model: ["a", "b", "c", "d", "e"], score: [0.1, 0.4, 0.4, 0.7, 0.9] });
    assert.deepEqual(df.shape, [5, 2]);
    assert.equal(mathjsLoaded(), false, "no mathjs function module loaded for building a frame");
    assert.ok(waits("mathjs") && waits("xlsx") && waits("request"), waitingModules().join(", "));
    const score = df.column("score");
    assert.ok(Math.abs((score.mean() as number) - 0.5) < 1e-6);
    assert.ok(Math.abs((score.median() as number) - 0.4) < 1e-6);
    assert.ok(Math.abs((score.std() as number) - Math.sqrt(0.095)) < 1e-6, String(score.std()));
    assert.ok(Math.abs((score.var() as number) - 0.095) < 1e-6);
    assert.ok(mathjsLoaded(), "mathjs loaded when a statistic asked for it");
    assert.equal(waits("mathjs"), false);
  });

  it("writes and reads an Excel file through danfojs, xlsx loading only then", async () => {
    const df = toDataFrame({ model: ["a", "b"], score: [0.25, 0.75] });
    assert.ok(waits("xlsx"), "xlsx not loaded for building a frame");
    const danfo = require("danfojs-node") as typeof import("danfojs-node");
    const file = path.join(tempDir(), "scores.xlsx");
    danfo.toExcel(df, { filePath: file });
    const back = await danfo.readExcel(file);
    assert.deepEqual((back as InstanceType<typeof danfo.DataFrame>).columns, ["model", "score"]);
    assert.deepEqual((back as InstanceType<typeof danfo.DataFrame>).shape, [2, 2]);
    assert.equal(waits("xlsx"), false, "xlsx loaded for the Excel file");
  });
});
