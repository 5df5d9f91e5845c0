/**
 * The offline judge's values and lexicon: quantities in other units and systems (°F against °C,
 * pounds against kilograms), numbers and dates written in other ways, and words that mean the
 * same or the opposite. Each case reads a value or scores an answer as a careful reader would.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { scoreAnswerCorrectness } from "../src/frame/score";
import { NAME_ALIASES, opposite, synonymKey } from "../src/judge/offline/lexicon";
import { compareValues, findValues } from "../src/judge/offline/values";
import { records } from "./support/frames";

/** How the first value of `a` stands against the first value of `b`. */
function compare(a: string, b: string): string {
  const [x] = findValues(a);
  const [y] = findValues(b);
  assert.ok(x !== undefined && y !== undefined, `no value in ${JSON.stringify(x === undefined ? a : b)}`);
  return compareValues(x, y);
}

/** The offline scores of answers to questions, in order. */
async function scores(rows: ReadonlyArray<{ question: string; reference: string; answer: string }>): Promise<number[]> {
  const frame = await scoreAnswerCorrectness(
    rows.map((r) => ({ user_input: r.question, reference: r.reference, response: r.answer })),
    { judge: { judge: "offline" }, quiet: true, progress: false },
  );
  return records(frame).map((r) => r["answer_correctness"] as number);
}

/** Each right answer scores at least `high`, each wrong one below `low` and well under its right one. */
async function assertRightAboveWrong(cases: ReadonlyArray<{ question: string; reference: string; right: string; wrong: string }>, high = 0.7, low = 0.35): Promise<void> {
  const got = await scores(cases.flatMap((c) => [{ ...c, answer: c.right }, { ...c, answer: c.wrong }]));
  cases.forEach((c, i) => {
    const [right, wrong] = [got[2 * i]!, got[2 * i + 1]!];
    assert.ok(right >= high, `${JSON.stringify(c.right)} against ${JSON.stringify(c.reference)}: ${right}`);
    assert.ok(wrong < low && wrong < right - 0.3, `${JSON.stringify(c.wrong)} against ${JSON.stringify(c.reference)}: ${wrong}`);
  });
}

describe("temperatures on other scales", () => {
  it("reads kelvin, and compares °C, °F and K by converting them, at the precision they are written to", () => {
    assert.equal(findValues("Helium boils at 4.2 K.")[0]?.dimension, "temperature-k");
    assert.equal(findValues("It sold 95K copies.")[0]?.dimension, "number");
    assert.equal(compare("451 °F", "233 °C"), "same");
    assert.equal(compare("−40 °F", "−40 °C"), "same");
    assert.equal(compare("273 K", "0 °C"), "same");
    assert.equal(compare("37 °C", "98.6 °F"), "same");
    assert.equal(compare("400 °F", "200 °C"), "same"); // both written to tens
    assert.equal(compare("194 °F", "100 °C"), "different"); // 90 °C
    assert.equal(compare("32 °F", "32 °C"), "different");
    assert.equal(compare("about 1,500 °C", "2,700 °F"), "same"); // 1,482 °C
    // On one scale, as before: 90 °C is not 100 °C.
    assert.equal(compare("90 °C", "100 °C"), "different");
  });

  it("scores a right temperature on another scale high and a wrong one low", async () => {
    await assertRightAboveWrong([
      { question: "At what temperature does tin melt?", reference: "Tin melts at 232 °C.", right: "Tin melts at 449.5 °F.", wrong: "Tin melts at 600 °F." },
      { question: "At what temperature does nitrogen boil?", reference: "Nitrogen boils at −196 °C.", right: "Nitrogen boils at 77 K.", wrong: "Nitrogen boils at 150 K." },
    ]);
  });
});

describe("ranges", () => {
  it("gives the start of a range the unit written after its end", () => {
    assert.deepEqual(findValues("It takes 3 to 4 days.").map((v) => v.dimension), ["duration", "duration"]);
    assert.deepEqual(findValues("Roast at 190–200 °C.").map((v) => v.dimension), ["temperature-c", "temperature-c"]);
    assert.deepEqual(findValues("a rise of 20-30%").map((v) => v.dimension), ["percent", "percent"]);
    assert.deepEqual(findValues("from 1914-1918").map((v) => v.dimension), ["year", "year"]);
  });

  it("scores a temperature on another scale in a range high", async () => {
    await assertRightAboveWrong([
      { question: "At what temperature is bread usually baked?", reference: "Bread is usually baked at 200–220 °C.", right: "Bread is usually baked at 400 °F.", wrong: "Bread is usually baked at 300 °F." },
    ], 0.6); // (400 °F, 204 °C, matches the range's start; its end, 220 °C, is not said)
  });
});

