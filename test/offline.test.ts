/**
 * The offline judge's parts, by the categories of input it must handle:
 * atomic claims, paraphrase and word order, normalised values (dates,
 * numbers, units, approximations, abbreviations), contradictions (values,
 * names, places, negation, opposites), refusals, and Korean. The sentences
 * here are not those of the bundled sample data.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { atomicClaims } from "../src/judge/offline/claims";
import { classifyStatements } from "../src/judge/offline/classify";
import { fnv1a32, hashedEmbedding } from "../src/judge/offline/embed";
import { hasOpposite, opposite, OPPOSITES, PHRASAL_VERBS, phrasalVerb, RELATION_WORDS, SYNONYM_GROUPS, synonymKey } from "../src/judge/offline/lexicon";
import { judgeRelevanceText } from "../src/judge/offline/relevance";
import { splitStatements } from "../src/judge/offline/statements";
import { analyzeText, contentWords } from "../src/judge/offline/text";
import { compareValues, findValues, valueToken } from "../src/judge/offline/values";
import { cosineSimilarity } from "../src/metrics/math";
import { verdicts } from "./support/verdicts";


/** Asserts that each one-statement answer is supported and covers its one-statement reference. */
function assertSupported(cases: ReadonlyArray<readonly [string, string, string]>): void {
  for (const [q, response, reference] of cases) {
    const v = verdicts(q, response, reference);
    assert.deepEqual([v.response, v.reference], [["TP"], ["covered"]], `${response} | ${v.reasons.join(" | ")}`);
  }
}

/** Asserts that every statement of the answer is TP and every statement of the reference covered. */
function assertAllSupported(q: string, response: string, reference: string): void {
  const v = verdicts(q, response, reference);
  assert.ok(v.response.every((x) => x === "TP") && v.reference.every((x) => x === "covered"), `${response} | ${v.reasons.join(" | ")}`);
}

/** Asserts that each one-statement answer clashes with its reference (FP, and the reference FN), for the reason given. */
function assertClashes(cases: ReadonlyArray<readonly [string, string, string, RegExp]>): void {
  for (const [q, response, reference, reason] of cases) {
    const v = verdicts(q, response, reference);
    assert.deepEqual([v.response, v.reference], [["FP"], ["FN"]], `${response} | ${v.reasons.join(" | ")}`);
    assert.match(v.reasons[0]!, reason);
  }
}

function value(text: string) {
  const [v] = findValues(text);
  assert.ok(v, `a value in ${JSON.stringify(text)}`);
  return v;
}

describe("values", () => {
  it("reads dates in the common formats as one date", () => {
    const formats = ["Jan 15, 1967", "January 15, 1967", "15 January 1967", "1967-01-15", "the 15th of January, 1967", "1967년 1월 15일"];
    for (const f of formats) assert.equal(valueToken(value(f)), "date:1967-1-15", f);
    assert.equal(compareValues(value("March 1889"), value("in 1889")), "same");
    assert.equal(compareValues(value("March 1889"), value("April 1889")), "different");
    assert.equal(compareValues(value("in 1945"), value("in 1948")), "different");
  });

  it("reads numbers with separators, in words, with scale words and signs", () => {
    assert.equal(value("1,234,567 people").value, 1234567);
    assert.equal(value("1 234 567 people").value, 1234567);
    assert.equal(value("seventy-eight").value, 78);
    assert.equal(value("two thousand").value, 2000);
    assert.equal(value("$1.5 million").value, 1.5e6);
    assert.equal(value("minus 40").value, -40);
    assert.equal(value("-40 °C").value, -40);
  });

  it("treats hedged values as approximate and exact ones as exact", () => {
    assert.equal(compareValues(value("about 78"), value("78.4")), "same");
    assert.equal(compareValues(value("78"), value("78.4")), "different");
    assert.equal(compareValues(value("roughly 8 minutes"), value("8.3 minutes")), "same");
    assert.equal(compareValues(value("약 940만 명"), value("9,400,000 people")), "same");
  });

  it("compares a hedged value at the precision it is written to: a rounding agrees, a nearby other value does not", () => {
    // Roundings of the exact value (to the hedged value's last significant digit) agree ...
    assert.equal(compareValues(value("roughly 6,400 km"), value("6,371 kilometres")), "same");
    assert.equal(compareValues(value("about 1.61 km"), value("1,609 metres")), "same");
    assert.equal(compareValues(value("around 150 million km"), value("149.6 million kilometres")), "same");
    assert.equal(compareValues(value("about 2,000"), value("1,985")), "same");
    // ... a different value that happens to lie within 10% does not (a river of 494 km is not one of about 510 km).
    assert.equal(compareValues(value("about 494 km"), value("약 510킬로미터")), "different");
    assert.equal(compareValues(value("about 1,500 metres"), value("1,609 metres")), "different");
    assert.equal(compareValues(value("about 47 days"), value("about 52 days")), "different");
    // Coarse roundings are bounded: "about 1,000" is not 1,400.
    assert.equal(compareValues(value("about 1,000"), value("1,400")), "different");
  });

  it("reads dates with dots, Korean numbers in parts, and ordinals (which never clash with counts)", () => {
    assert.equal(valueToken(value("1446. 10. 9.")), "date:1446-10-9");
    assert.equal(compareValues(value("2009. 6. 23."), value("2009년 6월 23일")), "same");
    assert.equal(value("3억 5천만 원").value, 350_000_000);
    assert.equal(compareValues(value("약 38만 4천 킬로미터"), value("약 384,400 km")), "same");
    assert.equal(compareValues(value("the 19th Amendment"), value("the Nineteenth Amendment")), "same");
    assert.equal(compareValues(value("the 19th Amendment"), value("the 21st Amendment")), "different");
    // A rank is not a count: "the 26th Amendment" says nothing against "age 18".
    assert.equal(compareValues(value("the 26th Amendment"), value("18 years")), "unrelated");
    assert.equal(compareValues(value("the 26th Amendment"), value("at 18")), "unrelated");
    assert.equal(value("a third of the seats").value, 1 / 3);
    assert.equal(value("about one-third of the seats").value, 1 / 3);
  });

  it("reads a dash between two numbers as a range, not a minus sign", () => {
    assert.deepEqual(findValues("a resting rate of 60–100 beats").map((v) => v.value), [60, 100]);
    assert.deepEqual(findValues("from 1914-1918").map((v) => v.value), [1914, 1918]);
    assert.equal(value("-40 °C").value, -40);
  });

  it("reads a number after a sentence's opening adverb as a value, not as part of a name", () => {
    assert.equal(value("Typically 206 bones.").value, 206);
    assert.equal(value("Usually 12 eggs.").value, 12);
    assert.equal(findValues("Apollo 11 landed.").length, 0);
  });

  it("normalises units and their spellings", () => {
    assert.equal(compareValues(value("100 °C"), value("100 degrees Celsius")), "same");
    assert.equal(compareValues(value("212 °F"), value("100 degrees Celsius")), "same");
    assert.equal(compareValues(value("180 °F"), value("212 degrees Fahrenheit")), "different");
    // Temperatures written without the degree sign.
    for (const written of ["100 C", "100C", "100 degrees C", "100 deg C", "100 deg. C"]) assert.equal(compareValues(value(written), value("100 °C")), "same", written);
    assert.equal(compareValues(value("212F"), value("212 °F")), "same");
    assert.equal(compareValues(value("90 C"), value("100 °C")), "different");
    assert.equal(compareValues(value("5 km"), value("5,000 metres")), "same");
    assert.equal(compareValues(value("3 kilometres"), value("3 km")), "same");
    assert.equal(compareValues(value("roughly 300,000 km per second"), value("299,792,458 metres per second")), "same");
    assert.equal(compareValues(value("a change of -20%"), value("a fall of 20%")), "same");
    assert.equal(compareValues(value("25%"), value("0.25")), "same");
  });

  it("keeps numbers that are part of a name out of the values", () => {
    assert.deepEqual(findValues("Apollo 11 landed").map((v) => v.text), []);
    assert.deepEqual(findValues("CO2 and H2O").map((v) => v.text), []);
    assert.equal(value("in AD 79").dimension, "year");
  });
});

