/**
 * The offline judge's rules version (OFFLINE_RULES_VERSION) is recorded
 * with each score, so that `diff` names a change of rules between two runs.
 * It is only worth that if it changes whenever the rules do: this test holds
 * a fingerprint of the offline judge's statements and verdicts on the
 * bundled question sets (and the cosines of its hashed embeddings) at each
 * version, and fails when they move while the
 * version stays. It checks no verdict for being right (the hand labels do
 * that); it is the reminder to bump the version, and then to add the new
 * fingerprint below.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as path from "node:path";
import { describe, it } from "node:test";
import { compareRuns, createJudge, frameRecords, loadDataset, scoreAnswerCorrectness, toDataFrame } from "../src/index";
import { OFFLINE_RULES_VERSION } from "../src/judge/offline-label";

const SETS = ["qa-models.csv", "qa-dev2.csv"];

/** Statements and verdicts (not the reasons' wording) and the semantic similarity of each row, as the offline judge gives them. */
const FINGERPRINTS: Record<string, string> = {
  "offline-rules-2026-12-05": "90e764502f235e4b",
  // 05b: any script but Latin and Hangul fails its row (single Greek letters are symbols), as does a one-word Korean answer to an English reference; digits of every script, full-width letters, "9. November 1989", "1989年11月9日" and "1989/11/09" and text written decomposed (NFD) read, another name as a Korean topic (은/는) or before the copula (고래는 어류이다) clashes (moved: one dev2 reference, 목성 against 토성, now not covered).
  "offline-rules-2026-12-05b": "ffeff2974b203c7f",
};

async function scoredSets(): Promise<Record<string, unknown>[]> {
  const judge = createJudge({ judge: "offline", quiet: true });
  const rows: Record<string, unknown>[] = [];
  for (const set of SETS) {
    const df = await loadDataset(path.join(__dirname, "..", "data", set), { required: ["user_input", "response", "reference"] });
    rows.push(...frameRecords(await scoreAnswerCorrectness(df, { judge, progress: false, quiet: true })));
  }
  return rows;
}

describe("the offline judge's rules version", () => {
  it("is recorded with each score, and the statements and verdicts it stands for are those of its fingerprint", async () => {
    const rows = await scoredSets();
    const details = rows.map((r) => JSON.parse(String(r["answer_correctness_statements"])) as { judgeRules?: string; response: { statement: string; verdict: string }[]; reference: { statement: string; verdict: string }[] });
    assert.ok(details.every((d) => d.judgeRules === OFFLINE_RULES_VERSION), "every row records the rules it was scored by");
    // The hashed embeddings' cosine too, to 9 digits: a change of them under the same model name is a change of rules.
    const shape = details.map((d, i) => [d.response.map((v) => [v.statement, v.verdict]), d.reference.map((v) => [v.statement, v.verdict]), Number((rows[i]!["answer_correctness_semantic"] as number).toPrecision(9))]);
    const fingerprint = createHash("sha256").update(JSON.stringify(shape)).digest("hex").slice(0, 16);
    assert.equal(
      FINGERPRINTS[OFFLINE_RULES_VERSION],
      fingerprint,
      `the offline judge's statements or verdicts on ${SETS.join(", ")} changed (fingerprint ${fingerprint}) under rules version ${OFFLINE_RULES_VERSION}: ` +
        `bump OFFLINE_RULES_VERSION (src/judge/offline-label.ts) and add the new version's fingerprint here`,
    );
  });

  it("a run scored by other rules, or before they were recorded, is named by diff as scored differently", async () => {
    const rows = frameRecords(await scoreAnswerCorrectness(await loadDataset(path.join(__dirname, "..", "data", "qa-models.csv")), { judge: createJudge({ judge: "offline", quiet: true }), progress: false, quiet: true }));
    const withRules = (rules: string | undefined) =>
      toDataFrame(
        rows.map((r) => {
          const d = JSON.parse(String(r["answer_correctness_statements"])) as Record<string, unknown>;
          if (rules === undefined) delete d["judgeRules"];
          else d["judgeRules"] = rules;
          return { ...r, answer_correctness_statements: JSON.stringify(d) };
        }),
      );
    const now = toDataFrame(rows);
    assert.deepEqual(compareRuns(now, now).scoringChanges, []);
    const older = compareRuns(withRules(undefined), now).scoringChanges.map((c) => [c.setting, c.before, c.after, c.answers]);
    assert.deepEqual(older, [["judge rules", "not recorded (before 2026-12-05)", OFFLINE_RULES_VERSION, 126]]);
    const other = compareRuns(withRules("offline-rules-2026-11-30"), now).scoringChanges.map((c) => c.setting);
    assert.deepEqual(other, ["judge rules"]);
  });
});