describe("US customary and imperial units", () => {
  it("reads pounds, ounces, inches, yards, square miles, acres, cups and pence", () => {
    const read = (text: string): [string, number] => {
      const [v] = findValues(text);
      assert.ok(v !== undefined, text);
      return [v.dimension, Number(v.value.toPrecision(6))];
    };
    assert.deepEqual(read("a 10 lb bag of flour"), ["mass", 4535.92]);
    assert.deepEqual(read("It weighs 12 ounces."), ["mass", 340.194]);
    assert.deepEqual(read("a 27-inch screen"), ["length", 0.6858]);
    assert.deepEqual(read("It is 100 yards long."), ["length", 91.44]);
    assert.deepEqual(read("It covers 500 square miles."), ["area", 1.29499e9]);
    assert.deepEqual(read("a 40-acre farm"), ["area", 161874]);
    assert.deepEqual(read("Stir in 2 cups of milk."), ["volume", 0.473176]);
    assert.deepEqual(read("It costs 50 pence."), ["money", 0.5]);
  });

  it("reads pounds as money in a text about money, and as weight otherwise", () => {
    assert.equal(findValues("The fine was 80 pounds.")[0]?.dimension, "money");
    assert.equal(findValues("The dog weighs 80 pounds.")[0]?.dimension, "mass");
    assert.equal(findValues("It weighs 80 lb.")[0]?.dimension, "mass");
  });

  it("compares a customary quantity with a metric one as a rounded conversion", () => {
    assert.equal(compare("5 miles", "8 km"), "same");
    assert.equal(compare("6 feet", "1.83 m"), "same");
    assert.equal(compare("1 mile", "1.6 km"), "same");
    assert.equal(compare("2 lb", "907 g"), "same");
    assert.equal(compare("about 11 pounds", "about 5 kg"), "same");
    assert.equal(compare("about 9 pounds", "about 5 kg"), "different");
    assert.equal(compare("16 ounces", "1 pound"), "same");
    assert.equal(compare("3 miles", "8 km"), "different");
    assert.equal(compare("1 cup", "240 ml"), "same");
    assert.equal(compare("50 pence", "£0.50"), "same");
  });

  it("scores a right quantity in other units high and a wrong one low", async () => {
    await assertRightAboveWrong([
      { question: "How much does an adult male emperor penguin weigh?", reference: "An adult emperor penguin weighs about 23 kg.", right: "About 50 pounds.", wrong: "About 15 pounds." },
      { question: "How tall is the Eiffel Tower?", reference: "The Eiffel Tower is 330 metres tall.", right: "The Eiffel Tower is 1,083 feet tall.", wrong: "The Eiffel Tower is 700 feet tall." },
      { question: "How large is Lake Geneva?", reference: "Lake Geneva covers 580 km².", right: "Lake Geneva covers about 224 square miles.", wrong: "Lake Geneva covers about 90 square miles." },
    ]);
  });
});