describe("atomic claims", () => {
  it("splits one clause with several facts into one claim per fact", () => {
    assert.deepEqual(atomicClaims("Marie Curie was born in Warsaw in 1867."), ["Marie Curie was born in Warsaw.", "Marie Curie was born in 1867."]);
    assert.deepEqual(atomicClaims("The bridge opened in 1937 in San Francisco."), ["The bridge opened in 1937.", "The bridge opened in San Francisco."]);
  });

  it("splits lists of values or names, and 'X, not Y'", () => {
    assert.deepEqual(atomicClaims("The tank holds 40 litres, or 10 gallons."), ["The tank holds 40 litres.", "The tank holds 10 gallons."]);
    assert.deepEqual(atomicClaims("The largest planet is Jupiter, not Saturn."), ["The largest planet is Jupiter.", "The largest planet is not Saturn."]);
  });

  it("gives a coordinated verb phrase its subject", () => {
    assert.deepEqual(atomicClaims("Bees collect nectar and make honey."), ["Bees collect nectar", "Bees make honey."]);
  });

  it("splits a second clause with its own subject after 'and'", () => {
    assert.deepEqual(atomicClaims("Rivers carry sediment to the sea and glaciers grind the rock."), ["Rivers carry sediment to the sea", "glaciers grind the rock."]);
  });

  it("gives a participle clause after a comma the clause's subject", () => {
    assert.deepEqual(atomicClaims("The team won the cup in 1998, beating Italy in the final."), ["The team won the cup in 1998", "The team beating Italy in the final."]);
    // An aside inside a verb phrase stays where it is.
    assert.deepEqual(atomicClaims("Bees gather nectar and, using enzymes, turn it into honey."), ["Bees gather nectar and, using enzymes, turn it into honey."]);
  });

  it("splits a list of three or more common words into one claim per item, in English and Korean", () => {
    assert.deepEqual(atomicClaims("The flag is red, white and blue."), ["The flag is red.", "The flag is white.", "The flag is blue."]);
    assert.deepEqual(atomicClaims("Plants need light, water and carbon dioxide to grow."), ["Plants need light to grow.", "Plants need water to grow.", "Plants need carbon dioxide to grow."]);
    assert.deepEqual(atomicClaims("사계절은 봄, 여름, 가을, 그리고 겨울이다."), ["사계절은 봄", "사계절은 여름", "사계절은 가을", "사계절은 겨울이다."]);
    // An item the reference lacks is FP on its own; the items it has stay TP.
    assert.deepEqual(verdicts("What does a plant need to grow?", "Light, water and sugar.", "A plant needs light, water and carbon dioxide.").response, ["TP", "TP", "FP"]);
    // A clause before a Korean list is a claim of its own, and the items keep its topic.
    assert.deepEqual(atomicClaims("과일은 모두 세 가지로, 사과, 배, 감이 있다."), ["과일은 모두 세 가지로", "과일은 사과 있다.", "과일은 배 있다.", "과일은 감이 있다."]);
  });

  it("marks an item the other side's list lacks FP even where the rest of its statement matches, and the item it misses FN", () => {
    const v = verdicts("Which gases are noble gases?", "The noble gases include helium, neon, argon and nitrogen.", "The noble gases include helium, neon, argon and krypton.");
    assert.deepEqual(v.response, ["TP", "TP", "TP", "FP"], v.reasons.join(" | "));
    assert.deepEqual(v.reference, ["covered", "covered", "covered", "FN"], v.reasons.join(" | "));
    const k = verdicts("한국의 사계절은 무엇인가요?", "봄, 여름, 가을, 그리고 장마가 사계절입니다.", "한국의 사계절은 봄, 여름, 가을, 겨울입니다.");
    assert.deepEqual([k.response.at(-1), k.reference.at(-1)], ["FP", "FN"], k.reasons.join(" | "));
    // Two statements that differ by a word are no list: a paraphrase stays supported.
    const p = verdicts("When did the first PlayStation come out?", "The first PlayStation launched in Japan in 1994.", "The original PlayStation was released in Japan in 1994.");
    assert.deepEqual([p.response, p.reference], [["TP", "TP"], ["covered", "covered"]], p.reasons.join(" | "));
  });

  it("reads Korean native numbers with their counters, and a small number of 년 as years, not a year", () => {
    assert.equal(compareValues(value("모두 마흔여섯 개"), value("46개")), "same");
    assert.equal(compareValues(value("임기는 다섯 해"), value("임기는 5년")), "same");
    assert.equal(compareValues(value("그로부터 10년 뒤"), value("1915년")), "unrelated");
    assert.equal(findValues("한 해결책").length, 0);
    assert.deepEqual(verdicts("사람의 염색체는 몇 개인가요?", "모두 마흔여섯 개입니다.", "사람의 염색체는 46개입니다.").response, ["TP"]);
  });

  it("reads Korean polite endings, Sino-Korean colour words and 'A가 아니라 B'", () => {
    assertSupported([
      ["가장 큰 나라는 어디인가요?", "러시아예요.", "가장 큰 나라는 러시아입니다."],
      ["신호등의 멈춤 신호는 무슨 색인가요?", "멈춤 신호는 적색입니다.", "멈춤 신호는 빨간색입니다."],
    ]);
    assert.deepEqual(atomicClaims("주파수는 60Hz가 아니라 50Hz예요."), ["주파수는 50Hz예요.", "주파수는 60Hz가 아니다."]);
    const v = verdicts("한국의 전기 주파수는?", "주파수는 50Hz가 아니라 60Hz입니다.", "한국의 전기 주파수는 60Hz입니다.");
    assert.deepEqual(v.response, ["TP", "TP"], v.reasons.join(" | "));
  });

  it("ends a Korean list at its last comma when a word such as 이렇게 follows", () => {
    assert.deepEqual(atomicClaims("봄, 여름, 가을, 이렇게 세 계절이 좋다."), ["봄 이렇게 세 계절이 좋다.", "여름 이렇게 세 계절이 좋다.", "가을 이렇게 세 계절이 좋다."]);
  });

  it("reads Korean day names written with a middle dot as their Sino-Korean names (3·1절 = 삼일절), not as numbers", () => {
    assertSupported([["광복절은 언제인가요?", "6·25 전쟁은 1950년에 일어났다.", "육이오 전쟁은 1950년에 일어났다."]]);
    assert.equal(findValues("3·1절").length, 0);
  });

  it("splits 'X, not Y' of common nouns into the claim and its denial", () => {
    assert.deepEqual(atomicClaims("A spider is an arachnid, not an insect."), ["A spider is an arachnid.", "A spider is not an insect."]);
    assert.deepEqual(atomicClaims("Bats are mammals, not birds."), ["Bats are mammals.", "Bats are not birds."]);
  });

  it("keeps a calculation or example with many numbers whole", () => {
    const example = "At 5% a year, $200 grows to $210 after one year and $220.50 after two.";
    assert.deepEqual(atomicClaims(example), [example]);
  });

  it("splits Korean clauses by value and by subject beside a topic", () => {
    assert.deepEqual(atomicClaims("거북선은 이순신이 1592년에 사용했다."), ["거북선은 이순신이 사용했다.", "거북선은 1592년에 사용했다."]);
  });
});

