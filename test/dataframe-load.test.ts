/**
 * The first DataFrame does not load mathjs: danfojs calls it only for a
 * frame's or series' mean, median, mode, std and variance, and those still
 * work (mathjs loads then). Its own process, so nothing loaded it before.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toDataFrame } from "../src/frame/dataframe";

const mathjsLoaded = () => Object.keys(require.cache).some((file) => /[\\/]mathjs[\\/]lib[\\/].+[\\/]function[\\/]/.test(file));

describe("loading danfojs", () => {
  it("builds a frame without loading mathjs, and loads it for the statistics danfojs takes from it", () => {
    const df = toDataFrame({ model: ["a", "b", "c", "d", "e"], score: [0.1, 0.4, 0.4, 0.7, 0.9] });
    assert.deepEqual(df.shape, [5, 2]);
    assert.equal(mathjsLoaded(), false, "no mathjs function module loaded for building a frame");
    const score = df.column("score");
    assert.ok(Math.abs((score.mean() as number) - 0.5) < 1e-6);
    assert.ok(Math.abs((score.median() as number) - 0.4) < 1e-6);
    assert.ok(Math.abs((score.std() as number) - Math.sqrt(0.095)) < 1e-6, String(score.std()));
    assert.ok(Math.abs((score.var() as number) - 0.095) < 1e-6);
    assert.ok(mathjsLoaded(), "mathjs loaded when a statistic asked for it");
  });
});