describe("numbers and dates written in other ways", () => {
  it("reads a number in words with 'and' and scales as one number, and keeps unrelated numbers apart", () => {
    const read = (text: string): number[] => findValues(text).map((v) => v.value);
    assert.deepEqual(read("It has three hundred and twelve pages."), [312]);
    assert.deepEqual(read("one thousand four hundred and ninety-two ships"), [1492]);
    assert.deepEqual(read("a hundred and one dalmatians"), [101]);
    assert.deepEqual(read("four million, two hundred thousand"), [4_200_000]);
    assert.deepEqual(read("between five hundred and six hundred"), [500, 600]);
    assert.deepEqual(read("It costs twenty five."), [25]);
    assert.deepEqual(read("seven and eight"), [7, 8]);
  });

  it("reads a year said aloud, a day.month.year date and a year of two digits after an apostrophe", () => {
    assert.equal(compare("in eighteen fifteen", "in 1815"), "same");
    assert.equal(compare("in nineteen oh six", "in 1906"), "same");
    assert.equal(compare("twenty twelve", "2012"), "same");
    assert.equal(compare("eighteen twelve", "1815"), "different");
    assert.equal(findValues("twelve twenty-dollar bills").length, 2);
    assert.equal(compare("18.06.1815", "June 18, 1815"), "same");
    assert.equal(compare("06.18.1815", "June 18, 1815"), "unrelated"); // no month 18: not read as a date
    assert.equal(compare("June 6, '44", "6 June 1944"), "same");
    assert.equal(compare("June 6, '44", "6 June 1945"), "different");
    assert.equal(compare("the summer of '67", "in 1967"), "same");
  });

  it("reads full-width and Arabic-Indic digits as digits", () => {
    assert.equal(compare("１４２ minutes", "142 minutes"), "same");
    assert.equal(compare("٢٠٦ bones", "206 bones"), "same");
    assert.equal(compare("３，５００ km", "3,500 km"), "same");
  });

  it("compares a bare number with a quantity as written in its unit", () => {
    assert.equal(compare("366", "366 days"), "same");
    assert.equal(compare("4.6", "4.6 kg"), "same");
    assert.equal(compare("365 days", "366 days"), "different");
    assert.equal(compare("8,849", "8,849 m"), "same");
  });

  it("scores numbers, years and dates so written high when right and low when wrong", async () => {
    await assertRightAboveWrong([
      { question: "How many keys does a standard piano have?", reference: "A standard piano has 88 keys.", right: "Eighty-eight.", wrong: "Seventy-six." },
      { question: "How many member states does the United Nations have?", reference: "The United Nations has 193 member states.", right: "One hundred and ninety-three.", wrong: "One hundred and fifty-one." },
      { question: "How many days are there in a leap year?", reference: "A leap year has 366 days.", right: "Three hundred and sixty-six.", wrong: "A leap year has three hundred and sixty-five days." },
      { question: "In what year was the Battle of Hastings?", reference: "The Battle of Hastings was fought in 1066.", right: "Ten sixty-six.", wrong: "Eleven sixty-six." },
      { question: "When did the Berlin Wall fall?", reference: "The Berlin Wall fell on 9 November 1989.", right: "It fell on 09.11.1989.", wrong: "It fell on 03.10.1990." },
      { question: "When did the Berlin Wall fall?", reference: "The Berlin Wall fell on 9 November 1989.", right: "It fell on November 9, '89.", wrong: "It fell on October 3, '90." },
    ]);
  });
});

describe("opposites and other names in the lexicon", () => {
  it("lists opposites of science, medicine and computing, and other names of organs, hormones, drugs and places", () => {
    for (const [a, b] of [["converge", "diverge"], ["dilate", "constrict"], ["inversely", "directly"], ["underactive", "overactive"], ["exothermic", "endothermic"], ["anaerobic", "aerobic"], ["cathode", "anode"], ["immutable", "mutable"], ["counterclockwise", "clockwise"], ["meiosis", "mitosis"], ["carnivorous", "herbivorous"], ["negatively", "positively"]]) {
      assert.ok(opposite(a!, b!), `${a} / ${b}`);
    }
    assert.ok(!opposite("shrink", "contract"));
    for (const [a, b] of [["renal", "kidney"], ["hepatic", "liver"], ["cardiac", "heart"], ["pulmonary", "lung"], ["epinephrine", "adrenaline"], ["acetaminophen", "paracetamol"], ["anemia", "anaemia"]]) {
      assert.equal(synonymKey(a!), synonymKey(b!), `${a} / ${b}`);
    }
    assert.deepEqual(NAME_ALIASES["bombay"], ["mumbai"]);
  });

  it("scores an answer that says the opposite low, and one in other words high", async () => {
    await assertRightAboveWrong([
      { question: "How is current related to resistance at a fixed voltage?", reference: "Current is inversely proportional to resistance.", right: "Current is inversely proportional to resistance at a fixed voltage.", wrong: "Current is directly proportional to resistance." },
      { question: "What do skin blood vessels do in the cold?", reference: "Blood vessels in the skin constrict in the cold.", right: "They constrict.", wrong: "Blood vessels in the skin dilate in the cold." },
      { question: "Is photosynthesis endothermic or exothermic?", reference: "Photosynthesis is endothermic.", right: "It is endothermic.", wrong: "Photosynthesis is exothermic." },
      { question: "Is glycolysis aerobic?", reference: "Glycolysis is anaerobic.", right: "No, glycolysis is anaerobic.", wrong: "Glycolysis is aerobic." },
      { question: "Are tuples mutable in Python?", reference: "Python tuples are immutable.", right: "Tuples in Python are immutable.", wrong: "Python tuples are mutable." },
      { question: "Where does reduction occur in a galvanic cell?", reference: "Reduction occurs at the cathode.", right: "At the cathode.", wrong: "Reduction occurs at the anode." },
      { question: "What does a concave lens do to parallel rays?", reference: "A concave lens makes parallel rays diverge.", right: "It makes them diverge.", wrong: "A concave lens makes parallel rays converge." },
      { question: "What does Hashimoto's disease do to the thyroid?", reference: "Hashimoto's disease makes the thyroid underactive.", right: "It makes the thyroid underactive.", wrong: "Hashimoto's disease makes the thyroid overactive." },
      { question: "Which hormone triggers the fight-or-flight response?", reference: "Adrenaline triggers the fight-or-flight response.", right: "Epinephrine triggers it.", wrong: "Insulin triggers it." },
      { question: "What can an overdose of paracetamol damage?", reference: "A paracetamol overdose can cause liver damage.", right: "An acetaminophen overdose can cause hepatic damage.", wrong: "It damages the lungs." },
      { question: "In which city is the Gateway of India?", reference: "The Gateway of India is in Mumbai.", right: "The Gateway of India is in Bombay.", wrong: "The Gateway of India is in Delhi." },
    ]);
  });
});

