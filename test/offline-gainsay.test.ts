/**
 * The offline judge on answers that say otherwise: a reference statement that the answer
 * contradicts is not covered by it; a denial counts only against what it denies; two things put
 * in each other's relations; two doers swapped between two verbs; another object of the same
 * verb; opposite relations said of the same subject; opposite words only when said of the same
 * thing; a Korean place given with a copula after its particle, and a Korean noun named by the
 * same word on both sides; a count of years between two given years; a value the other side
 * gives in another statement; a label and the phrase after its colon; opposite verbs and
 * modifiers swapped between two things; a denial weighed by what it denies; a quality compared
 * the other way ("denser" against "less dense"); a name given in full as the whole answer; two
 * names of one subject with two verbs, which are no swap. And ways of splitting a sentence: two
 * that used to cut a claim in half, a modal verb phrase after "and" as a claim of its own, and a
 * Korean rate ("1박에 90달러") kept whole.
 * The sentences here are not those of the bundled data.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withoutAsides } from "../src/judge/offline/asides";
import { atomicClaims } from "../src/judge/offline/claims";
import { splitStatements } from "../src/judge/offline/statements";
import { verdictsInLine as verdicts } from "./support/verdicts";

describe("a reference statement the answer contradicts is not covered", () => {
  it("leaves both halves of a swap uncovered, though the answer has all their words", () => {
    const v = verdicts(
      "Which way do electrons flow in the external circuit of a galvanic cell?",
      "Electrons flow from the cathode to the anode, and the current flows from the anode to the cathode.",
      "Electrons flow from the anode to the cathode. The conventional current flows from the cathode to the anode.",
    );
    assert.ok(v.reference.every((x) => x === "FN"), v.reasons);
    assert.match(v.reasons, /says otherwise|clashes/);
  });

  it("still covers a reference statement that another, agreeing statement of the answer says", () => {
    const v = verdicts(
      "Where is the Eiffel Tower?",
      "The Eiffel Tower is in Lyon. Correction: the Eiffel Tower is in Paris.",
      "The Eiffel Tower is in Paris.",
    );
    assert.deepEqual(v.reference, ["covered"], v.reasons);
  });

  it("keeps a statement that also gives the reference's own value as covering it", () => {
    const v = verdicts(
      "When was the Hubble Space Telescope launched?",
      "It was finished in 1985 and launched in 1990.",
      "The Hubble Space Telescope was launched in 1990.",
    );
    assert.deepEqual(v.reference, ["covered"], v.reasons);
  });
});

describe("a denial counts against what it denies", () => {
  it("does not let 'does not stay solid …' in the reference contradict another thing said of the same subject", () => {
    const cases: Array<[string, string, string]> = [
      ["What is mercury like at room temperature?", "Mercury is a metal.", "Mercury is a metal which does not stay solid at room temperature."],
      ["Is a tomato a fruit?", "A tomato is a fruit, botanically speaking.", "Botanically, a tomato is a fruit which is not a vegetable in the botanical sense."],
    ];
    for (const [q, a, r] of cases) {
      const v = verdicts(q, a, r);
      assert.deepEqual([v.response, v.reference], [["TP"], ["covered"]], `${a} | ${v.reasons}`);
    }
  });

  it("still finds a denial of what the other side says, of its whole clause, or of existence", () => {
    const cases: Array<[string, string, string]> = [
      ["Is Pluto a planet?", "Pluto isn't a planet any more.", "Pluto is a planet."],
      ["Can ostriches fly?", "It is not true that ostriches fly.", "Ostriches fly short distances."],
      ["Is there a limit on taxi fares?", "There is no limit on taxi fares.", "Taxi fares are reimbursed up to a limit of $60."],
      ["What causes type 2 diabetes?", "Type 2 diabetes isn't caused by insulin resistance.", "Type 2 diabetes is a chronic disease. Insulin resistance causes most cases of type 2 diabetes."],
    ];
    for (const [q, a, r] of cases) {
      const v = verdicts(q, a, r);
      assert.deepEqual(v.response, ["FP"], `${a} | ${v.reasons}`);
    }
  });
});

describe("two things in each other's relations, another object, opposite relations", () => {
  it("finds two objects swapped between two verbs", () => {
    const v = verdicts(
      "What do green plants take in and give off in daylight?",
      "Plants take in oxygen and give off carbon dioxide.",
      "Plants take in carbon dioxide and give off oxygen.",
    );
    assert.deepEqual([v.response, v.reference], [["FP", "FP"], ["FN", "FN"]], v.reasons);
    // With verbs ("Plants release …", which the tagger reads as a compound noun when split off).
    const verbs = verdicts("What do plants absorb?", "Plants absorb oxygen and release carbon dioxide.", "Plants absorb carbon dioxide and release oxygen.");
    assert.deepEqual([verbs.response, verbs.reference], [["FP", "FP"], ["FN", "FN"]], verbs.reasons);
  });

  it("does not call a second true object a swap", () => {
    const v = verdicts(
      "What do plants take in?",
      "Plants take in water and carbon dioxide.",
      "Plants take in carbon dioxide and water, and give off oxygen.",
    );
    assert.ok(v.response.every((x) => x === "TP"), v.reasons);
  });

  it("finds another object of the same verb, one the reference never mentions", () => {
    const v = verdicts("What do honeybees gather to make honey?", "Honeybees gather pollen.", "Honeybees gather nectar.");
    assert.deepEqual([v.response, v.reference], [["FP"], ["FN"]], v.reasons);
    assert.match(v.reasons, /"pollen" where it says "nectar"/);
  });

  it("reads 'to' against 'away from' of the same subject, not of another", () => {
    const swapped = verdicts(
      "Which way does the pulmonary artery carry blood?",
      "The pulmonary artery carries blood to the heart.",
      "The pulmonary artery carries blood away from the heart.",
    );
    assert.deepEqual(swapped.response, ["FP"], swapped.reasons);
    const other = verdicts(
      "How does blood circulate?",
      "Arteries carry blood away from the heart. Veins carry blood back to the heart.",
      "Arteries carry blood away from the heart. Veins carry blood back to the heart.",
    );
    assert.deepEqual(other.reference, ["covered", "covered"], other.reasons);
  });
});

describe("splitting claims", () => {
  it("keeps a list of examples after 'such as' in its sentence", () => {
    const parts = splitStatements("Iron also comes from food, such as red meat and lentil soup.");
    assert.ok(parts.every((p) => /comes from food/.test(p)), JSON.stringify(parts));
  });

  it("keeps 'with X doing Y' whole", () => {
    const parts = atomicClaims("The bridge was designed by Joseph Strauss, with Charles Ellis doing most of the calculations.");
    assert.ok(parts.some((p) => /with Charles Ellis doing most of the calculations/.test(p)), JSON.stringify(parts));
    assert.ok(!parts.some((p) => /Strauss, doing|, doing most/.test(p)), JSON.stringify(parts));
  });
});

describe("another answer, equated the other way round", () => {
  it("finds 'The largest is the liver' against 'The skin is the largest organ'", () => {
    const v = verdicts("Which organ is the largest in the human body?", "The largest is the liver.", "The skin is the largest organ of the human body.");
    assert.deepEqual([v.response, v.reference], [["FP"], ["FN"]], v.reasons);
    assert.match(v.reasons, /"liver" where it says "skin"/);
  });

  it("still takes the same answer, or a definition, equated either way", () => {
    const same = verdicts("Which organ is the largest in the human body?", "The largest is the skin.", "The skin is the largest organ of the human body.");
    assert.deepEqual([same.response, same.reference], [["TP"], ["covered"]], same.reasons);
    const definition = verdicts("What is photosynthesis?", "Photosynthesis is a process in plants.", "Photosynthesis is how plants turn light into sugar.");
    assert.doesNotMatch(definition.reasons, /clashes/);
  });
});

describe("a count written in words before a unit", () => {
  it("reads 'a two-year term' as two years", () => {
    const v = verdicts("How long is a member of the House of Representatives elected for?", "Two years.", "A member of the House serves a two-year term.");
    assert.deepEqual([v.response, v.reference], [["TP"], ["covered"]], v.reasons);
  });
});

describe("a why-question's premise, and a denied participle", () => {
  it("drops the clause that only says again what a why-question asks", () => {
    assert.deepEqual(splitStatements("Bread rises because yeast produces carbon dioxide gas.", "Why does bread rise?"), ["yeast produces carbon dioxide gas."]);
    // To a "what" question the clause that restates it is about the answer it names, and stays.
    assert.equal(splitStatements("Paris is the capital because the king lived there.", "What is the capital of France?").length, 2);
  });

  it("reads ', not counting the chair' as a denial, not as a contrast like ', not Sydney'", () => {
    const v = verdicts("How many members sit on the board?", "The board has 9 members, not counting the chair.", "The board has 9 members, including the chair.");
    assert.deepEqual(v.response, ["FP"], v.reasons);
  });
});

describe("an adjective that opens a sentence, and a list whose last item runs into its verb", () => {
  it("reads 'Higher' that opens a sentence as an adjective, not a name the answer must give", () => {
    const v = verdicts("Why do rate rises curb inflation?", "When rates go up, loans cost more for families and firms.", "Higher interest rates make loans more expensive for families and firms.");
    assert.deepEqual([v.response, v.reference], [["TP"], ["covered"]], v.reasons);
  });

  it("ends a list item at a determiner: '… and business loans all cost more' keeps 'all cost more' on every item", () => {
    const parts = splitStatements("Borrowing gets dearer: mortgages, car loans, credit cards and business loans all cost more.");
    assert.ok(parts.filter((p) => /loans|mortgages|cards/.test(p)).every((p) => /all cost more/.test(p)), JSON.stringify(parts));
  });
});

describe("a name the answer glosses with another", () => {
  it("finds 'Excel (XLSX)' where the reference says XLSX", () => {
    const v = verdicts("Which file types does the importer take?", "The importer takes CSV and Excel (XLSX) files.", "The importer takes CSV and XLSX files.");
    assert.deepEqual([v.response[0], v.reference], ["TP", ["covered"]], v.reasons);
  });
});

describe("a Korean compound written with or without spaces", () => {
  it("finds '국립 중앙 박물관' where the reference writes '국립중앙박물관', and the other way round", () => {
    const apart = verdicts("반가사유상은 어디에 있나요?", "국립 중앙 박물관에 있습니다.", "반가사유상은 국립중앙박물관에 있습니다.");
    assert.deepEqual([apart.response, apart.reference], [["TP"], ["covered"]], apart.reasons);
    const joined = verdicts("반가사유상은 어디에 있나요?", "반가사유상은 국립중앙박물관에 있습니다.", "반가사유상은 국립 중앙 박물관에 있습니다.");
    assert.deepEqual([joined.response, joined.reference], [["TP"], ["covered"]], joined.reasons);
  });
});

describe("ranges with 'to', notes after a number in powers of ten, and British spellings", () => {
  it("keeps '20 to 25 times a year' one claim, so 'about two dozen times' agrees with it", () => {
    assert.deepEqual(splitStatements("The tower is struck about 20 to 25 times a year."), ["The tower is struck about 20 to 25 times a year."]);
  });

  it("makes a note after '6.02 × 10²³ particles' about the whole number", () => {
    assert.deepEqual(withoutAsides("A mole holds about 6.02 × 10²³ particles (atoms or molecules).").asides, ["6.02 × 10²³ particles is atoms or molecules."]);
  });

  it("takes 'anticlockwise' for 'counterclockwise'", () => {
    const v = verdicts("Which way does a bathtub vortex turn?", "It turns anticlockwise.", "It turns counterclockwise.");
    assert.deepEqual([v.response, v.reference], [["TP"], ["covered"]], v.reasons);
  });
});

describe("a list is of items in one place", () => {
  it("does not read three things said of the question's words as a list the answer's word is missing from", () => {
    const v = verdicts(
      "How long can a Canadian citizen stay in the Nordic Area without a visa?",
      "Visa-free stays are limited to 60 days.",
      "Canadian citizens can stay in the Nordic Area without a visa for up to 60 days in any 120-day period. The 60 days count across all Nordic countries together, not separately for each country.",
    );
    assert.deepEqual(v.response, ["TP"], v.reasons);
  });
});

describe("a value that measures another thing", () => {
  it("does not set 'a 14-day notice period' against '30 days of leave', but still '120-day period' against '180-day period'", () => {
    const other = verdicts("How much leave do members get?", "Members get 30 days of leave. Requests need a 14-day notice period.", "Members get 30 days of leave.");
    assert.deepEqual(other.response, ["TP", "FP"], other.reasons);
    assert.doesNotMatch(other.reasons.split(" | ")[1]!, /clashes/);
    const same = verdicts("How long can visitors stay?", "Visitors can stay 60 days in any 120-day period.", "Visitors can stay up to 60 days in any 180-day period.");
    assert.match(same.reasons, /120-day where it says 180-day/);
  });
});

describe("what people believe, said of a claim", () => {
  it("reads 'Ottawa, not Toronto as many people think' as the answer Ottawa, not Toronto", () => {
    const v = verdicts("What is the capital of Canada?", "Ottawa, not Toronto as many people think.", "The capital of Canada is Ottawa.");
    assert.deepEqual([v.response.includes("TP"), v.reference], [true, ["covered"]], v.reasons);
    assert.doesNotMatch(v.reasons, /never mentions "Toronto"/);
  });
});

describe("a list of capital letters", () => {
  it("splits 'grades A, B, E and F' into items, and reads 'A' there as the letter, not an article", () => {
    const v = verdicts("Which grades count as a pass?", "The passing grades are A, B, E and F.", "The passing grades are A, B, C and D.");
    assert.deepEqual(v.response, ["TP", "TP", "FP", "FP"], v.reasons);
    assert.deepEqual(v.reference, ["covered", "covered", "FN", "FN"], v.reasons);
  });
});

describe("another answer denied", () => {
  it("takes 'not the lungs', cut from 'The heart, not the lungs', as what a reference that answers 'the heart' says too", () => {
    const v = verdicts("Which organ pumps blood around the body?", "The heart, not the lungs.", "The heart pumps blood around the body.");
    assert.deepEqual([v.response, v.reference], [["TP", "TP"], ["covered"]], v.reasons);
    // A denial of what the reference does say is still a clash.
    const wrong = verdicts("Which organ pumps blood around the body?", "The lungs, not the heart.", "The heart pumps blood around the body.");
    assert.ok(wrong.response.every((x) => x === "FP"), wrong.reasons);
  });
});

describe("names written as alternatives", () => {
  it("finds 'SSL/TLS' where the reference says TLS", () => {
    const v = verdicts("How does HTTPS keep data secure?", "HTTPS uses SSL/TLS to encrypt the data.", "HTTPS encrypts the data with TLS.");
    assert.deepEqual([v.response, v.reference], [["TP"], ["covered"]], v.reasons);
  });
});

describe("a guess with a question mark, and a sentence of doubt beside the answer", () => {
  it("keeps 'Perhaps 1969?' as the answer and drops 'Not entirely sure.' beside it", () => {
    assert.deepEqual(splitStatements("Perhaps 1969? Not entirely sure.", "When did Apollo 11 land on the Moon?"), ["Perhaps 1969."]);
    // A question asked back is still no claim, and doubt alone is still the answer's refusal.
    assert.deepEqual(splitStatements("Do you mean the first landing? It was in 1969.", "When did Apollo 11 land on the Moon?"), ["It was in 1969."]);
    assert.equal(splitStatements("Not entirely sure.", "When did Apollo 11 land on the Moon?").length, 1);
  });
});

describe("a denial of the question's words", () => {
  it("keeps 'The Voynich manuscript has never been deciphered' as a claim, asked who deciphered it", () => {
    assert.deepEqual(splitStatements("The Voynich manuscript has never been deciphered.", "Who deciphered the Voynich manuscript?"), ["The Voynich manuscript has never been deciphered."]);
    // After "No," to a yes/no question the same denial says nothing more.
    assert.deepEqual(splitStatements("No, ostriches cannot fly.", "Can ostriches fly?"), ["It is not true that ostriches fly"]);
  });
});

describe("two doers swapped between two verbs", () => {
  const question = "Who writes the budget and who approves it?";
  const reference = "The budget is written by the finance ministry. It must then be approved by the parliament.";

  it("finds the swap whether each side says it in the active or the passive", () => {
    const v = verdicts(question, "The parliament writes the budget, and the finance ministry approves it.", reference);
    assert.deepEqual([v.response, v.reference], [["FP", "FP"], ["FN", "FN"]], v.reasons);
    assert.match(v.reasons, /"parliament" does it where it says "finance ministry"/);
  });

  it("leaves the right doers, and one doer of two left unswapped, as they are", () => {
    const right = verdicts(question, "The finance ministry writes the budget, and the parliament approves it.", reference);
    assert.deepEqual([right.response, right.reference], [["TP", "TP"], ["covered", "covered"]], right.reasons);
    const half = verdicts(question, "The finance ministry writes the budget.", reference);
    assert.deepEqual(half.response, ["TP"], half.reasons);
  });
});

describe("a Korean place given with a copula after its particle", () => {
  it("reads '파리에서였습니다' as a place, so another city than the reference's clashes", () => {
    const question = "세계 최초의 지하철은 언제, 어디에서 개통했나요?";
    const reference = "세계 최초의 지하철은 1863년 영국 런던에서 개통했다.";
    const wrong = verdicts(question, "1863년, 프랑스 파리에서였습니다.", reference);
    assert.deepEqual([wrong.response, wrong.reference], [["FP"], ["FN"]], wrong.reasons);
    const right = verdicts(question, "1863년, 영국 런던에서였습니다.", reference);
    assert.deepEqual([right.response, right.reference], [["TP"], ["covered"]], right.reasons);
  });
});

describe("opposite words said of different things", () => {
  it("takes no opposite from a statement about another named thing", () => {
    const v = verdicts(
      "Where were the lowest and highest air temperatures recorded?",
      "Counting cold places, Vostok Station recorded the lowest temperature.",
      "Among polar bases, Vostok Station recorded the lowest temperature. Among hot places, Furnace Creek recorded the highest temperature.",
    );
    assert.deepEqual(v.response, ["TP"], v.reasons);
  });

  it("takes no opposite verb from a statement that shares nothing else with it", () => {
    const v = verdicts("What do fish gills do?", "Gills absorb dissolved oxygen.", "Fish gills take in dissolved oxygen. They release carbon dioxide into the water.");
    assert.deepEqual(v.response, ["TP"], v.reasons);
    // Said of the same thing, the opposite still clashes.
    const w = verdicts("What do fish gills do with carbon dioxide?", "Gills absorb carbon dioxide.", "Fish gills release carbon dioxide into the water.");
    assert.deepEqual(w.response, ["FP"], w.reasons);
  });
});

describe("a count of years between two given years", () => {
  it("is said by the years themselves, and a wrong count is not", () => {
    const question = "When were the two parts of the canal opened?";
    const reference = "The first part of the canal opened in 1825. The second part opened in 1832.";
    const right = verdicts(question, "The first part opened in 1825 and the second part seven years later, in 1832.", reference);
    assert.ok(right.response.every((x) => x === "TP"), right.reasons);
    const span = verdicts("How long did the canal take to build?", "It took seven years to build.", "Building the canal started in 1825 and ended in 1832.");
    assert.deepEqual(span.response, ["TP"], span.reasons);
    const wrong = verdicts("How long did the canal take to build?", "It took nine years to build.", "Building the canal started in 1825 and ended in 1832.");
    assert.deepEqual(wrong.response, ["FP"], wrong.reasons);
  });
});

describe("a Korean noun named by the same word on both sides", () => {
  it("is one thing in two words ('대영 미술관' and '대영 박물관'), while another name still fails", () => {
    const question = "로제타석은 지금 어디에 있나요?";
    const reference = "로제타석은 현재 영국 런던의 대영 박물관에 소장되어 있다.";
    const right = verdicts(question, "런던의 대영 미술관에 가면 볼 수 있습니다.", reference);
    assert.deepEqual([right.response, right.reference], [["TP"], ["covered"]], right.reasons);
    const wrong = verdicts(question, "파리의 루브르 미술관에 가면 볼 수 있습니다.", reference);
    assert.deepEqual([wrong.response, wrong.reference], [["FP"], ["FN"]], wrong.reasons);
  });

  it("still clashes where the word before is a subject, not a name ('일본이 단독으로' against '일본이 공동으로')", () => {
    const v = verdicts("그 대회는 누가 개최했나요?", "일본이 단독으로 개최했습니다.", "그 대회는 한국과 일본이 공동으로 개최하였다.");
    assert.deepEqual(v.response, ["FP"], v.reasons);
  });
});

describe("a value the other side gives in another statement", () => {
  const question = "How long may a refund take, and when is a receipt needed?";
  const reference = "Refunds are paid within 14 days of the request. A receipt is needed for purchases over 30 days old.";

  it("clashes with the statement that says the same things with another value (two limits swapped)", () => {
    const v = verdicts(question, "Refunds are paid within 30 days of the request, and a receipt is needed for purchases over 14 days old.", reference);
    assert.deepEqual(v.response, ["FP", "FP"], v.reasons);
  });

  it("leaves the values in their own statements, and a statement that gives both values, alone", () => {
    const v = verdicts(question, "Refunds are paid within 14 days of the request, and a receipt is needed for purchases over 30 days old.", reference);
    assert.deepEqual(v.response, ["TP", "TP"], v.reasons);
    const both = verdicts("By how much did the price fall?", "By 20%: the $10 drop is one fifth of the starting price of $50.", "The price fell by 20%. The price fell by $10, from $50.");
    assert.ok(!/where it says \$10/.test(both.reasons), both.reasons);
  });
});

describe("a label and the phrase after its colon", () => {
  it("stay one statement when the phrase has no verb of its own", () => {
    assert.deepEqual(splitStatements("- **Night shifts:** a 15% premium on the base rate"), ["Night shifts: a 15% premium on the base rate"]);
    // A count before the colon is the answer; the list after it is split, each item with its own article.
    assert.deepEqual(splitStatements("Three: the crust, the mantle and the core."), ["Three", "the crust.", "the mantle.", "the core."]);
    assert.deepEqual(splitStatements("The layers are the crust, the mantle and the core."), ["The layers are the crust.", "The layers are the mantle.", "The layers are the core."]);
  });
});

describe("opposites and modifiers swapped between two things", () => {
  it("finds two opposite verbs swapped between two statements that each side has both of", () => {
    const question = "How does the cooling loop work?";
    const reference = "The coolant condenses in the pipes under the roof. The coolant evaporates in the pipes under the floor.";
    const v = verdicts(question, "The coolant evaporates in the pipes under the roof and condenses in the pipes under the floor.", reference);
    assert.deepEqual([v.response, v.reference], [["FP", "FP"], ["FN", "FN"]], v.reasons);
    const right = verdicts(question, "The coolant condenses in the pipes under the roof and evaporates in the pipes under the floor.", reference);
    assert.deepEqual(right.response, ["TP", "TP"], right.reasons);
  });

  it("finds modifiers swapped between two phrases of one noun", () => {
    const v = verdicts("What does the flag look like?", "The flag has a white upper stripe and a red lower stripe.", "The flag has a red upper stripe and a white lower stripe.");
    assert.deepEqual([v.response, v.reference], [["FP"], ["FN"]], v.reasons);
    const right = verdicts("What does the flag look like?", "It has a red upper stripe and a white lower stripe.", "The flag has a red upper stripe and a white lower stripe.");
    assert.deepEqual(right.response, ["TP"], right.reasons);
  });
});

describe("a denial weighed by what it denies", () => {
  it("finds 'do not need to be escorted' against a statement that denies something else", () => {
    const v = verdicts(
      "What are the rules for visitors at the lab?",
      "Visitors do not need to be accompanied by a technician.",
      "Visitors must be accompanied by a technician at all times and may not touch the equipment.",
    );
    assert.deepEqual(v.response, ["FP"], v.reasons);
  });

  it("ends a denial at a clause of its own, and carries no denial to a second verb", () => {
    const v = verdicts("Must a constant be set when it is declared?", "A constant does not change after it is declared.", "A constant is declared once.");
    assert.ok(!/negates/.test(v.reasons), v.reasons);
    assert.deepEqual(splitStatements("The drones never sting and live for a few weeks."), ["The drones never sting", "The drones live for a few weeks."]);
  });
});

describe("a quality compared the other way", () => {
  it("finds 'heavier' and 'more heavy' against 'less heavy', and 'less heavy' said the other way round", () => {
    const q = "How does aluminium compare with steel?";
    const reference = "Aluminium is about 65% less heavy than steel.";
    assert.deepEqual(verdicts(q, "Aluminium is about 65% heavier than steel.", reference).response, ["FP"]);
    assert.deepEqual(verdicts(q, "Steel is less heavy than aluminium.", reference).response, ["FP"]);
    assert.match(verdicts(q, "Aluminium is more heavy than steel.", reference).reasons, /"more heavy" where it says "less heavy"/);
  });

  it("accepts the same comparison said from the other side, or with the same degree", () => {
    const q = "How does aluminium compare with steel?";
    const reference = "Aluminium is less heavy than steel.";
    assert.deepEqual(verdicts(q, "Steel is heavier than aluminium.", reference).response, ["TP"]);
    assert.deepEqual(verdicts(q, "Steel is more heavy than aluminium.", reference).response, ["TP"]);
    assert.deepEqual(verdicts(q, "Aluminium is less heavy than steel.", reference).response, ["TP"]);
  });
});

describe("a name given in full as the whole answer", () => {
  it("says only the question's verb of the person, so the rest of the name is no claim the reference lacks", () => {
    const q = "Who painted the Mona Lisa?";
    const reference = "The Mona Lisa was painted by Leonardo in the early 1500s.";
    assert.deepEqual(verdicts(q, "**Leonardo da Vinci** painted it.", reference).response, ["TP"]);
    assert.deepEqual(verdicts(q, "**Raphael Sanzio** painted it.", reference).response, ["FP"]);
  });
});

describe("two things said of one subject by two names, with two verbs", () => {
  it("takes no swap from a statement with another verb, nor a crossed name from one another statement says whole", () => {
    const q = "How is a judge of the court appointed?";
    const reference = "Each judge is proposed by the Minister. Each judge must be approved by the Parliament.";
    const v = verdicts(q, "A judge is put forward by the Minister, and the proposal has to be endorsed by a Parliament vote.", reference);
    assert.deepEqual(v.reference, ["covered", "covered"], v.reasons);
  });

  it("still finds the name swapped where the verb is the same", () => {
    const q = "How is a judge of the court appointed?";
    const reference = "Each judge is proposed by the Minister. Each judge must be approved by the Parliament.";
    const v = verdicts(q, "A judge is proposed by the Parliament and approved by the Minister.", reference);
    assert.ok(v.response.every((x) => x === "FP"), v.reasons);
  });
});

describe("a verb phrase with a modal after 'and'", () => {
  it("is a statement of its own, with the subject and its denial", () => {
    const q = "What are the rules for guests at the hotel?";
    assert.deepEqual(splitStatements("Guests must register at the front desk and may not bring pets into the rooms.", q), [
      "Guests must register at the front desk",
      "Guests may not bring pets into the rooms.",
    ]);
    assert.deepEqual(splitStatements("The water is filtered twice and can be stored for a year.", q), ["The water is filtered twice", "The water can be stored for a year."]);
  });

  it("so an answer that denies one of the two leaves only that one uncovered", () => {
    const v = verdicts(
      "What are the rules for guests at the hotel?",
      "Guests must register at the front desk, and they can bring pets into the rooms.",
      "Guests must register at the front desk and may not bring pets into the rooms.",
    );
    assert.deepEqual(v.reference, ["covered", "FN"], v.reasons);
  });
});

describe("a Korean rate", () => {
  it("keeps the unit it is counted per with its value ('1박에 90달러'), so a swapped rate clashes whole", () => {
    const q = "숙박비와 주차비는 얼마인가요?";
    assert.deepEqual(splitStatements("숙박비는 1박에 90달러입니다.", q), ["숙박비는 1박에 90달러입니다."]);
    assert.deepEqual(splitStatements("주차비는 1시간에 3000원이고 최대 20000원입니다.", q), ["주차비는 1시간에 3000원이고", "최대 20000원입니다."]);
    const v = verdicts(q, "숙박비는 1박에 120달러입니다.", "숙박비는 1박에 90달러입니다.");
    assert.deepEqual(v.response, ["FP"], v.reasons);
    assert.deepEqual(v.reference, ["FN"], v.reasons);
  });
});
