import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertBeta, assertWeights, blendScores, cosineSimilarity, fbeta } from "../src/metrics/math";

const close = (actual: number, expected: number, tolerance = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);

describe("fbeta (reference cases of Ragas' definition)", () => {
  it("matches the reference values", () => {
    close(fbeta(1, 1, 1), 0.5);
    close(fbeta(1, 1, 0), 2 / 3);
    close(fbeta(3, 1, 2), 2 / 3);
    close(fbeta(3, 1, 2, 0.5), 0.7142857142857143);
    close(fbeta(3, 1, 2, 2), 0.625);
    close(fbeta(2, 0, 4, 2), 5 / 13);
  });

  it("is 0 when nothing matches, including 0/0/0, and when one side is empty", () => {
    assert.equal(fbeta(0, 0, 0), 0);
    assert.equal(fbeta(0, 3, 0), 0, "a response with only unsupported statements");
    assert.equal(fbeta(0, 0, 3), 0, "an empty response against a reference");
    assert.equal(fbeta(0, 2, 2), 0);
  });

  it("refuses counts that are not counts and a bad beta", () => {
    assert.throws(() => fbeta(-1, 0, 0), /tp must be a count/);
    assert.throws(() => fbeta(1.5, 0, 0), /tp must be a count/);
    assert.throws(() => fbeta(1, 1, 1, 0), /beta must be a positive finite number/);
  });
});

describe("cosineSimilarity", () => {
  it("is the raw cosine, negative values included", () => {
    close(cosineSimilarity([1, 0], [1, 1]), Math.SQRT1_2);
    close(cosineSimilarity([1, 2, 3], [-1, -2, -3]), -1);
    close(cosineSimilarity([3, 4], [6, 8]), 1);
    close(cosineSimilarity([1, 0], [0, 5]), 0);
  });

  it("is NaN for a zero vector and refuses vectors of different lengths", () => {
    assert.ok(Number.isNaN(cosineSimilarity([0, 0], [1, 1])));
    assert.ok(Number.isNaN(cosineSimilarity([1, 1], [0, 0])));
    assert.throws(() => cosineSimilarity([1], [1, 2]), /differ in length \(1 and 2\)/);
  });
});

describe("blendScores and option checks", () => {
  it("blends with the weights", () => {
    close(blendScores(0.5, 0.9, [0.75, 0.25]), 0.6);
    close(blendScores(0.2, 0.8, [1, 1]), 0.5);
    close(blendScores(0.4, Number.NaN, [1, 0]), 0.4);
    close(blendScores(Number.NaN, 0.7, [0, 2]), 0.7);
  });

  it("refuses weights and betas as Ragas does, saying why", () => {
    assert.throws(() => assertWeights([1]), /expects a list of two weights, the first for factuality and the second for semantic similarity/);
    assert.throws(() => assertWeights([1, 2, 3]), /expects a list of two weights/);
    assert.throws(() => assertWeights([-0.5, 1]), /must be non-negative/);
    assert.throws(() => assertWeights([0, 0]), /at least one answer correctness weight must be non-zero/);
    assert.throws(() => assertWeights([Number.NaN, 1]), /finite numbers/);
    assert.throws(() => assertWeights([Number.POSITIVE_INFINITY, 1]), /finite numbers/);
    for (const beta of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) assert.throws(() => assertBeta(beta), /beta must be a positive finite number/);
    assert.doesNotThrow(() => assertBeta(0.5));
  });
});