describe("splitStatements", () => {
  it("splits sentences, bullets and joined clauses, and keeps a title abbreviation in its sentence", () => {
    assert.deepEqual(splitStatements("Dr. Jenner tested the vaccine. The trial worked well, and the method spread across Europe."), [
      "Dr. Jenner tested the vaccine.",
      "The trial worked well",
      "the method spread across Europe.",
    ]);
    assert.deepEqual(splitStatements("- Oxygen is a gas.\n- Iron is a metal."), ["Oxygen is a gas.", "Iron is a metal."]);
  });

  it("keeps every claim a sentence: no slot cut across a noun, no preposition left behind", () => {
    // Two names with "on the border between" between them are no one name ("It sits and the Tibet region of China.").
    assert.deepEqual(splitStatements("It sits in the Himalayas on the border between Nepal and the Tibet region of China."), [
      "It sits in the Himalayas on the border.",
      "It sits on the border between Nepal and the Tibet region of China.",
    ]);
    // "at around" is one preposition of the value ("…northern Africa, at.").
    assert.deepEqual(splitStatements("The largest hot desert is the Sahara in northern Africa, at around 9 million square kilometres."), [
      "The largest hot desert is the Sahara in northern Africa.",
      "The largest hot desert is the Sahara in northern Africa, at around 9 million square kilometres.",
    ]);
    assert.deepEqual(splitStatements("Pride and Prejudice was written by Jane Austen."), ["Pride and Prejudice was written by Jane Austen."]);
  });

  it("turns a bare yes or no into the question's claim, affirmed or denied", () => {
    assert.deepEqual(splitStatements("No.", "Is a tomato a vegetable?"), ["It is not true that a tomato a vegetable"]);
    // What is left of "Yes, it is." names nothing and says nothing more: it is not a statement.
    assert.deepEqual(splitStatements("Yes, it is.", "Can penguins swim?"), ["It is true that penguins swim"]);
    assert.deepEqual(splitStatements("Yes, they can. Penguins swim fast.", "Can penguins swim?"), ["It is true that penguins swim", "Penguins swim fast."]);
  });

  it("reads a Korean 네 / 아니요 to a Korean question as the question affirmed or denied, and drops a rest that only repeats it", () => {
    assert.deepEqual(splitStatements("네, 있어요.", "서울에 지하철이 있나요?"), ["서울에 지하철이 있나요: 그렇다"]);
    assert.deepEqual(splitStatements("아니요. 제주도에는 지하철이 없습니다.", "제주도에 지하철이 있나요?"), ["제주도에 지하철이 있나요: 그렇지 않다", "제주도에는 지하철이 없습니다."]);
    assert.deepEqual(splitStatements("Yes, spiders can spin silk.", "Can spiders spin silk?"), ["It is true that spiders spin silk"]);
    assert.deepEqual(splitStatements("네, 맞아요.", "서울에 지하철이 있나요?"), ["서울에 지하철이 있나요: 그렇다"]);
  });

  it("keeps a name's initials in its sentence (J. K. Rowling, J.R.R. Tolkien)", () => {
    assert.deepEqual(splitStatements("J. K. Rowling wrote the books. They sold well."), ["J. K. Rowling wrote the books.", "They sold well."]);
    assert.deepEqual(splitStatements("It was written by J.R.R. Tolkien."), ["It was written by J.R.R. Tolkien."]);
  });

  it("keeps a date written with dots in one sentence, and splits a clause after a spaced dash", () => {
    assert.deepEqual(splitStatements("세종대왕은 1446. 10. 9.에 훈민정음을 반포했다."), ["세종대왕은 1446. 10. 9.에 훈민정음을 반포했다."]);
    assert.deepEqual(splitStatements("Water freezes at 0 °C — nothing in the kitchen gets colder."), ["Water freezes at 0 °C", "nothing in the kitchen gets colder."]);
  });

  it("keeps a short clause after a semicolon apart, and drops pieces that name nothing", () => {
    assert.deepEqual(splitStatements("Spiders aren't insects; they're arachnids."), ["Spiders aren't insects", "they're arachnids."]);
    assert.deepEqual(splitStatements("They do. Bees make honey."), ["Bees make honey."]);
  });

  it("keeps an abbreviated month in its sentence", () => {
    assert.deepEqual(splitStatements("The treaty was signed on Dec. 12, 2015. It took effect later."), ["The treaty was signed on Dec. 12, 2015.", "It took effect later."]);
  });

  it("drops filler, keeps refusals, and drops empty or symbol-only text", () => {
    assert.deepEqual(splitStatements("Mars has two moons, I believe."), ["Mars has two moons."]);
    assert.deepEqual(splitStatements("I'm not sure about that."), ["I'm not sure about that."]);
    assert.deepEqual(splitStatements(""), []);
    assert.deepEqual(splitStatements("- ...\n* ---"), []);
  });

  it("splits Korean sentences and clauses, keeping the text as written", () => {
    assert.deepEqual(splitStatements("서울은 한국의 수도이며 부산은 항구 도시이다."), ["서울은 한국의 수도이며", "부산은 항구 도시이다."]);
    assert.deepEqual(splitStatements("많은 연구자가 이 기술을 보유하고 있다."), ["많은 연구자가 이 기술을 보유하고 있다."]);
  });
});

