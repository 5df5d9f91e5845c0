import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classifyStatements } from "../src/judge/offline/classify";
import { fnv1a32, hashedEmbedding } from "../src/judge/offline/embed";
import { cosineSimilarity } from "../src/metrics/math";
import { judgeRelevanceText } from "../src/judge/offline/relevance";
import { splitStatements } from "../src/judge/offline/statements";
import { analyzeText, contentWords } from "../src/judge/offline/text";

describe("offline text helpers", () => {
  it("lower-cases, drops stop words, stems English lightly and keeps names whole", () => {
    assert.deepEqual(contentWords("Alexander Fleming discovered penicillin in 1928."), [
      "alexander",
      "fleming",
      "discover",
      "penicillin",
      "1928",
    ]);
    assert.deepEqual(contentWords("The boxes were creating countries"), ["box", "creat", "country"]);
  });

  it("normalises numbers: thousands separators, decimals, years", () => {
    assert.deepEqual(analyzeText("1,000 people paid 1.5 dollars in 2024").numbers, ["1000", "1.5", "2024"]);
  });

  it("strips Korean particles and endings but keeps at least one syllable", () => {
    assert.deepEqual(contentWords("한글은 1443년에 세종대왕이 창제했다."), ["한글", "1443", "년", "세종대왕", "창제"]);
    assert.deepEqual(contentWords("세종대왕이 1443년에 한글을 만들었다."), ["세종대왕", "1443", "년", "한글", "만들"]);
  });

  it("finds English and Korean negations and keeps them out of content words", () => {
    const english = analyzeText("Fleming didn't discover it and never said so.");
    assert.deepEqual(english.negations, ["didn't", "never"]);
    assert.ok(!english.words.includes("never"));
    assert.deepEqual(analyzeText("세종대왕이 만들지 않았다.").negations, ["않았다"]);
  });
});

describe("splitStatements", () => {
  it("splits English sentences and coordinated clauses with 3+ words on each side", () => {
    assert.deepEqual(
      splitStatements("Fleming discovered penicillin in 1928, and it saved millions of lives. It was a mould; it grew on a plate."),
      ["Fleming discovered penicillin in 1928", "it saved millions of lives.", "It was a mould", "it grew on a plate."],
    );
  });

  it("keeps short coordinations together", () => {
    assert.deepEqual(splitStatements("It is red, and blue."), ["It is red, and blue."]);
    assert.deepEqual(splitStatements("Paris; London; Rome."), ["Paris; London; Rome."]);
  });

  it("splits on but / while / whereas", () => {
    assert.deepEqual(
      splitStatements("Penicillin kills bacteria, while aspirin reduces pain, but neither cures viral infections."),
      ["Penicillin kills bacteria", "aspirin reduces pain", "neither cures viral infections."],
    );
  });

  it("does not break after a title abbreviation", () => {
    assert.deepEqual(splitStatements("Dr. Fleming worked in London. He found penicillin."), [
      "Dr. Fleming worked in London.",
      "He found penicillin.",
    ]);
  });

  it("splits Korean sentences and clauses, keeping the text as written", () => {
    assert.deepEqual(splitStatements("세종대왕은 한글을 창제했고 장영실은 측우기를 발명했다. 한글은 1446년에 반포되었다."), [
      "세종대왕은 한글을 창제했고",
      "장영실은 측우기를 발명했다.",
      "한글은 1446년에 반포되었다.",
    ]);
    assert.deepEqual(splitStatements("서울은 한국의 수도이며 부산은 항구 도시이다."), ["서울은 한국의 수도이며", "부산은 항구 도시이다."]);
    assert.deepEqual(splitStatements("비싸지만 좋다."), ["비싸지만 좋다."]);
    // "-고 있다" is one verb, not two clauses.
    assert.deepEqual(splitStatements("많은 연구자가 이 기술을 보유하고 있다."), ["많은 연구자가 이 기술을 보유하고 있다."]);
  });

  it("treats line breaks and bullet markers as boundaries", () => {
    const text = "Key facts:\n- Fleming discovered penicillin\n* It was in 1928\n1. He won a Nobel Prize\n2) 한글은 세종대왕이 만들었다\n\n";
    assert.deepEqual(splitStatements(text), [
      "Key facts:",
      "Fleming discovered penicillin",
      "It was in 1928",
      "He won a Nobel Prize",
      "한글은 세종대왕이 만들었다",
    ]);
  });

  it("keeps a refusal as one statement and drops empty or symbol-only text", () => {
    assert.deepEqual(splitStatements("I'm not able to answer that."), ["I'm not able to answer that."]);
    assert.deepEqual(splitStatements(""), []);
    assert.deepEqual(splitStatements("  \n\t "), []);
    assert.deepEqual(splitStatements("- ...\n* ---"), []);
  });
});

