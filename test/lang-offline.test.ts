/**
 * The offline judge on answers that are not in English: a script it cannot read fails the row
 * with that reason (never a confident score from words it cannot tell apart), and digits and
 * letters of other scripts and widths read as what they stand for.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { answerTask } from "../src/judge/offline/answer";
import { splitStatements } from "../src/judge/offline/statements";
import { hashedEmbedding } from "../src/judge/offline/embed";
import { cosineSimilarity } from "../src/metrics/math";
import { parseCsv } from "../src/dataset/csv";
import { runCliCaptured } from "./support/cli";
import { tempDir, writeText } from "./support/files";
import { verdictsInLine } from "./support/verdicts";

/** The offline judge's classification of one row, or the message it fails with. */
function judged(question: string, response: string, reference: string): string {
  try {
    const reply = answerTask({ kind: "classify_statements", question, response: splitStatements(response, question), reference: splitStatements(reference, question) }) as {
      response: { verdict: string }[];
      reference: { verdict: string }[];
    };
    return [...reply.response, ...reply.reference].map((v) => v.verdict).join(" ");
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

describe("offline judge: scripts it cannot read", () => {
  it("fails a row in Georgian, Armenian, Bengali, Tamil or any other script, naming it, instead of scoring a wrong capital as right", () => {
    const rows: [string, string, string, string][] = [
      ["Georgian", "რა არის დედაქალაქი?", "ბათუმი საქართველოს დედაქალაქია.", "თბილისი საქართველოს დედაქალაქია."],
      ["Armenian", "Որն է մայրաքաղաքը?", "Գյումրին է մայրաքաղաքը։", "Երևանն է մայրաքաղաքը։"],
      ["Bengali", "ভারতের রাজধানী কী?", "ভারতের রাজধানী মুম্বাই।", "নয়াদিল্লি ভারতের রাজধানী।"],
      ["Tamil", "இந்தியாவின் தலைநகரம் எது?", "இந்தியாவின் தலைநகரம் மும்பை.", "புது தில்லி இந்தியாவின் தலைநகரம்."],
      ["Ethiopic", "የኢትዮጵያ ዋና ከተማ?", "ጎንደር የኢትዮጵያ ዋና ከተማ ናት።", "አዲስ አበባ የኢትዮጵያ ዋና ከተማ ናት።"],
      // A script with no name of its own in the judge's list (Cherokee) fails all the same.
      ["a script other than Latin and Hangul", "ᏣᎳᎩ?", "ᎠᏂᏴᏫᏯ ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ ᎤᏍᏗ", "ᎠᏂᏴᏫᏯ ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ ᎤᏍᏗ"],
    ];
    for (const [script, q, answer, reference] of rows) {
      assert.equal(judged(q, answer, reference), `error: the offline judge reads English and Korean, and this row's answer is in ${script}; set OPENAI_API_KEY or OPENAI_BASE_URL to judge it with a model`, script);
    }
    // An English answer that quotes a word of another script is still read.
    assert.doesNotMatch(judged("What is the capital of Georgia?", "Tbilisi, or თბილისი in Georgian, is the capital of Georgia.", "Tbilisi is the capital of Georgia."), /^error/u);
  });

  it("reads an answer of formulas with Greek letters as symbols, not as Greek text, and still fails Greek text", () => {
    assert.doesNotMatch(judged("How long does it take?", "Δv = α·t, so t = Δv/α.", "t = Δv/α."), /^error/u);
    assert.doesNotMatch(judged("What is the limit's definition?", "∀ε>0 ∃δ>0: |x−a|<δ ⇒ |f(x)−L|<ε", "For every ε > 0 there is a δ > 0."), /^error/u);
    assert.match(judged("Πρωτεύουσα;", "Η Θεσσαλονίκη είναι η πρωτεύουσα.", "Η Αθήνα είναι η πρωτεύουσα."), /this row's answer is in Greek/u);
  });

  it("reads digits of every script as the digits they stand for", () => {
    for (const year of ["१९४५", "১৯৪৫", "๑๙๔๕", "١٩٤٥", "۱۹۴۵", "１９４５"]) {
      const v = verdictsInLine("When did the war end?", `It ended in ${year}.`, "The war ended in 1945.");
      assert.deepEqual([v.response, v.reference], [["TP"], ["covered"]], `${year}: ${v.reasons}`);
    }
    const wrong = verdictsInLine("How many sides does a triangle have?", "A triangle has १२ sides.", "A triangle has 3 sides.");
    assert.match(wrong.reasons, /clashes with reference 1: 12 where it says 3/u);
  });

  it("reads full-width Latin letters as the letters they stand for", () => {
    const right = verdictsInLine("What is the capital of France?", "Ｔｈｅ ｃａｐｉｔａｌ ｉｓ Ｐａｒｉｓ．", "Paris is the capital of France.");
    assert.deepEqual([right.response, right.reference], [["TP"], ["covered"]], right.reasons);
    const wrong = verdictsInLine("What is the capital of France?", "Ｔｈｅ　ｃａｐｉｔａｌ　ｉｓ　Ｌｙｏｎ．", "Paris is the capital of France.");
    assert.match(wrong.reasons, /"Lyon" where it names "Paris"/u);
  });

  it("fails a one-word Korean answer to an English reference (and the reverse) instead of scoring a right answer 0, but compares a number with a Korean unit", () => {
    assert.match(judged("What is the capital of Korea?", "서울.", "Seoul is the capital of South Korea."), /^error: the answer is in Korean and the reference in English/u);
    assert.match(judged("한국의 수도는?", "Seoul", "서울"), /^error: the answer is in English and the reference in Korean/u);
    assert.equal(judged("In what year did it end?", "1945년.", "In 1945."), "TP covered");
    assert.equal(judged("In what year did it end?", "1946년.", "In 1945."), "FP FN");
  });

  it("reads dates as China and Japan write them (1989年11月9日, 1989/11/09), so a wrong day clashes", () => {
    for (const [written, verdict] of [["1989年11月9日", "TP covered"], ["1989年11月8日", "FP FN"], ["1989/11/09", "TP covered"], ["1989/11/08", "FP FN"], ["١٩٨٩/١١/٠٨", "FP FN"], ["１９８９年１１月９日", "TP covered"]] as const) {
      assert.equal(judged("When did the Berlin Wall fall?", `The Berlin Wall fell on ${written}.`, "The Berlin Wall fell on November 9, 1989."), verdict, written);
    }
  });

  it("Korean: another name as the topic (은/는) is another fact, not the same one", () => {
    for (const [wrong, right] of [["부산은 한국의 수도이다.", "서울은 한국의 수도이다."], ["태종은 한글을 만들었다.", "세종대왕은 한글을 만들었다."], ["에디슨은 전화를 발명했다.", "벨은 전화를 발명했다."]] as const) {
      assert.equal(judged("누구? 어디?", wrong, right), "FP FN", wrong);
      assert.equal(judged("누구? 어디?", right, right), "TP covered", right);
    }
    assert.equal(judged("고래는 어떤 동물인가?", "고래는 어류이다.", "고래는 포유류이다."), "FP FN", "another noun before the copula");
    // A paraphrase with the topic moved still matches.
    assert.equal(judged("한국의 수도는?", "한국의 수도는 서울이다.", "서울은 한국의 수도이다."), "TP covered");
    assert.equal(judged("누가 전화를 발명했나?", "전화는 벨이 발명했다.", "벨은 전화를 발명했다."), "TP covered");
    // The same said of several, in a list: each is held by its own statement, not taken by the other's topic.
    assert.equal(judged("포유류는?", "박쥐는 포유류이다.", "고래는 포유류이다. 박쥐는 포유류이다."), "TP FN covered");
    assert.equal(judged("고래는?", "고래는 포유류이다. 고래는 동물이다.", "고래는 포유류이다."), "TP FP covered");
  });

  it("reads text written decomposed (NFD, as copied from a Mac or a PDF) as the same words composed", () => {
    assert.equal(judged("Where is the ETH?", "The ETH is in Zu\u0308rich.", "The ETH is in Zürich."), "TP covered");
    assert.equal(judged("Who was he?", "Pele\u0301 played for Santos.", "Pelé played for Santos."), "TP covered");
    assert.equal(judged("한국의 수도는?", "서울은 한국의 수도이다.".normalize("NFD"), "서울은 한국의 수도이다."), "TP covered");
    const extracted = answerTask({ kind: "extract_statements", question: "Where?", text: "The ETH is in Zu\u0308rich." }) as { statements: string[] };
    assert.deepEqual(extracted.statements, ["The ETH is in Zürich."]);
    const same = hashedEmbedding("서울은 한국의 수도이다.".normalize("NFD"));
    assert.ok(cosineSimilarity(same, hashedEmbedding("서울은 한국의 수도이다.")) > 0.999, "the semantic part reads NFD as NFC");
  });

  it("keeps a day written with a dot before its month (\"9. November 1989\") as one date, not a sentence end", () => {
    assert.deepEqual(splitStatements("Die Berliner Mauer fiel am 9. November 1989.", "Wann fiel die Mauer?"), ["Die Berliner Mauer fiel am 9. November 1989."]);
    const right = verdictsInLine("When did the Berlin Wall fall?", "The Berlin Wall fell on 9. November 1989.", "The Berlin Wall fell on November 9, 1989.");
    assert.deepEqual([right.response, right.reference], [["TP"], ["covered"]], right.reasons);
    const wrong = verdictsInLine("When did the Berlin Wall fall?", "The Berlin Wall fell on 8. November 1989.", "The Berlin Wall fell on November 9, 1989.");
    assert.deepEqual([wrong.response, wrong.reference], [["FP"], ["FN"]], wrong.reasons);
    // German months alone too; an English month alone may start the next sentence, whose number then ends the first.
    assert.deepEqual(splitStatements("Das Treffen ist am 1. Mai in Berlin.", "Wann?"), ["Das Treffen ist am 1. Mai in Berlin."]);
    assert.deepEqual(splitStatements("Mars has 2. May I add that they are Phobos and Deimos.", "How many moons?"), ["Mars has 2.", "May I add that they are Phobos and Deimos."]);
    const moons = verdictsInLine("How many moons does Mars have?", "Mars has 2. May I add that they are Phobos and Deimos.", "Mars has 2 moons: Phobos and Deimos.");
    assert.ok(moons.response.filter((v) => v === "TP").length >= 1, `the number 2 is read, not a day of May: ${moons.reasons}`);
  });

  it("through the command line: a table in many scripts keeps its rows in order, scores what it reads and fails the rest with their script", async () => {
    const dir = tempDir();
    const rows = [
      ["q1", "a", "中国的首都是哪里？", "中国的首都是北京。", "北京是中国的首都。"],
      ["q2", "a", "ما هي عاصمة مصر؟", "عاصمة مصر هي القاهرة.", "القاهرة هي عاصمة مصر."],
      ["q3", "a", "Where is Tbilisi?", "ბათუმი საქართველოს დედაქალაქია.", "თბილისი საქართველოს დედაქალაქია."],
      ["q4", "a", "How many sides does a triangle have?", "A triangle has ٣ sides.", "A triangle has 3 sides."],
      ["q5", "a", "What is the capital of France?", "Ｐａｒｉｓ ｉｓ ｔｈｅ ｃａｐｉｔａｌ ｏｆ Ｆｒａｎｃｅ.", "Paris is the capital of France."],
    ];
    const file = writeText(dir, "multi.csv", ["id,model,question,answer,reference", ...rows.map((r) => r.join(","))].join("\n") + "\n");
    const out = join(dir, "scored.csv");
    const run = await runCliCaptured(["score", file, "--out", out, "--no-progress"], {});
    assert.equal(run.code, 0, run.err);
    const { header, records: lines } = parseCsv(readFileSync(out, "utf8"));
    const records = lines.map((l) => Object.fromEntries(header.map((h, i) => [h, l.fields[i] ?? ""])));
    assert.deepEqual(records.map((r) => [r.id, r.response]), rows.map((r) => [r[0], r[3]]), "rows and texts kept as written");
    const errors = records.map((r) => String(r.answer_correctness_error ?? ""));
    assert.match(errors[0]!, /in Chinese/u);
    assert.match(errors[1]!, /in Arabic/u);
    assert.match(errors[2]!, /in Georgian/u);
    assert.deepEqual(records.slice(3).map((r) => r.answer_correctness), ["1", "1"], "the digits and full-width letters read");
    assert.ok(readFileSync(out, "utf8").includes("Ｐａｒｉｓ ｉｓ ｔｈｅ ｃａｐｉｔａｌ ｏｆ Ｆｒａｎｃｅ."), "the answer as written in the CSV");
  });
});