describe("classifyStatements", () => {
  it("supports paraphrase, word order, lemmas and possessives", () => {
    const v = verdicts("Who painted the Mona Lisa?", "The Mona Lisa was painted by Leonardo da Vinci.", "Leonardo da Vinci painted the Mona Lisa.");
    assert.deepEqual(v, { ...v, response: ["TP"], reference: ["covered"] });
    const order = verdicts("Where and when was Curie born?", "In 1867, Marie Curie was born in Warsaw.", "Marie Curie was born in Warsaw in 1867.");
    assert.deepEqual([order.response, order.reference], [["TP", "TP"], ["covered", "covered"]]);
    const possessive = verdicts("What is Jupiter's largest moon?", "Jupiter's largest moon is Ganymede.", "The largest moon of Jupiter is Ganymede.");
    assert.deepEqual([possessive.response, possessive.reference], [["TP"], ["covered"]]);
  });

  it("matches values written another way: dates, separators, units, approximations, abbreviations", () => {
    const cases: Array<[string, string, string]> = [
      ["When did the Berlin Wall fall?", "The Berlin Wall fell on 9 November 1989.", "The Berlin Wall fell on November 9, 1989."],
      ["How high is Mont Blanc?", "Mont Blanc is 4,806 metres high.", "Mont Blanc is 4806 m high."],
      ["How long is the Nile?", "The Nile is about 6,650 km long.", "The Nile is roughly 6650 kilometres long."],
      ["What is the melting point of iron?", "Iron melts at 1538 degrees Celsius.", "Iron melts at 1,538 °C."],
      ["What share of the Earth is covered by water?", "About 71% of the Earth's surface is water.", "Water covers 70.8 percent of the Earth's surface."],
      ["When did WWI end?", "WWI ended in 1918.", "The First World War ended in 1918."],
    ];
    assertSupported(cases);
  });

  it("marks another number, date or year in the same slot FP and names both values", () => {
    const v = verdicts("When was the Magna Carta sealed?", "The Magna Carta was sealed in 1225.", "The Magna Carta was sealed in 1215.");
    assert.deepEqual([v.response, v.reference], [["FP"], ["FN"]]);
    assert.match(v.reasons[0]!, /1225 where it says 1215/);
    const unit = verdicts("How fast is sound?", "Sound travels at 440 metres per second.", "Sound travels at 343 metres per second.");
    assert.deepEqual(unit.response, ["FP"]);
  });

  it("marks a swapped person or place FP and names both", () => {
    const person = verdicts("Who wrote Pride and Prejudice?", "Pride and Prejudice was written by Charlotte Bronte.", "Jane Austen wrote Pride and Prejudice.");
    assert.deepEqual([person.response, person.reference], [["FP"], ["FN"]]);
    assert.match(person.reasons[0]!, /"Charlotte", "Bronte" where it names "Jane", "Austen"/);
    const place = verdicts("Where is the Taj Mahal?", "The Taj Mahal is in Delhi.", "The Taj Mahal is in Agra.");
    assert.deepEqual(place.response, ["FP"]);
    const superlative = verdicts(
      "What is the longest river?",
      "The Amazon is the longest river in the world.",
      "The Nile is the longest river in the world. The Amazon carries the most water.",
    );
    assert.deepEqual(superlative.response, ["FP"]);
  });

  it("splits a two-fact answer into one TP, one FP and one FN when one fact is swapped", () => {
    const v = verdicts("Where and when was Curie born?", "Marie Curie was born in Paris in 1867.", "Marie Curie was born in 1867 in Warsaw.");
    assert.deepEqual([v.response.sort(), v.reference.sort()], [["FP", "TP"], ["FN", "covered"]]);
  });

  it("marks a negation on one side FP, and agrees with a bare no that matches a negated reference", () => {
    const v = verdicts("Do spiders have six legs?", "Spiders have six legs.", "Spiders do not have six legs; they have eight.");
    assert.equal(v.response[0], "FP");
    const no = verdicts("Is Pluto a planet?", "No.", "Pluto is not a planet; it is a dwarf planet.");
    assert.deepEqual(no.response, ["TP"]);
    const yes = verdicts("Is Pluto a planet?", "Yes.", "Pluto is not a planet; it is a dwarf planet.");
    assert.deepEqual(yes.response, ["FP"]);
  });

  it("marks opposite words FP (a colour for another, a rise for a fall)", () => {
    assert.deepEqual(verdicts("What colour is a ripe banana?", "A ripe banana is blue.", "A ripe banana is yellow.").response, ["FP"]);
    assert.deepEqual(verdicts("What happened to sales?", "Sales fell sharply in spring.", "Sales rose sharply in spring.").response, ["FP"]);
  });

  it("marks an opposite verb or adjective FP even when the values and nouns match, and names both words", () => {
    const cases: Array<[string, string, string, RegExp]> = [
      ["How did the club do in the cup?", "The club lost the cup final in 2004.", "The club won the cup final in 2004.", /"lost" where it says "won"/],
      ["When did the strike end?", "The strike started in March 1984.", "The strike ended in March 1984.", /"started" where it says "ended"/],
      ["What did the senate do with the treaty?", "The senate ratified the treaty in 1920.", "The senate rejected the treaty in 1920.", /"ratified" where it says "rejected"/],
      ["How heavy is aluminium?", "Aluminium is heavier than copper.", "Aluminium is lighter than copper.", /"heavier" where it says "lighter"/],
      ["What does Norway do with gas?", "Norway imports natural gas.", "Norway exports natural gas.", /"imports" where it says "exports"/],
      ["Did the crew survive?", "The whole crew perished.", "The whole crew survived.", /"perished" where it says "survived"/],
    ];
    assertClashes(cases);
  });

  it("supports a statement that says the same with a synonym or another spelling, and never calls synonyms a clash", () => {
    const cases: Array<[string, string, string]> = [
      ["How big is the crater?", "The crater is enormous.", "The crater is very large."],
      ["Is the pass dangerous in winter?", "The pass is perilous in winter.", "The pass is dangerous in winter."],
      ["Who wrote the anthem?", "The anthem was composed by Francis Scott Key.", "Francis Scott Key wrote the anthem."],
      ["When did the garrison give up?", "The garrison capitulated in June 1940.", "The garrison surrendered in June 1940."],
      ["What colour is the flag?", "The flag is grey.", "The flag is gray."],
      ["What happened to rents?", "Rents climbed in 2022.", "Rents rose in 2022."],
    ];
    assertSupported(cases);
  });

  it("reads a verb of two words as the word it means: a paraphrase is supported, a contradiction is FP and named", () => {
    const paraphrases: Array<[string, string, string]> = [
      ["Where did the painter die?", "The painter passed away in Arles.", "The painter died in Arles."],
      ["What did the council do with the plan?", "The council turned down the plan.", "The council rejected the plan."],
      ["What did the lab do?", "The lab carried out a trial on mice.", "The lab performed a trial on mice."],
    ];
    assertSupported(paraphrases);
    const contradictions: Array<[string, string, string, RegExp]> = [
      ["What happened to rents?", "Rents went down after the reform.", "Rents rose after the reform.", /"went down" where it says "rose"/],
      ["Did the pilot survive?", "The pilot passed away in the crash.", "The pilot survived the crash.", /"passed away" where it says "survived"/],
      ["What did the council do with the plan?", "The council turned down the plan.", "The council approved the plan.", /"turned down" where it says "approved"/],
    ];
    assertClashes(contradictions);
  });

  it("marks the same thing in the opposite relation FP (above / below, before / after, with / without), and a synonym relation TP", () => {
    const cases: Array<[string, string, string, RegExp]> = [
      ["Where is the boiler?", "The boiler is installed below the attic.", "The boiler is installed above the attic.", /"below" where it says "above" \(of "attic"\)/],
      ["When did the bridge open?", "The bridge opened after the flood.", "The bridge opened before the flood.", /"after" where it says "before"/],
      ["How is the dish served?", "The dish is served with rice.", "The dish is served without rice.", /"with" where it says "without"/],
    ];
    assertClashes(cases);
    const same = verdicts("Where is the boiler?", "The boiler is installed beneath the attic.", "The boiler is installed below the attic.");
    assert.deepEqual([same.response, same.reference], [["TP"], ["covered"]]);
  });

  it("does not support an answer's statement on its subject alone, but still lets a reference statement be covered by it", () => {
    const flying = verdicts("What can cats do?", "Cats can fly.", "Cats can climb trees. Cats have four legs.");
    assert.deepEqual(flying.response, ["FP"]);
    assert.match(flying.reasons[0]!, /never says "fly" of Cats/);
    // What it says of the subject found (four legs), in other words: supported.
    assert.deepEqual(verdicts("What can cats do?", "A cat has four legs.", "Cats have four legs.").response, ["TP"]);
    // The reference's side stays lenient: an answer naming Apollo 11 covers "the Apollo 11 mission".
    const covered = verdicts("Who first walked on the Moon?", "Neil Armstrong walked on the Moon on Apollo 11.", "Neil Armstrong walked on the Moon during the Apollo 11 mission.").reference;
    assert.ok(covered.length > 0 && covered.every((v) => v === "covered"), covered.join(", "));
  });

  it("marks another count of the same thing in words FP, and leaves counts of other things alone", () => {
    assertClashes([
      ["How many legs does a spider have?", "A spider has six legs.", "A spider has eight legs.", /six where it says eight/],
      ["How long is a presidential term in France?", "The French president serves a seven-year term.", "The French president serves a five-year term.", /seven-year where it says five-year/],
    ]);
    assertSupported([["How many legs does a spider have?", "A spider has eight legs.", "A spider has 8 legs."]]);
    // "two wings" counts wings: no clash with "four legs".
    assert.deepEqual(verdicts("Describe a beetle.", "A beetle has two wings.", "A beetle has two wings and six legs.").response, ["TP"]);
  });

  it("checks a bare count or value that answers the question against the reference", () => {
    assert.deepEqual(verdicts("How many moons does Mars have?", "Two.", "Mars has two moons.").response, ["TP"]);
    assert.deepEqual(verdicts("How many moons does Mars have?", "Three.", "Mars has two moons.").response, ["FP"]);
    assert.deepEqual(verdicts("How tall is the tower?", "Typically 330 metres, with its antennas.", "The tower is 330 metres tall with its antennas.").response, ["TP"]);
  });

  it("marks the right names in the wrong roles FP when both names are in the reference (a swap)", () => {
    const v = verdicts("Who won the 1966 World Cup final?", "West Germany won the 1966 World Cup final, losing to nobody.", "England won the 1966 World Cup final. It beat West Germany 4–2.");
    assert.equal(v.response[0], "FP", v.reasons.join(" | "));
    assert.match(v.reasons[0]!, /Germany.*England|England.*Germany/);
  });

  it("finds a country under its other name, and tells two names with the same last word apart", () => {
    assertSupported([
      ["Where is the Tower of London?", "The Tower of London is in Britain.", "The Tower of London is in the United Kingdom."],
      ["Where is the Statue of Liberty?", "The Statue of Liberty stands in the United States.", "The Statue of Liberty stands in America."],
      ["Who wrote Hamlet?", "Hamlet was written by William Shakespeare.", "Shakespeare wrote Hamlet."],
    ]);
    assertClashes([["Where does the Danube flow?", "The Danube flows into the Red Sea.", "The Danube flows into the Black Sea.", /Red.*Black/]]);
  });

  it("reads single capital letters as names, and does not find a name by its last word inside a longer name", () => {
    assertClashes([["Which vitamin is made in the skin?", "The skin makes vitamin C.", "The skin makes vitamin D.", /C.*D/]]);
    const v = verdicts("Which court sits in Strasbourg?", "The European Court of Auditors sits in Strasbourg.", "The European Court of Human Rights sits in Strasbourg.");
    assert.deepEqual(v.response, ["FP"], v.reasons.join(" | "));
    // A plural opening a sentence is still the noun: "Storms" against "storm".
    assertSupported([["What causes floods?", "Storms cause floods.", "Floods are caused by heavy storms."]]);
  });

  it("matches a verb with its -ing form, and does not oppose a noun to an adjective ('the final' is not 'the first')", () => {
    assertSupported([["How do ducks move on water?", "Ducks are good at swimming.", "Ducks swim well."]]);
    const v = verdicts("Who won the first Tour de France, and when?", "Maurice Garin won it in 1903, ahead of everyone in the final.", "Maurice Garin won the first Tour de France in 1903.");
    assert.ok(!v.reasons.some((r) => /first|final/.test(r) && /clash/.test(r)), v.reasons.join(" | "));
  });

  it("marks an affirmed statement FP when the reference denies it, even if another reference statement shares its words", () => {
    const v = verdicts("Is zero a positive number?", "Zero counts as a positive number.", "Zero is not a positive number. A positive number is greater than zero.");
    assert.equal(v.response[0], "FP", v.reasons.join(" | "));
  });

  it("marks an attribute taken from the wrong statement FP (a crossed pair), in English and Korean", () => {
    const v = verdicts("Which pole is colder?", "The South Pole is milder, while the North Pole is colder.", "The South Pole is colder. The North Pole is milder.");
    assert.deepEqual(v.response, ["FP", "FP"], v.reasons.join(" | "));
    const k = verdicts("수탉과 암탉 중 알을 낳는 것은?", "수탉은 알을 낳고, 암탉은 새벽에 웁니다.", "암탉은 알을 낳고, 수탉은 새벽에 운다.");
    assert.deepEqual(k.response, ["FP", "FP"], k.reasons.join(" | "));
    // Two facts of two statements, each where it belongs, stay TP.
    const both = verdicts("Tell me about Paris.", "Paris is the capital of France and lies on the Seine.", "Paris is the capital of France. Paris lies on the Seine.");
    assert.ok(both.response.every((x) => x === "TP"), both.reasons.join(" | "));
  });

  it("marks two names in each other's roles FP, in English and Korean", () => {
    const v = verdicts("Who won the 1997 match?", "Kasparov defeated Deep Blue.", "Deep Blue defeated Kasparov.");
    assert.deepEqual(v.response, ["FP"], v.reasons.join(" | "));
    assert.match(v.reasons[0]!, /each other's roles/);
    const k = verdicts("결승전 결과는?", "브라질 대표팀이 독일을 이겼다.", "독일 대표팀이 브라질을 이겼다.");
    assert.deepEqual(k.response, ["FP"], k.reasons.join(" | "));
  });

  it("does not call active and passive sentences a swap, nor a reference fact said in other words a crossed attribute", () => {
    assertSupported([["Has Antarctica hosted the Olympics?", "Antarctica has never hosted the Olympics.", "The Olympics have never been held in Antarctica."]]);
    assertSupported([["비행은 어디서 했나요?", "첫 비행은 키티호크 인근에서 했다.", "첫 비행은 키티호크 근처에서 했다."]]);
  });

  it("leaves a reference fact uncovered when the answer gives its two attributes crossed, in English and in Korean", () => {
    const v = verdicts(
      "How does blood circulate?",
      "Veins carry blood away from the heart, and arteries carry it back toward the heart.",
      "Arteries carry blood away from the heart. Veins carry blood back toward the heart.",
    );
    assert.deepEqual([v.response, v.reference], [["FP", "FP"], ["FN", "FN"]], v.reasons.join(" | "));
    // A noun with the copula fused on (어류이고, 포유류입니다) is what is said of the subject, not a verb.
    const k = verdicts("고래와 상어는 각각 무엇인가요?", "고래는 어류이고, 상어는 포유류입니다.", "고래는 포유류이고, 상어는 어류이다.");
    assert.deepEqual([k.response, k.reference], [["FP", "FP"], ["FN", "FN"]], k.reasons.join(" | "));
    // One-way, a word of the answer's own in the place of the reference's is wording, not a cross.
    assertAllSupported("Do ships in Britain keep left?", "Yes, boats on British rivers keep to the left.", "Yes. On British rivers, vessels keep to the left.");
  });

  it("gives each thing of a gapped clause its own value or place, and catches them crossed", () => {
    assert.deepEqual(splitStatements("Bell worked in Boston and Edison in New Jersey."), ["Bell worked in Boston", "Edison worked in New Jersey."]);
    assert.deepEqual(splitStatements("세종은 1418년, 정조는 1776년에 즉위했다."), ["세종은 1418년 즉위했다.", "정조는 1776년에 즉위했다."]);
    assert.deepEqual(splitStatements("사과 3개, 배 2개예요."), ["사과 3개", "배 2개예요."]);
    const v = verdicts("Where did they work?", "Edison worked in Boston and Bell in New Jersey.", "Bell worked in Boston. Edison worked in New Jersey.");
    assert.deepEqual([v.response, v.reference], [["FP", "FP"], ["FN", "FN"]], v.reasons.join(" | "));
    assert.match(v.reasons[0]!, /"Boston" where it says "New Jersey"/);
    const k = verdicts("두 왕은 언제 즉위했나요?", "세종은 1776년, 정조는 1418년에 즉위했다.", "세종은 1418년에 즉위했다. 정조는 1776년에 즉위했다.");
    assert.deepEqual([k.response, k.reference], [["FP", "FP"], ["FN", "FN"]], k.reasons.join(" | "));
    assert.match(k.reasons[0]!, /1418년 for "세종은", not 1776년/);
    const n = verdicts("서울과 부산의 지역 번호는?", "서울은 051, 부산은 02입니다.", "서울의 지역 번호는 02이고, 부산의 지역 번호는 051이다.");
    assert.deepEqual(n.response, ["FP", "FP"], n.reasons.join(" | "));
    // The same values, each with its own thing, stay TP.
    assertAllSupported("서울과 부산의 지역 번호는?", "서울은 02, 부산은 051입니다.", "서울의 지역 번호는 02이고, 부산의 지역 번호는 051이다.");
    // A native Korean number before 칸, 층, 편 … is a count.
    assert.deepEqual(findValues("모는 다섯 칸을 움직인다").map((x) => x.value), [5]);
  });

  it("splits a verbless 'X, not Y' answer into the answer and its denial, so that the answer counts", () => {
    assert.deepEqual(splitStatements("The heart, not the brain."), ["The heart.", "not the brain."]);
    const v = verdicts("Which organ pumps blood?", "The heart, not the brain.", "The heart pumps blood through the body.");
    assert.equal(v.response[0], "TP", v.reasons.join(" | "));
  });

  it("splits a list of names closed by 'and' item by item, and a clause with its own subject after an adverb", () => {
    // "borders" is read as a noun by the tagger; the verb stays with every item all the same.
    assert.deepEqual(splitStatements("It borders France, Spain, Italy and Austria."), ["It borders France.", "It borders Spain.", "It borders Italy.", "It borders Austria."]);
    assert.deepEqual(splitStatements("The founders were Larry Page, Sergey Brin and Eric Schmidt."), ["The founders were Larry Page.", "The founders were Sergey Brin.", "The founders were Eric Schmidt."]);
    // Two single-word names alone are still one name, and "Rome, Italy" an apposition.
    assert.deepEqual(splitStatements("The expedition was led by Lewis and Clark."), ["The expedition was led by Lewis and Clark."]);
    assert.equal(splitStatements("He was born in Rome, Italy, in 1950.")[0], "He was born in Rome, Italy.");
    assert.deepEqual(splitStatements("Anodes always attract anions and cathodes always attract cations."), ["Anodes always attract anions", "cathodes always attract cations."]);
  });

  it("reads 'not … until' a date as when it happened, not as a denial", () => {
    assertSupported([["When did Hawaii become a state?", "Hawaii did not become a state until 1959.", "Hawaii became a state in 1959."]]);
    assert.deepEqual(verdicts("Is the shop open?", "The shop is not open until further notice.", "The shop is open.").response, ["FP"]);
  });

  it("reads names and numbers written another common way: initials, titles, 'No.', short words of names, scientific notation, dozens", () => {
    assertSupported([
      ["Who discovered the electron?", "The electron was discovered by J. J. Thomson.", "J.J. Thomson discovered the electron."],
      ["Who did the first heart transplant?", "It was Dr. Christiaan Barnard.", "Christiaan Barnard performed the first heart transplant."],
      ["Where was the transistor invented?", "At Bell Laboratories.", "The transistor was invented at Bell Labs."],
      ["How high is Mount Fuji?", "Mt. Fuji is 3,776 m high.", "Mount Fuji is 3,776 metres high."],
      ["What is Avogadro's number?", "It is about 6.02 × 10²³ per mole.", "Avogadro's number is about 6.022 × 10^23 per mole."],
      ["How many eggs are in the box?", "The box holds two dozen eggs.", "The box holds 24 eggs."],
    ]);
    assert.deepEqual(findValues("3 x 10^8 m/s").map((v) => [v.dimension, v.value]), [["speed", 3e8]]);
    assert.deepEqual(findValues("1.6e-19").map((v) => v.value), [1.6e-19]);
    assert.deepEqual(verdicts("What is Avogadro's number?", "It is about 6.02 × 10^22 per mole.", "Avogadro's number is about 6.022 × 10^23 per mole.").response, ["FP"]);
    // "No." names nothing before a number: the symphony is judged on what is said of it.
    assertAllSupported("Where did the Ninth premiere?", "Symphony No. 9 premiered in Vienna.", "The Ninth Symphony premiered in Vienna.");
  });

  it("reads centuries, decades and frequencies in their common forms", () => {
    const dims = (t: string) => findValues(t).map((v) => [v.dimension, v.value]);
    assert.deepEqual(dims("in the late 15th century"), [["century", 15]]);
    assert.deepEqual(dims("toward the end of the 1400s"), [["century", 15]]);
    assert.deepEqual(dims("the fifteenth century"), [["century", 15]]);
    assert.deepEqual(dims("15세기 후반"), [["century", 15]]);
    assert.deepEqual(dims("in the 1990s"), [["decade", 1990]]);
    assert.deepEqual(dims("2.4 GHz"), [["frequency", 2.4e9]]);
    assertSupported([["When was Sikhism founded?", "It began toward the end of the 1400s.", "Sikhism began in the late 15th century."]]);
    assert.deepEqual(verdicts("When was Sikhism founded?", "It began in the 1500s.", "Sikhism began in the 15th century.").response, ["FP"]);
    assertSupported([["At what frequency does it vibrate?", "It vibrates at 32,768 Hz.", "It vibrates at 32,768 hertz."]]);
  });

  it("does not ask an answer's verb alone to be the reference's: verbs are paraphrased freely", () => {
    assertSupported([["Has Africa hosted the Olympics?", "Africa has never hosted the Olympics.", "The Olympics have never been held in Africa."]]);
    // Something other than a verb that the reference never says of the subject still is FP.
    assert.deepEqual(verdicts("What can cats do?", "Cats can fly.", "Cats have four legs.").response, ["FP"]);
  });

  it("reads 'first' before a verb as 'for the first time', and 'original' as 'first'", () => {
    const v = verdicts("Where did the opera open?", "The opera was first performed in Milan in 1816.", "The opera premiered in Milan in 1816. Its final act is set in Seville.");
    assert.deepEqual(v.response, ["TP", "TP"], v.reasons.join(" | "));
    assertSupported([["When did the iPhone come out?", "The first iPhone came out in 2007.", "The original iPhone was released in 2007."]]);
  });

  it("reads the short end of a range of years in the century of its start", () => {
    assert.deepEqual(findValues("the war of 1914–18").map((v) => [v.dimension, v.value]), [["year", 1914], ["year", 1918]]);
    assert.deepEqual(findValues("scored 21-18").map((v) => v.value), [21, 18]);
    assertAllSupported("When was the war?", "It was fought in 1939–45.", "It was fought from 1939 to 1945.");
    // A range in one Korean word is one item: no statement loses both its ends.
    assert.deepEqual(splitStatements("독도는 대략 460만~250만 년 전에 형성됐다."), ["독도는 대략 460만~250만 년 전에 형성됐다."]);
  });

  it("keeps a value's hyphenated compound whole when it splits a clause by value, and gives a 'who' clause its person", () => {
    const split = splitStatements("You may stay up to 30 days in any 60-day window.");
    assert.ok(split.every((s) => !/\s-\p{L}/u.test(s)), split.join(" | "));
    assert.ok(split.some((s) => s.includes("60-day window")), split.join(" | "));
    const who = splitStatements("The first woman in space was Valentina Tereshkova, who flew aboard Vostok 6 in June 1963.");
    assert.ok(who.length >= 2 && who.slice(1).every((s) => s.startsWith("Valentina Tereshkova flew")), who.join(" | "));
  });

  it("treats a Korean title in brackets as a name, and checks a Korean slot against every statement sharing two things", () => {
    assertClashes([["이 작가의 대표작은?", "대표작은 『토지』입니다.", "대표작은 『태백산맥』입니다.", /토지.*태백산맥/]]);
    const v = verdicts("탄소 원자에 대해 알려 주세요.", "탄소 원자핵에는 중성자가 6개 있다.", "탄소의 원자 번호는 6이다. 탄소 원자핵에는 양성자가 6개 있다.");
    assert.equal(v.response[0], "FP", v.reasons.join(" | "));
    assert.match(v.reasons[0]!, /중성자가.*양성자가/);
    // "한 번씩" is an idiom, not a count that splits the claim.
    assert.equal(findValues("76년에 한 번씩 돌아온다").length, 1);
  });

  it("reads 'no X has …' after a comma as a denial, and agrees with 'never' on the same side", () => {
    const v = verdicts("Has a woman walked on the Moon?", "No woman has ever walked on the Moon.", "As of 2024, no woman has walked on the Moon.");
    assert.deepEqual(v.response, ["TP"], v.reasons.join(" | "));
    assert.deepEqual(verdicts("Has a woman walked on the Moon?", "A woman has walked on the Moon.", "As of 2024, no woman has walked on the Moon.").response, ["FP"]);
  });

  it("reads a Korean number with its unit as one value, whatever script the unit is in", () => {
    assert.deepEqual(verdicts("한강의 길이는?", "길이는 대략 494km 정도입니다.", "한강의 길이는 약 494킬로미터입니다.").response, ["TP"]);
    assert.deepEqual(verdicts("한강의 길이는?", "길이는 대략 510km 정도입니다.", "한강의 길이는 약 494킬로미터입니다.").response, ["FP"]);
  });

  it("counts extra claims as FP and missing ones as FN", () => {
    const v = verdicts(
      "What is the capital of Canada?",
      "Ottawa is the capital of Canada. Toronto hosts the stock exchange.",
      "The capital of Canada is Ottawa. It lies on the Ottawa River.",
    );
    assert.deepEqual([v.response, v.reference], [["TP", "FP"], ["covered", "FN"]]);
  });

  it("reads the ways a model declines as refusals, and finds a formula under its name", () => {
    for (const answer of ["I'm not certain which city that was.", "I'd rather not guess.", "I can't recall who wrote it.", "I don't have reliable information about that."]) {
      assert.deepEqual(verdicts("Who wrote it?", answer, "Tolstoy wrote it.").response, ["FP"], answer);
    }
    assertSupported([["Which gas is in natural gas?", "Natural gas is mostly CH4.", "Natural gas is mostly methane."]]);
  });

  it("treats a refusal as a claim that supports nothing", () => {
    const v = verdicts("What is the capital of Peru?", "I don't know the answer.", "The capital of Peru is Lima.");
    assert.deepEqual([v.response, v.reference], [["FP"], ["FN"]]);
    assert.match(v.reasons[0]!, /refusal/);
  });

  it("handles Korean: paraphrase with other endings TP, swapped subject and wrong year FP", () => {
    const q = "측우기는 누가 언제 만들었나요?";
    assert.deepEqual(verdicts(q, "측우기는 장영실이 만들었습니다.", "측우기는 장영실이 만들었다.").response, ["TP"]);
    const swapped = verdicts(q, "측우기는 정약용이 만들었습니다.", "측우기는 장영실이 만들었다.");
    assert.deepEqual(swapped.response, ["FP"]);
    assert.match(swapped.reasons[0]!, /정약용이.*장영실이/);
    assert.deepEqual(verdicts(q, "측우기는 1500년에 만들어졌다.", "측우기는 1441년에 만들어졌다.").response, ["FP"]);
  });

  it("gives exactly one verdict per statement, in order, each with a reason", () => {
    const reply = classifyStatements("q", ["A cat is a mammal.", "A cat has four legs.", "Cats can fly."], ["A cat is a mammal.", "Cats have four legs."]);
    assert.equal(reply.response.length, 3);
    assert.equal(reply.reference.length, 2);
    assert.ok([...reply.response, ...reply.reference].every((v) => v.reason.length > 0));
  });
});

describe("lexicon", () => {
  it("puts each word in one synonym group at most, and never two synonyms in opposite poles", () => {
    const seen = new Map<string, number>();
    SYNONYM_GROUPS.forEach((group, g) => {
      for (const word of group) {
        assert.equal(seen.get(word), undefined, `"${word}" is in synonym groups ${seen.get(word)} and ${g}`);
        seen.set(word, g);
      }
    });
    // As listed: no entry of OPPOSITES puts two words of one synonym group in different poles.
    for (const poles of OPPOSITES) {
      poles.forEach((words, i) =>
        poles.forEach((others, j) => {
          if (i === j) return;
          for (const w of words) for (const v of others) assert.notEqual(synonymKey(w), synonymKey(v), `"${w}" and "${v}" are synonyms and listed as opposites`);
        }),
      );
    }
  });

  it("makes opposites symmetric, and carries them to synonyms", () => {
    assert.equal(opposite("win", "lose"), true);
    assert.equal(opposite("lose", "win"), true);
    assert.equal(opposite("perish", "survive"), true);
    assert.equal(opposite("enormous", "tiny"), true);
    assert.equal(opposite("rise", "climb"), false);
    assert.equal(synonymKey("capitulate"), "surrender");
    assert.equal(synonymKey("penicillin"), "penicillin");
  });

  it("gives every relation word an opposite", () => {
    for (const word of RELATION_WORDS) assert.ok(hasOpposite(word), `"${word}" has an opposite in OPPOSITES`);
    assert.equal(opposite("above", "beneath"), true);
    assert.equal(opposite("below", "beneath"), false);
  });

  it("reads a verb of two words only where both are there, and not in the other sense it names", () => {
    assert.equal(phrasalVerb("pass", "away"), "die");
    assert.equal(phrasalVerb("go", "Up"), "increase");
    assert.equal(phrasalVerb("pass", "the", "exam"), undefined);
    assert.equal(phrasalVerb("break", "out", "in"), "begin");
    assert.equal(phrasalVerb("break", "out", "of"), undefined, '"broke out of prison" is an escape');
    for (const p of PHRASAL_VERBS) assert.equal(synonymKey(p.meaning), p.meaning, `"${p.meaning}" is its synonym group's key, so it matches the whole group`);
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
    assert.deepEqual(hashedEmbedding("it is the", 8), [0, 0, 0, 0, 0, 0, 0, 0]);
    assert.ok(Number.isNaN(cosineSimilarity(hashedEmbedding(""), hashedEmbedding("penicillin"))));
  });

  it("puts paraphrases closer than unrelated texts, and reads dates in any format as one", () => {
    const a = hashedEmbedding("Alexander Fleming discovered penicillin in 1928.");
    const similar = hashedEmbedding("Penicillin was discovered by Fleming in 1928.");
    const unrelated = hashedEmbedding("The Eiffel Tower stands in Paris.");
    assert.ok(cosineSimilarity(a, similar) > cosineSimilarity(a, unrelated));
    assert.ok(Math.abs(cosineSimilarity(hashedEmbedding("held on Jan 15, 1967"), hashedEmbedding("held on 15 January 1967")) - 1) < 1e-12);
    const ko = hashedEmbedding("한글은 1443년에 세종대왕이 창제했다.");
    assert.ok(cosineSimilarity(ko, hashedEmbedding("세종대왕이 1443년에 한글을 만들었다.")) > cosineSimilarity(ko, unrelated));
  });

  it("uses 32-bit FNV-1a over UTF-8 and rejects bad sizes", () => {
    assert.equal(fnv1a32(""), 0x811c9dc5);
    assert.equal(fnv1a32("a"), 0xe40c292c);
    assert.equal(fnv1a32("foobar"), 0xbf9cf968);
    // FNV-1a of the UTF-8 bytes ed 95 9c (한), computed byte by byte.
    let h = 0x811c9dc5;
    for (const b of [0xed, 0x95, 0x9c]) h = Math.imul(h ^ b, 0x01000193) >>> 0;
    assert.equal(fnv1a32("한"), h);
    assert.throws(() => hashedEmbedding("x", 0), RangeError);
  });
});

describe("text helpers (relevance)", () => {
  it("lower-cases, drops stop words, stems English lightly; strips Korean particles", () => {
    assert.deepEqual(contentWords("The boxes were creating countries"), ["box", "creat", "country"]);
    assert.deepEqual(contentWords("한글은 1443년에 세종대왕이 창제했다."), ["한글", "1443", "년", "세종대왕", "창제"]);
    assert.deepEqual(analyzeText("Fleming didn't discover it and never said so.").negations, ["didn't", "never"]);
  });
});

describe("judgeRelevanceText", () => {
  const contexts = ["Alexander Fleming discovered penicillin in 1928 at St Mary's Hospital in London."];

  it("is relevant when enough response words appear in the contexts", () => {
    assert.deepEqual(judgeRelevanceText("When?", "Penicillin was discovered in 1928.", contexts), {
      relevant: true,
      reason: '3 of 3 response words appear in the contexts: "penicillin", "discovered", "1928"',
    });
  });

  it("is not relevant when the words are missing or a number contradicts the contexts", () => {
    assert.equal(judgeRelevanceText("When?", "The Eiffel Tower is in Paris.", contexts).relevant, false);
    assert.deepEqual(judgeRelevanceText("When?", "Penicillin was discovered in 1929.", contexts), {
      relevant: false,
      reason: "number 1929 does not appear in the contexts (they mention 1928)",
    });
  });

  it("handles empty responses and missing contexts", () => {
    assert.deepEqual(judgeRelevanceText("q", "  ", contexts), { relevant: false, reason: "the response is empty" });
    assert.equal(judgeRelevanceText("q", "Penicillin.", []).relevant, false);
  });
});

describe("values in common number formats", () => {
  it("reads a four-digit number before a counted noun as a count, and a bare one as a count against a count", () => {
    assert.equal(value("a staff of 1200 nurses").dimension, "number");
    assert.equal(value("it sold 1750 tickets").dimension, "number");
    assert.equal(value("in 1750 settlers arrived").dimension, "year");
    assert.equal(value("1969 marks the landing").dimension, "year");
    assert.equal(compareValues(value("1200 nurses"), value("1,200 nurses")), "same");
    assert.equal(compareValues(value("1200 nurses"), value("12,000 nurses")), "different");
    assert.equal(compareValues(value("The library holds 1800."), value("1,800 books")), "same");
    assert.equal(compareValues(value("The library holds 1800."), value("8,000 books")), "different");
    // A year is still a year against a year, and against a count of years it is unrelated.
    assert.equal(compareValues(value("built 1800"), value("in 1800")), "same");
    assert.equal(compareValues(value("in 1800"), value("1,800 books")), "unrelated");
    assertSupported([["How many nurses work there?", "The hospital employs 1200 nurses.", "The hospital employs 1,200 nurses."]]);
    assert.deepEqual(verdicts("How many nurses work there?", "The hospital employs 12,000 nurses.", "The hospital employs 1200 nurses.").response, ["FP"]);
  });

  it("reads magnitude letters after a number and currency codes before one", () => {
    assert.equal(value("a budget of $7M").value, 7e6);
    assert.equal(value("a budget of $7m").value, 7e6);
    assert.equal(value("a budget of $7MM").value, 7e6);
    assert.equal(value("sales of $1.2B").value, 1.2e9);
    assert.equal(value("about 8.4M visitors").value, 8.4e6);
    assert.equal(value("a 400 m sprint").dimension, "length");
    assert.equal(value("a fine of EUR 20,000").dimension, "money-eur");
    assert.equal(compareValues(value("GBP 2,500"), value("£2,500")), "same");
    assert.equal(compareValues(value("USD 7,000,000"), value("7 million dollars")), "same");
    assert.equal(compareValues(value("$7M"), value("$70M")), "different");
    assert.equal(compareValues(value("8.4M visitors"), value("8.4 billion visitors")), "different");
    assert.equal(compareValues(value("12bn"), value("12 billion")), "same");
    assert.equal(compareValues(value("12 mn"), value("12 million")), "same");
    assertSupported([["How much did the museum cost?", "The museum cost $40M to build.", "Building the museum cost 40 million dollars."]]);
    assert.deepEqual(verdicts("How much did the museum cost?", "The museum cost $400M to build.", "Building the museum cost 40 million dollars.").response, ["FP"]);
  });

  it("reads simple fractions in digits and in words as values, keeping dates with slashes as dates", () => {
    assert.equal(value("about 2/5 of the budget").value, 0.4);
    assert.equal(value("two fifths of the budget").value, 0.4);
    assert.equal(value("five-eighths of an inch").value, 5 / 8);
    assert.equal(value("nearly three quarters of voters").value, 0.75);
    assert.equal(compareValues(value("3/8 of the crew"), value("three eighths of the crew")), "same");
    assert.equal(compareValues(value("2/3 of the crew"), value("one third of the crew")), "different");
    assert.equal(compareValues(value("1/4 of adults"), value("25% of adults")), "same");
    assert.equal(valueToken(value("on 4/12/2021")), "date:2021-4-12");
    // A rank stays a rank, and "24/7" is no fraction.
    assert.equal(value("the fifth moon").dimension, "ordinal");
    assert.deepEqual(findValues("open 24/7").map((v) => v.value), [24, 7]);
    assertSupported([["How much of the island is farmland?", "Roughly 2/3 of the island is farmland.", "About two thirds of the island is farmland."]]);
    assert.deepEqual(verdicts("How much of the island is farmland?", "Roughly 1/3 of the island is farmland.", "About two thirds of the island is farmland.").response, ["FP"]);
  });

  it("reads clock times as one value with their am or pm, and keeps a time's colon from splitting the claim", () => {
    assert.equal(compareValues(value("at 6 pm"), value("at 18:00")), "same");
    assert.equal(compareValues(value("at 6:15 p.m."), value("at 18:15")), "same");
    assert.equal(compareValues(value("at 6 pm"), value("at 6:00 AM")), "different");
    assert.equal(compareValues(value("at 6 pm"), value("at 6 o'clock")), "same");
    assert.equal(compareValues(value("at 6:00"), value("at 6 a.m.")), "same");
    assert.equal(compareValues(value("at 6:00"), value("at 7 a.m.")), "different");
    assert.equal(compareValues(value("at 6:15"), value("at 18:30")), "different");
    assert.equal(compareValues(value("around 6 pm"), value("at 5:50 p.m.")), "same");
    assert.equal(compareValues(value("at 6 pm"), value("at 6")), "same");
    assert.equal(compareValues(value("at 6 pm"), value("6 km")), "unrelated");
    assert.deepEqual(splitStatements("The ferry leaves at 7:45 AM."), ["The ferry leaves at 7:45 AM."]);
    assertSupported([["When does the ferry leave?", "The ferry leaves at 7:45 in the evening.", "The ferry leaves at 7:45 PM."]]);
    assertSupported([["When does the ferry leave?", "The ferry leaves at 7:45 pm.", "The ferry leaves at 19:45."]]);
    assert.deepEqual(verdicts("When does the ferry leave?", "The ferry leaves at 7:45 am.", "The ferry leaves at 19:45.").response, ["FP"]);
  });

  it("reads ratios as ordered pairs: 1:4 is not 4:1, and 2:8 is 1:4", () => {
    assert.equal(value("a ratio of 5:2").dimension, "ratio");
    assert.equal(compareValues(value("a ratio of 1:4"), value("a ratio of 4:1")), "different");
    assert.equal(compareValues(value("a ratio of 1:4"), value("a ratio of 2:8")), "same");
    assert.equal(value("a 1:25 scale model").dimension, "ratio");
    assert.equal(value("a 16:9 screen").dimension, "ratio");
    assertSupported([["How is the drink mixed?", "Water and syrup are mixed 4:1.", "The drink mixes water and syrup in a 4:1 ratio."]]);
    assert.deepEqual(verdicts("How is the drink mixed?", "Water and syrup are mixed 1:4.", "The drink mixes water and syrup in a 4:1 ratio.").response, ["FP"]);
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
  });
});

describe("hashedEmbedding cosines", () => {
  it("are between 0 and 1: texts with nothing in common are at 0, never below", () => {
    const texts = ["1945년 8월 15일입니다.", "대한민국 정부는 1948년 8월 15일에 수립되었다.", "The Eiffel Tower stands in Paris.", "Penguins cannot fly."];
    for (const a of texts) for (const b of texts) {
      const c = cosineSimilarity(hashedEmbedding(a), hashedEmbedding(b));
      assert.ok(c >= 0 && c <= 1 + 1e-12, `${a} | ${b}: ${c}`);
    }
    assert.equal(cosineSimilarity(hashedEmbedding("Penguins cannot fly."), hashedEmbedding("The Eiffel Tower stands in Paris.")), 0);
  });
});

describe("long lines", () => {
  it("splits a line of thousands of sentences as it splits each sentence alone (the segmenter works window by window)", () => {
    const sentences = Array.from({ length: 400 }, (_, i) => `Dr. Fleming found penicillin in ${1900 + (i % 100)} at St. Mary's, and it saved ${i + 2} lives.`);
    const line = sentences.join(" ");
    assert.ok(line.length > 20_000);
    assert.deepEqual(splitStatements(line), sentences.flatMap((s) => splitStatements(s)));
  });
});