describe("classifyStatements", () => {
  const reference = [
    "Alexander Fleming discovered penicillin in 1928.",
    "Penicillin was the first true antibiotic.",
    "Fleming shared the Nobel Prize in 1945.",
  ];

  it("marks a paraphrase TP and names the shared words", () => {
    const reply = classifyStatements("Who discovered penicillin?", ["In 1928, penicillin was discovered by Fleming."], reference);
    assert.deepEqual(reply.response, [
      { statement: 1, verdict: "TP", reason: 'matches reference 1 on "1928", "penicillin", "discovered", "fleming"' },
    ]);
    assert.equal(reply.reference[0]?.verdict, "covered");
    assert.match(reply.reference[0]?.reason ?? "", /^covered by response 1 on /);
  });

  it("marks a wrong date FP with both numbers in the reason", () => {
    const reply = classifyStatements("When?", ["Fleming discovered penicillin in 1929."], reference);
    assert.deepEqual(reply.response[0], {
      statement: 1,
      verdict: "FP",
      reason: "clashes with reference 1: number 1929 where the reference says 1928",
    });
    assert.equal(reply.reference[0]?.verdict, "FN");
    assert.match(reply.reference[0]?.reason ?? "", /1929.*1928/);
  });

  it("marks a negation clash FP", () => {
    const reply = classifyStatements("Is penicillin an antibiotic?", ["Penicillin was not the first true antibiotic."], reference);
    assert.equal(reply.response[0]?.verdict, "FP");
    assert.equal(reply.response[0]?.reason, 'clashes with reference 2: the response negates ("not") where the reference does not');
    assert.equal(reply.reference[1]?.verdict, "FN");
  });

  it("reports unmatched response statements and FN reference statements", () => {
    const reply = classifyStatements("Who discovered penicillin?", ["Fleming discovered penicillin.", "The sky is blue today."], reference);
    assert.deepEqual(reply.response.map((v) => v.verdict), ["TP", "FP"]);
    assert.match(reply.response[1]?.reason ?? "", /^no reference statement shares enough words \(best: reference \d, 0 of 3 words\)$/);
    assert.deepEqual(reply.reference.map((v) => v.verdict), ["covered", "FN", "FN"]);
    assert.equal(
      reply.reference[1]?.reason,
      'not covered: the response never mentions "first", "true", "antibiotic" (best: response 1, 1 of 4 words)',
    );
    assert.match(reply.reference[2]?.reason ?? "", /^not covered: the response never mentions "shared", "nobel", "prize", "1945"/);
  });

  it("gives exactly one verdict per statement, 1-based and in order", () => {
    const reply = classifyStatements("q", ["a b c", "Fleming", "x"], reference);
    assert.deepEqual(reply.response.map((v) => v.statement), [1, 2, 3]);
    assert.deepEqual(reply.reference.map((v) => v.statement), [1, 2, 3]);
    const empty = classifyStatements("q", [], reference);
    assert.equal(empty.response.length, 0);
    assert.deepEqual(empty.reference.map((v) => v.verdict), ["FN", "FN", "FN"]);
    const noReference = classifyStatements("q", ["Fleming discovered penicillin."], []);
    assert.deepEqual(noReference, {
      response: [{ statement: 1, verdict: "FP", reason: "there are no reference statements to match" }],
      reference: [],
    });
  });

  it("matches a statement that combines two facts when it shares the reference's number", () => {
    const out = classifyStatements(
      "At what temperature does water boil?",
      ["Water boils at 100 °C at sea-level pressure, which corresponds to 212 °F."],
      ["At sea level, water boils at 100 degrees Celsius.", "That is equal to 212 degrees Fahrenheit."],
    );
    assert.equal(out.response[0]?.verdict, "TP", out.response[0]?.reason);
    assert.equal(out.reference[0]?.verdict, "covered");
  });

  it("marks a swapped name FP, naming both", () => {
    const out = classifyStatements("Who discovered penicillin?", ["Pasteur discovered penicillin in 1928."], ["Alexander Fleming discovered penicillin in 1928."]);
    assert.equal(out.response[0]?.verdict, "FP");
    assert.match(out.response[0]?.reason ?? "", /"pasteur" where the reference names "alexander", "fleming"/);
    const right = classifyStatements("Who discovered penicillin?", ["Fleming discovered penicillin in London in 1928."], ["Alexander Fleming discovered penicillin in 1928."]);
    assert.equal(right.response[0]?.verdict, "TP", "a shared name and an extra place are no clash");
  });

  it("classifies a refusal as FP", () => {
    const reply = classifyStatements("Who discovered penicillin?", splitStatements("I'm not able to answer that."), reference);
    assert.deepEqual(reply.response.map((v) => v.verdict), ["FP"]);
  });

  it("classifies Korean statements: same facts TP, wrong year FP", () => {
    const koReference = ["한글은 1443년에 세종대왕이 창제했다."];
    const tp = classifyStatements("한글은 누가 만들었나?", ["세종대왕이 1443년에 한글을 만들었다."], koReference);
    assert.deepEqual(tp.response, [{ statement: 1, verdict: "TP", reason: 'matches reference 1 on "세종대왕이", "1443", "년에", "한글을"' }]);
    assert.equal(tp.reference[0]?.verdict, "covered");

    const fp = classifyStatements("한글은 누가 만들었나?", ["세종대왕이 1446년에 한글을 만들었다."], koReference);
    assert.deepEqual(fp.response, [
      { statement: 1, verdict: "FP", reason: "clashes with reference 1: number 1446 where the reference says 1443" },
    ]);
    assert.equal(fp.reference[0]?.verdict, "FN");

    const negated = classifyStatements("q", ["세종대왕이 1443년에 한글을 창제하지 않았다."], koReference);
    assert.equal(negated.response[0]?.verdict, "FP");
    assert.match(negated.response[0]?.reason ?? "", /negates/);
  });
});

