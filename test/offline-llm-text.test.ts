/**
 * The offline judge on answers written the way LLMs write them: Markdown,
 * answer labels, chat openers and sign-offs, HTML entities, invisible
 * characters, lines broken inside a sentence, and answers that only say the
 * question again. A right answer so written must still score as right, and
 * above a wrong one written the same way.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { scoreAnswerCorrectness } from "../src/frame/score";
import { analyzeStatement } from "../src/judge/offline/analyze";
import { withoutAsides } from "../src/judge/offline/asides";
import { atomicClaims } from "../src/judge/offline/claims";
import { plainText } from "../src/judge/offline/markup";
import { sameTerm } from "../src/judge/offline/pool";
import { splitStatements } from "../src/judge/offline/statements";
import { records } from "./support/frames";

describe("plainText: what the statement splitter reads of an LLM's answer", () => {
  it("takes Markdown, LaTeX wrappers, entities and invisible characters out", () => {
    assert.equal(plainText("The **longest** river is the *Nile*, see [this map](https://example.org/map?id=3)."), "The longest river is the Nile, see this map.");
    assert.equal(plainText("Use `npm ci` here &mdash; it is faster &amp; stricter."), "Use npm ci here — it is faster & stricter.");
    assert.equal(plainText("The answer is $\\boxed{\\textbf{42}}$ and it costs $5."), "The answer is 42 and it costs $5.");
    assert.equal(plainText("Cop\u00ADper con\u200Bducts heat; CO₂ does not."), "Copper conducts heat; CO2 does not.");
    assert.equal(plainText("> Water freezes at 0 °C."), "Water freezes at 0 °C.");
  });

  it("drops headings, code fences, rules and a table's header row; a table's rows become their cells", () => {
    const text = "## Planets by size\n\n| Planet | Diameter |\n|:--|--:|\n| Jupiter | 139,820 km |\n| Saturn | 116,460 km |\n\n---\n```\nsize()\n```";
    assert.equal(plainText(text), "Jupiter 139,820 km\nSaturn 116,460 km\n\nsize()");
  });

  it("drops answer labels, chat openers, sign-offs and questions asked back", () => {
    assert.equal(plainText("**Short answer:** Mercury."), "Mercury.");
    assert.equal(plainText("TLDR: the heart has four chambers."), "the heart has four chambers.");
    assert.equal(plainText("Great question! Here is a quick answer: the heart has four chambers. Would you like a diagram?"), "the heart has four chambers.");
    assert.equal(plainText("Certainly, the heart has four chambers.\n\nFeel free to ask more. Happy to help!"), "the heart has four chambers.");
    assert.equal(plainText("As an AI model, I cannot see bodies, but the heart has four chambers."), "the heart has four chambers.");
    assert.equal(plainText("How many chambers? That's an anatomy question. Four."), "Four.");
  });

  it("keeps a word of assent that answers a yes/no question", () => {
    assert.equal(plainText("Absolutely. Whales are mammals.", true), "Absolutely. Whales are mammals.");
    assert.equal(plainText("Absolutely. Whales are mammals.", false), "Whales are mammals.");
  });

  it("joins a line broken inside a sentence, and keeps list items and finished lines apart", () => {
    assert.equal(plainText("The treaty was signed in\nVersailles in 1919."), "The treaty was signed in Versailles in 1919.");
    assert.equal(plainText("The treaty was signed at Versailles,\nending the war."), "The treaty was signed at Versailles, ending the war.");
    assert.equal(plainText("The treaty was signed in 1919.\nIt ended the war."), "The treaty was signed in 1919.\nIt ended the war.");
    assert.equal(plainText("Signed by\n- France\n- Britain"), "Signed by\n- France\n- Britain");
  });

  it("leaves plain text and Korean as they are", () => {
    for (const text of ["Mount Everest is 8,849 m tall.", "한글은 1443년에 창제되었다.\n세종대왕이 만들었다.", "6.02 × 10²³ particles make a mole."]) assert.equal(plainText(text), text);
  });
});

describe("statements of LLM-style answers", () => {
  it("a yes/no question answered 'Absolutely not' is denied, 'Of course' affirmed", () => {
    assert.deepEqual(splitStatements("Absolutely not.", "Can ostriches fly?"), ["It is not true that ostriches fly"]);
    assert.deepEqual(splitStatements("Of course.", "Can ostriches run?"), ["It is true that ostriches run"]);
  });

  it("a sentence that only says an open question again makes no claim; an abbreviation's expansion is an answer", () => {
    assert.deepEqual(splitStatements("The Treaty of Versailles was signed in a year.", "In what year was the Treaty of Versailles signed?"), []);
    assert.deepEqual(splitStatements("NATO stands for North Atlantic Treaty Organization.", "What does NATO stand for?"), ["NATO stands for North Atlantic Treaty Organization."]);
    // A question that offers alternatives may be answered with its own words.
    assert.deepEqual(splitStatements("Jupiter is larger.", "Which is larger, Jupiter or Saturn?"), ["Jupiter is larger."]);
  });

  it("splits 'X is Y and its Z is W' into two claims, and leaves no participle without its phrase", () => {
    assert.deepEqual(splitStatements("Peru's capital is Lima and its currency is the sol."), ["Peru's capital is Lima", "its currency is the sol."]);
    assert.deepEqual(splitStatements("The atomic number of oxygen is 8 and its atomic mass is 16."), ["The atomic number of oxygen is 8", "its atomic mass is 16."]);
    // A name that modifies a noun after a preposition is a fact of its own, not part of every claim.
    assert.deepEqual(atomicClaims("Gagarin orbited the Earth in April 1961 aboard the Soviet Vostok 1 capsule."), [
      "Gagarin orbited the Earth.",
      "Gagarin orbited the Earth in April 1961.",
      "Gagarin orbited the Earth aboard the Soviet Vostok 1 capsule.",
    ]);
    const claims = splitStatements("Marie Curie won the Nobel Prize in Physics, shared with Pierre Curie in 1903.");
    assert.ok(claims.includes("Marie Curie won the Nobel Prize in Physics."), claims.join(" | "));
    assert.ok(claims.every((c) => !/,\s+\p{Ll}+\.$/u.test(c)), `no claim ends in a bare participle: ${claims.join(" | ")}`);
  });
});

describe("scores of LLM-style answers", () => {
  const cases = [
    {
      question: "Which element has the chemical symbol Fe?",
      reference: "The element with the symbol Fe is iron.",
      right: ["**Final answer:** Iron.", "Sure! Here's the answer: Fe is the symbol of iron. I hope this helps!", "## Answer\n\n| Symbol | Element |\n|---|---|\n| Fe | Iron |", "The element is\niron."],
      wrong: ["**Final answer:** Copper.", "Sure! Here's the answer: Fe is the symbol of copper. I hope this helps!", "## Answer\n\n| Symbol | Element |\n|---|---|\n| Fe | Copper |", "The element is\ncopper."],
    },
    {
      question: "Who composed the Four Seasons?",
      reference: "The Four Seasons was composed by Antonio Vivaldi.",
      right: ["Great question! The Four Seasons was composed by *Antonio Vivaldi*. Let me know if you want more.", "As an AI language model, I have no favourite music, but the Four Seasons is by Antonio Vivaldi.", "Answer: Antonio Vivaldi &amp; nobody else composed it."],
      wrong: ["Great question! The Four Seasons was composed by *Johann Sebastian Bach*. Let me know if you want more.", "As an AI language model, I have no favourite music, but the Four Seasons is by Bach.", "Answer: Johann Sebastian Bach &amp; nobody else composed it."],
    },
  ];

  it("a right answer so written scores high, and above the wrong one written the same way; an answer that restates the question scores low", async () => {
    const rows = cases.flatMap((c) => [...c.right, ...c.wrong, `You are asking ${c.question.charAt(0).toLowerCase()}${c.question.slice(1)}`].map((response) => ({ user_input: c.question, response, reference: c.reference })));
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    const score = (response: string): number => out[rows.findIndex((r) => r.response === response)]!["answer_correctness"] as number;
    for (const c of cases) {
      c.right.forEach((right, i) => {
        assert.ok(score(right) >= 0.75, `${JSON.stringify(right)}: ${score(right)}`);
        assert.ok(score(right) > score(c.wrong[i]!) + 0.3, `${JSON.stringify(right)} ${score(right)} against ${JSON.stringify(c.wrong[i])} ${score(c.wrong[i]!)}`);
      });
      const restated = `You are asking ${c.question.charAt(0).toLowerCase()}${c.question.slice(1)}`;
      assert.ok(score(restated) < 0.3, `${restated}: ${score(restated)}`);
    }
  });
});

describe("a number that names which thing (Apollo 11, Airbus A380, Interstate 95)", () => {
  const cases = [
    { question: "Which Apollo mission suffered an oxygen tank explosion?", reference: "Apollo 13 suffered an oxygen tank explosion.", right: "It was Apollo 13.", wrong: "It was Apollo 11." },
    { question: "Which Airbus model is the largest passenger airliner?", reference: "The Airbus A380 is the largest passenger airliner.", right: "The A380.", wrong: "The Airbus A320 is the largest passenger airliner." },
    { question: "Which Interstate runs along the East Coast?", reference: "Interstate 95 runs along the East Coast.", right: "Interstate 95 runs along the East Coast of the United States.", wrong: "Interstate 5 runs along the East Coast." },
  ];

  it("scores the right one high and another number of the same name low", async () => {
    const rows = cases.flatMap((c) => [c.right, c.wrong].map((response) => ({ user_input: c.question, response, reference: c.reference })));
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    cases.forEach((c, i) => {
      const [right, wrong] = [out[2 * i]!["answer_correctness"] as number, out[2 * i + 1]!["answer_correctness"] as number];
      assert.ok(right >= 0.6, `${c.right}: ${right}`);
      assert.ok(wrong < 0.3, `${c.wrong}: ${wrong}`);
    });
  });

  it("keeps counts, years and amounts after a capitalised word as values", () => {
    const landing = analyzeStatement("In 1969 Apollo 11 landed.");
    assert.deepEqual(landing.values.map((v) => v.text), ["1969"]);
    assert.ok(landing.terms.some((t) => t.key === "apollo 11" && t.entity));
    assert.deepEqual(analyzeStatement("Mount Everest is 8,849 m tall.").values.map((v) => v.text), ["8,849 m"]);
    assert.ok(analyzeStatement("Windows 3.1 was released.").terms.every((t) => t.key !== "windows 3"));
  });
});

describe("a value in the subject is not a claim of its own", () => {
  it("keeps the subject's year with what the sentence says of it", () => {
    assert.deepEqual(atomicClaims("The 1906 earthquake was caused by the San Andreas Fault."), ["The 1906 earthquake was caused by the San Andreas Fault."]);
    // An object after the verb still makes a claim apart from the year it is given.
    assert.deepEqual(atomicClaims("Marie Curie won the Nobel Prize in 1911."), ["Marie Curie won the Nobel Prize.", "Marie Curie won the Nobel Prize in 1911."]);
  });

  it("scores another name in the by-phrase as wrong, whatever the subject's year", async () => {
    const question = "What caused the 1906 San Francisco earthquake?";
    const reference = "The 1906 earthquake was caused by the San Andreas Fault.";
    const rows = ["The 1906 earthquake was caused by the San Andreas Fault.", "The 1906 earthquake was caused by the Hayward Fault."].map((response) => ({ user_input: question, response, reference }));
    const [right, wrong] = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false })).map((r) => r["answer_correctness"] as number);
    assert.ok(right! > 0.9, `right: ${right}`);
    assert.ok(wrong! < 0.3, `wrong: ${wrong}`);
  });
});

describe("another thing said to do what the reference says of its subject", () => {
  const score = async (question: string, reference: string, responses: string[]) =>
    records(await scoreAnswerCorrectness(responses.map((response) => ({ user_input: question, response, reference })), { judge: { judge: "offline" }, quiet: true, progress: false })).map((r) => r["answer_correctness_factual"] as number);

  it("a common noun in the subject's place is a clash, not the question's words found", async () => {
    const [right, wrong] = await score("Which gland produces insulin?", "The pancreas produces insulin.", ["The pancreas produces insulin.", "The thyroid produces insulin."]);
    assert.equal(right, 1);
    assert.equal(wrong, 0, "the thyroid does not");
    const [payer, other] = await score("Who pays the premium of an insurance policy?", "The policyholder pays the premium.", ["The policyholder pays it.", "The bank pays the premium."]);
    assert.ok(payer! >= 0.5, `payer: ${payer}`);
    assert.equal(other, 0);
    // "X is Y" too, when the rest is the same: another thing said to be it.
    const [organelle, otherOrganelle] = await score("Which organelle is the site of photosynthesis?", "The chloroplast is the site of photosynthesis.", ["The chloroplast is the site of photosynthesis.", "The nucleus is the site of photosynthesis."]);
    assert.equal(organelle, 1);
    assert.equal(otherOrganelle, 0);
  });

  it("leaves a subject the question names alone", async () => {
    const [copula] = await score("What is the smallest prime?", "The smallest prime is 2, the only even prime.", ["The least prime is 2."]);
    assert.ok(copula! > 0, `copula: ${copula}`);
  });
});

describe("the question's premise, and versions and types that name which one", () => {
  const score = async (question: string, reference: string, responses: string[]) =>
    records(await scoreAnswerCorrectness(responses.map((response) => ({ user_input: question, response, reference })), { judge: { judge: "offline" }, quiet: true, progress: false })).map((r) => r["answer_correctness_factual"] as number);

  it("does not cut the premise an open question gives into a claim of its own", async () => {
    const question = "In what year did the Titanic sink in the North Atlantic?";
    const reference = "The Titanic sank in the North Atlantic in 1912.";
    assert.deepEqual(splitStatements(reference, question), ["The Titanic sank in 1912."]);
    const [bare, wrong] = await score(question, reference, ["1912.", "The Titanic sank in the North Atlantic in 1915."]);
    assert.equal(bare, 1, "the bare year says all the reference says");
    assert.equal(wrong, 0, "restating the question earns nothing");
  });

  it("reads 'Node 18', 'Type 2' and 'HTTP 1.1' as names: another number is another thing", async () => {
    const [right, wrong] = await score("Which Node.js release made fetch() global?", "Fetch became global in Node 18.", ["Node 18.", "Node 16."]);
    assert.equal(right, 1);
    assert.equal(wrong, 0);
    const [type1, type2] = await score("Which type of diabetes is mostly caused by lifestyle?", "Type 2 diabetes is mostly caused by lifestyle.", ["Type 2.", "Type 1 diabetes is mostly caused by lifestyle."]);
    assert.ok(type1! > 0.5, `Type 2: ${type1}`);
    assert.equal(type2, 0);
    assert.deepEqual(analyzeStatement("Keep-alive is the default in HTTP 1.1.").terms.filter((t) => t.entity).map((t) => t.key), ["http 1.1"]);
    // Said after a verb, the name and its number stay one item of the claim.
    assert.deepEqual(atomicClaims("They shipped it in Python 3.6 (PEP 498)."), ["They shipped it in Python 3.6.", "They shipped it in PEP 498."]);
  });
});

describe("hedges, what others say, 'not X but Y', and a claim taken back", () => {
  const question = "Which gas makes up most of the Earth's atmosphere?";
  const reference = "Nitrogen makes up most of the Earth's atmosphere.";

  it("splits only what the answer claims", () => {
    assert.deepEqual(splitStatements("It's nitrogen, though I could be wrong.", question), ["It's nitrogen."]);
    assert.deepEqual(splitStatements("I'm not completely sure, but I believe it is nitrogen.", question), ["it is nitrogen."]);
    assert.deepEqual(splitStatements("Nitrogen (if memory serves).", question), ["Nitrogen."]);
    assert.deepEqual(splitStatements("Many people say oxygen, but it is nitrogen.", question), ["it is nitrogen."]);
    assert.deepEqual(splitStatements("It is oxygen. Wait, no, it is nitrogen.", question), ["it is nitrogen."]);
    // A leading "No," to an open question answers nothing; a correction inside a sentence takes back what came before it.
    assert.deepEqual(splitStatements("No, it is nitrogen.", question), ["it is nitrogen."]);
    assert.deepEqual(splitStatements("Well, no, no, it is nitrogen.", question), ["it is nitrogen."]);
    assert.deepEqual(splitStatements("It is oxygen — actually, no, nitrogen.", question), ["nitrogen."]);
    assert.deepEqual(splitStatements("No other gas is as common as nitrogen.", question), ["No other gas is as common as nitrogen."]);
    // "Actually" alone stresses; "not only … but also" is no contrast.
    assert.deepEqual(splitStatements("Actually, it is nitrogen.", question), ["Actually, it is nitrogen."]);
    assert.deepEqual(splitStatements("Nitrogen is not only common but also inert.", question).length, 1);
  });

  it("scores a hedged right answer as right and a taken-back wrong one by what stands", async () => {
    const responses = [
      "I think it's probably nitrogen, but I'm not 100% sure.",
      "Many people say oxygen, but nitrogen makes up most of the Earth's atmosphere.",
      "It is not oxygen but nitrogen.",
      "It is not nitrogen but oxygen.",
      "Nitrogen makes up most of it. Actually, no, oxygen does.",
      "Oxygen makes up most of it. Actually, no, nitrogen does.",
    ];
    const out = records(await scoreAnswerCorrectness(responses.map((response) => ({ user_input: question, response, reference })), { judge: { judge: "offline" }, quiet: true, progress: false }));
    const [hedged, othersSay, notBut, butNot, retractedRight, retractedWrong] = out.map((r) => r["answer_correctness"] as number);
    assert.ok(hedged! > 0.6, `hedged: ${hedged}`);
    assert.ok(othersSay! > 0.6, `others say: ${othersSay}`);
    // "not oxygen" itself is a word the reference never says: the right half counts, the wrong half does not.
    assert.ok(notBut! > 0.5 && butNot! < 0.3, `not … but: ${notBut}, reversed ${butNot}`);
    assert.ok(retractedWrong! > retractedRight!, `taken back: right then wrong ${retractedRight}, wrong then right ${retractedWrong}`);
  });
});

describe("opposite words said of different things", () => {
  it("are no clash: 'raises taxes' against 'lowers the number of smokers'", async () => {
    const question = "Why do higher taxes on tobacco reduce smoking?";
    const reference = "Higher taxes make cigarettes more expensive, which lowers the number of smokers.";
    const out = records(
      await scoreAnswerCorrectness(
        ["When a government raises tobacco taxes, cigarettes become more expensive.", "Higher taxes raise the number of smokers."].map((response) => ({ user_input: question, response, reference })),
        { judge: { judge: "offline" }, quiet: true, progress: false },
      ),
    ).map((r) => r["answer_correctness_factual"] as number);
    assert.ok(out[0]! >= 0.6, `different things: ${out[0]}`);
    assert.equal(out[1], 0, "the same thing");
  });
});

describe("'toward' against 'away from'", () => {
  it("is a clash of relations", async () => {
    const question = "Which way does the lymph in these vessels flow?";
    const reference = "The lymph flows toward the heart.";
    const [right, wrong] = records(
      await scoreAnswerCorrectness(["The lymph flows towards the heart.", "The lymph flows away from the heart."].map((response) => ({ user_input: question, response, reference })), { judge: { judge: "offline" }, quiet: true, progress: false }),
    ).map((r) => r["answer_correctness_factual"] as number);
    assert.equal(right, 1);
    assert.equal(wrong, 0);
  });
});

describe("words that share a start but not a root", () => {
  it("'convex' is not 'converge', 'diverse' is not 'diverge'; 'photosynthesis' is 'photosynthesise'", async () => {
    assert.equal(sameTerm("convex", "converge"), false);
    assert.equal(sameTerm("diverse", "diverge"), false);
    assert.equal(sameTerm("photosynthesis", "photosynthesise"), true);
    const [right, wrong] = records(
      await scoreAnswerCorrectness(["A concave mirror converges light.", "A concave mirror diverges light."].map((response) => ({ user_input: "Does a concave mirror converge or diverge light?", response, reference: "A concave mirror converges light." })), { judge: { judge: "offline" }, quiet: true, progress: false }),
    ).map((r) => r["answer_correctness_factual"] as number);
    assert.equal(right, 1);
    assert.equal(wrong, 0);
  });
});

describe("a count against 'one' or 'a single'", () => {
  it("clashes when the counts of a thing are swapped", async () => {
    const question = "What is a carbon dioxide molecule made of?";
    const reference = "A carbon dioxide molecule has one carbon atom and two oxygen atoms.";
    const out = records(
      await scoreAnswerCorrectness(["It has one carbon atom and two oxygen atoms.", "It has two carbon atoms and a single oxygen atom."].map((response) => ({ user_input: question, response, reference })), { judge: { judge: "offline" }, quiet: true, progress: false }),
    ).map((r) => r["answer_correctness_factual"] as number);
    assert.ok(out[0]! >= 0.99, `right: ${out[0]}`);
    assert.equal(out[1], 0);
  });
});

describe("a comparison the other way round", () => {
  it("is a clash with the same comparing word, and agrees with the opposite word", async () => {
    const question = "Which holds more heat per kilogram, water or sand?";
    const reference = "Water holds more heat per kilogram than sand.";
    const responses = ["Water holds more heat per kilogram than sand.", "Sand holds more heat per kilogram than water."];
    const out = records(await scoreAnswerCorrectness(responses.map((response) => ({ user_input: question, response, reference })), { judge: { judge: "offline" }, quiet: true, progress: false }));
    const [same, reversed] = out.map((r) => r["answer_correctness_factual"] as number);
    assert.equal(same, 1);
    assert.equal(reversed, 0);
    const light = records(
      await scoreAnswerCorrectness(
        ["Light travels faster in glass than in air.", "Light travels faster in air than in glass."].map((response) => ({ user_input: "Where does light travel faster, in air or in glass?", response, reference: "Light travels faster in air than in glass." })),
        { judge: { judge: "offline" }, quiet: true, progress: false },
      ),
    ).map((r) => r["answer_correctness_factual"] as number);
    assert.deepEqual(light, [0, 1]);
  });
});

describe("asides: a bracketed note and a closing apposition are claims of their own", () => {
  it("splits them out of the sentence, and leaves calls such as COUNT(*) alone", () => {
    assert.deepEqual(withoutAsides("The Iliad (an epic of 24 books) is attributed to Homer, the poet of ancient Greece."), {
      main: "The Iliad is attributed to Homer.",
      asides: ["The Iliad is an epic of 24 books.", "Homer is the poet of ancient Greece."],
    });
    assert.deepEqual(withoutAsides("It returns COUNT(*) rows in O(log n) time."), { main: "It returns COUNT(*) rows in O(log n) time.", asides: [] });
    // A note after a quantity is about the whole quantity.
    assert.deepEqual(withoutAsides("Ethanol boils at 78 degrees Celsius (172 degrees Fahrenheit).").asides, ["78 degrees Celsius is 172 degrees Fahrenheit."]);
    // A note that hedges, a years-only note and an empty one are no claims of their own.
    assert.deepEqual(withoutAsides("The war ended in 1918 (though some say 1919).").asides, []);
    assert.deepEqual(withoutAsides("The Great War (1914–1918) ended in 1918.").asides, []);
    assert.deepEqual(withoutAsides("The war ended in 1918 (,)."), { main: "The war ended in 1918.", asides: [] });
    // Alone, "Paris, the capital of France" is the answer, not an aside.
    assert.deepEqual(withoutAsides("Paris, the capital of France.").asides, []);
  });

  it("no longer makes a right sentence false for a detail the reference lacks", async () => {
    const question = "Who wrote The Iliad?";
    const reference = "The Iliad is attributed to Homer.";
    const [right, wrong] = records(
      await scoreAnswerCorrectness(
        ["The Iliad (Ilias in Greek) is attributed to Homer, the poet of Chios.", "The Iliad (Ilias in Greek) is attributed to Virgil, the poet of Rome."].map((response) => ({ user_input: question, response, reference })),
        { judge: { judge: "offline" }, quiet: true, progress: false },
      ),
    ).map((r) => r["answer_correctness_factual"] as number);
    assert.ok(right! >= 0.5, `right: ${right}`);
    assert.equal(wrong, 0);
  });

  it("keeps a preposition of two words with its phrase ('according to', 'due to')", () => {
    assert.deepEqual(atomicClaims("The tower stands at 330 m according to the 2022 survey."), ["The tower stands at 330 m.", "The tower stands according to the 2022 survey."]);
  });
});

describe("names written with and without accents, abbreviations with and without dots", () => {
  it("reads Zürich as Zurich and the U.K. as the UK, and still tells another name apart", async () => {
    const rows = [
      { user_input: "Where is the Nobel Peace Prize awarded?", response: "It is awarded in Oslo, Norway.", reference: "The Nobel Peace Prize is awarded in Oslo, Nórway." },
      { user_input: "Who composed the Moldau?", response: "Bedrich Smetana composed the Moldau.", reference: "The Moldau was composed by Bedřich Smetana." },
      { user_input: "Who composed the Moldau?", response: "Leos Janacek composed the Moldau.", reference: "The Moldau was composed by Bedřich Smetana." },
      { user_input: "Which country left the EU in 2020?", response: "The U.K. left in 2020.", reference: "The United Kingdom left the European Union in 2020." },
    ];
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    const scores = out.map((r) => r["answer_correctness"] as number);
    assert.ok(scores[0]! >= 0.7, `Oslo: ${scores[0]}`);
    assert.ok(scores[1]! >= 0.7, `Smetana: ${scores[1]}`);
    assert.ok(scores[2]! < 0.3, `Janacek: ${scores[2]}`);
    assert.ok(scores[3]! >= 0.6, `U.K.: ${scores[3]}`);
    // "J.R.R." stays initials: only dotted forms of known abbreviations close up.
    assert.ok(analyzeStatement("J.R.R. Tolkien wrote it.").terms.some((t) => t.key === "tolkien"));
  });
});

describe("denials with a pronoun subject or a frame", () => {
  it("'It is not in Peru.', 'It is a myth that …' and 'The claim that … is wrong' deny the reference", async () => {
    const question = "Where is Machu Picchu, and who built it?";
    const reference = "Machu Picchu was built by the Inca. It is in Peru.";
    const rows = [
      { user_input: question, response: "Machu Picchu was built by the Inca. It is in Peru.", reference },
      { user_input: question, response: "Machu Picchu was built by the Inca. It is not in Peru.", reference },
      { user_input: question, response: "It is a myth that Machu Picchu was built by the Inca.", reference },
      { user_input: question, response: "The claim that the Inca built Machu Picchu is wrong.", reference },
    ];
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    const [right, notIn, myth, claim] = out.map((r) => r["answer_correctness"] as number);
    assert.ok(right! > 0.9, `right: ${right}`);
    assert.ok(notIn! < 0.7, `not in Peru: ${notIn}`);
    assert.ok(myth! < 0.3, `myth: ${myth}`);
    assert.ok(claim! < 0.3, `claim: ${claim}`);
  });

  it("a bare answer that also names the wrong choice ('Lagos, not Abuja') scores as the answer alone", async () => {
    const question = "Which city is the capital of Nigeria?";
    const reference = "Abuja is the capital of Nigeria.";
    const rows = ["Abuja.", "Abuja, not Lagos.", "Lagos, not Abuja.", "Lagos."].map((response) => ({ user_input: question, response, reference }));
    const [alone, denied, wrong, wrongAlone] = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false })).map((r) => r["answer_correctness_factual"] as number);
    assert.equal(denied, alone, "denying the wrong choice is in line with the reference");
    assert.equal(alone, 1);
    assert.equal(wrong, 0);
    assert.equal(wrongAlone, 0);
  });
});

describe("a name the tagger took for a verb", () => {
  it("'Cook charted …' names Cook: against 'charted by James Cook' it matches, against 'charted by Abel Tasman' it clashes", async () => {
    const question = "Who charted the east coast of Australia in 1770?";
    const rows = [
      { user_input: question, response: "Cook charted the east coast of Australia in 1770.", reference: "The east coast of Australia was charted in 1770 by James Cook." },
      { user_input: question, response: "Cook charted the east coast of Australia in 1770.", reference: "The east coast of Australia was charted in 1770 by Abel Tasman." },
    ];
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    const [same, other] = out.map((r) => r["answer_correctness"] as number);
    assert.ok(same! > 0.7, `Cook against Cook: ${same}`);
    assert.ok(other! < 0.5, `Cook against Tasman: ${other}`);
    assert.ok(!analyzeStatement("Keep running every day.").terms.some((t) => t.entity), "an imperative stays a verb");
  });
});