describe("data sizes", () => {
  it("reads MB, GB, megabytes and KiB as sizes, decimal and binary apart", () => {
    const size = (text: string) => findValues(text).map((v) => [v.dimension, v.value]);
    assert.deepEqual(size("Uploads are limited to 25 MB."), [["data", 25e6]]);
    assert.deepEqual(size("Uploads are limited to 25 megabytes."), [["data", 25e6]]);
    assert.deepEqual(size("The cache holds 64 KiB."), [["data", 65536]]);
    const [mb, gb] = [findValues("a 1000 MB file")[0]!, findValues("a 1 GB file")[0]!];
    assert.equal(compareValues(mb, gb), "same");
    assert.equal(compareValues(findValues("25 MB")[0]!, findValues("50 MB")[0]!), "different");
  });
});

describe("shares that differ in a digit both write", () => {
  it("tells 99.999% from 99.95%, and still takes 99.9% for 99.90% and a fall of 20% for -20%", () => {
    const cmp = (x: string, y: string) => compareValues(findValues(x)[0]!, findValues(y)[0]!);
    assert.equal(cmp("an availability of 99.999%", "99.95% availability"), "different");
    assert.equal(cmp("99.9%", "99.90%"), "same");
    assert.equal(cmp("a fall of 20%", "-20%"), "same");
    assert.equal(cmp("about 99.9%", "99.95%"), "same");
  });
});

describe("two measurements of one physical size", () => {
  it("takes 4,808 m for 4,807 m as one measurement, but not 101 m for 100 m, nor counts, money or days a unit apart", () => {
    const cmp = (x: string, y: string) => compareValues(findValues(x)[0]!, findValues(y)[0]!);
    assert.equal(cmp("Mont Blanc is 4,808 metres high", "4,807 m"), "same");
    assert.equal(cmp("a 100 m sprint", "101 m"), "different");
    assert.equal(cmp("206 bones", "207 bones"), "different");
    assert.equal(cmp("$75 per person", "$76"), "different");
    assert.equal(cmp("30 days", "31 days"), "different");
  });
});

describe("a roman numeral after a name", () => {
  it("takes 'WWII' for 'World War II', both ways", async () => {
    const rows = [
      { user_input: "When did World War II end?", response: "WWII ended in 1945.", reference: "World War II ended in 1945." },
      { user_input: "When did World War II end?", response: "World War II ended in 1945.", reference: "WWII ended in 1945." },
    ];
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    for (const r of out) assert.equal(r["answer_correctness_factual"], 1, String(r["response"]));
  });
});

describe("a period written with an ordinal", () => {
  it("reads 'every fourth year', 'every other month' and 'every 3rd day' as the period they name", () => {
    assert.equal(compare("Elections are held every fourth year.", "Elections are held every four years."), "same");
    assert.equal(compare("The filter is changed every other month.", "The filter is changed every 2 months."), "same");
    assert.equal(compare("It is inspected every 3rd day.", "It is inspected every three days."), "same");
    assert.equal(compare("Backups run every second hour.", "Backups run every 2 hours."), "same");
    assert.equal(compare("Elections are held every third year.", "Elections are held every four years."), "different");
    // A rank is still a rank.
    assert.equal(findValues("She finished fourth in the race.")[0]?.dimension, "ordinal");
  });

  it("scores an answer that gives the period as an ordinal as right, and one with another period as wrong", async () => {
    await assertRightAboveWrong([
      {
        question: "How often are the city's council elections held?",
        reference: "The city's council elections are held every four years.",
        right: "They take place every fourth year.",
        wrong: "They take place every other year.",
      },
      {
        question: "How often should the smoke alarm battery be replaced?",
        reference: "Replace the smoke alarm battery every six months.",
        right: "Every sixth month you should replace the smoke alarm battery.",
        wrong: "You should replace the smoke alarm battery every second month.",
      },
    ]);
  });
});