describe("hashedEmbedding", () => {
  it("is L2-normalised with the requested size", () => {
    const v = hashedEmbedding("Fleming discovered penicillin in 1928.");
    assert.equal(v.length, 512);
    assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-12);
    assert.equal(hashedEmbedding("한글은 세종대왕이 창제했다.", 64).length, 64);
  });

  it("gives the zero vector for text without content words", () => {
    assert.deepEqual(hashedEmbedding("", 8), [0, 0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(hashedEmbedding(" ", 8), [0, 0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(hashedEmbedding("it is the", 8), [0, 0, 0, 0, 0, 0, 0, 0]);
    assert.ok(Number.isNaN(cosineSimilarity(hashedEmbedding(""), hashedEmbedding("penicillin"))));
  });

  it("puts similar texts closer than unrelated ones", () => {
    const a = hashedEmbedding("Alexander Fleming discovered penicillin in 1928.");
    const similar = hashedEmbedding("Penicillin was discovered by Fleming in 1928.");
    const unrelated = hashedEmbedding("The Eiffel Tower stands in Paris.");
    assert.ok(cosineSimilarity(a, similar) > cosineSimilarity(a, unrelated));
    assert.ok(cosineSimilarity(a, similar) > 0.5);
    const ko = hashedEmbedding("한글은 1443년에 세종대왕이 창제했다.");
    assert.ok(cosineSimilarity(ko, hashedEmbedding("세종대왕이 1443년에 한글을 만들었다.")) > cosineSimilarity(ko, unrelated));
  });

  it("uses 32-bit FNV-1a and rejects bad sizes", () => {
    assert.equal(fnv1a32(""), 0x811c9dc5);
    assert.equal(fnv1a32("a"), 0xe40c292c);
    assert.equal(fnv1a32("foobar"), 0xbf9cf968);
    assert.throws(() => hashedEmbedding("x", 0), RangeError);
  });
});

describe("judgeRelevanceText", () => {
  const contexts = ["Alexander Fleming discovered penicillin in 1928 at St Mary's Hospital in London."];

  it("is relevant when enough response words appear in the contexts", () => {
    assert.deepEqual(judgeRelevanceText("When?", "Penicillin was discovered in 1928.", contexts), {
      relevant: true,
      reason: '3 of 3 response words appear in the contexts: "penicillin", "discovered", "1928"',
    });
    assert.equal(judgeRelevanceText("누가?", "세종대왕이 한글을 만들었다.", ["한글은 1443년에 세종대왕이 창제했다."]).relevant, true);
  });

  it("is not relevant when the words are missing or a number contradicts the contexts", () => {
    const offTopic = judgeRelevanceText("When?", "The Eiffel Tower is in Paris.", contexts);
    assert.equal(offTopic.relevant, false);
    assert.match(offTopic.reason, /missing "eiffel", "tower", "paris"/);
    const wrongYear = judgeRelevanceText("When?", "Penicillin was discovered in 1929.", contexts);
    assert.deepEqual(wrongYear, { relevant: false, reason: "number 1929 does not appear in the contexts (they mention 1928)" });
  });

  it("handles empty responses and missing contexts", () => {
    assert.deepEqual(judgeRelevanceText("q", "  ", contexts), { relevant: false, reason: "the response is empty" });
    assert.deepEqual(judgeRelevanceText("q", "Penicillin.", []), {
      relevant: false,
      reason: "there are no contexts to check the response against",
    });
    assert.equal(judgeRelevanceText("q", "Penicillin.", ["", " "]).relevant, false);
  });
});

describe("determinism", () => {
  it("returns identical output for identical input", () => {
    const text = "Fleming discovered penicillin in 1928, and it saved lives.\n- 한글은 세종대왕이 창제했고 1446년에 반포되었다.";
    assert.deepEqual(splitStatements(text), splitStatements(text));
    const response = ["Fleming discovered penicillin in 1929.", "세종대왕이 한글을 만들었다."];
    const reference = ["Alexander Fleming discovered penicillin in 1928.", "한글은 1443년에 세종대왕이 창제했다."];
    assert.deepEqual(classifyStatements("q", response, reference), classifyStatements("q", response, reference));
    assert.deepEqual(hashedEmbedding(text), hashedEmbedding(text));
    assert.deepEqual(judgeRelevanceText("q", response[0] ?? "", reference), judgeRelevanceText("q", response[0] ?? "", reference));
  });
});
