/**
 * The offline judge's statements stand alone, as Ragas asks of its statements: "he", "him" and
 * "his" become the person they stand for, so a wrong name carried on by a pronoun is wrong in
 * every statement that speaks of that person; "from X to Y" stays one route; a name with "of" in
 * it stays one name; "a young boy, Joseph Meister" names one person twice; a ", when …" clause
 * stays with the date it describes; and the initials of a question's words ("UK" for "United
 * Kingdom") only repeat the question; a surname the tagger took for a verb ("Francis Crick
 * proposed") is part of the name; a name given in full ("Rembrandt van Rijn") is found where the
 * other side gives part of it, and "Wałęsa" is "Walesa"; a note after a list is a claim of its
 * own; "platform No. 4" says which platform; a plural noun that opens a sentence ("Pups drink …")
 * is no name; "they" after a plural subject stands for it. The sentences here are not those of
 * the bundled data.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolvePronouns } from "../src/judge/offline/pronouns";
import { splitStatements } from "../src/judge/offline/statements";
import { verdictsInLine as verdicts } from "./support/verdicts";


describe("pronouns stand for the person named before them", () => {
  it("names the person in place of he, him and his", () => {
    assert.deepEqual(resolvePronouns(["René Laennec invented the stethoscope in 1816.", "He described its use in 1819."]), [
      "René Laennec invented the stethoscope in 1816.",
      "René Laennec described its use in 1819.",
    ]);
    // An object pronoun is someone other than the statement's subject; a possessive with no subject of its own is the last subject's.
    assert.deepEqual(resolvePronouns(["Perseus killed Medusa.", "Athena gave him a shield.", "A sword was his weapon."]), [
      "Perseus killed Medusa.",
      "Athena gave Perseus a shield.",
      "A sword was Perseus's weapon.",
    ]);
  });

  it("leaves a possessive to the statement's own subject, and a place is no one's antecedent", () => {
    assert.deepEqual(resolvePronouns(["Ada Lovelace lived in London.", "Charles Babbage designed the engine with his own money."]), [
      "Ada Lovelace lived in London.",
      "Charles Babbage designed the engine with his own money.",
    ]);
    assert.deepEqual(resolvePronouns(["Frida Kahlo was born in Coyoacán.", "Her paintings are self-portraits."]), ["Frida Kahlo was born in Coyoacán.", "Frida Kahlo's paintings are self-portraits."]);
  });

  it("makes every statement a wrong name carries on by pronouns unsupported, and keeps the right name's supported", () => {
    const question = "Who worked out the laws of inheritance, and with which plants?";
    const reference = "Gregor Mendel worked out the laws of inheritance. His experiments used pea plants.";
    const wrong = verdicts(question, "It was Ignaz Semmelweis who worked them out. His experiments used pea plants.", reference);
    assert.deepEqual(wrong.response, ["FP", "FP"], wrong.reasons);
    assert.deepEqual(wrong.reference, ["FN", "FN"], wrong.reasons);
    const right = verdicts(question, "Gregor Mendel worked them out. His experiments used pea plants.", reference);
    assert.deepEqual(right.response, ["TP", "TP"], right.reasons);
  });
});

describe("two names of one person set side by side", () => {
  it("does not read 'the boy' as crossed with the name the answer gave him", () => {
    const v = verdicts(
      "Did the first patient survive?",
      "Yes, he did. In 1885 the doctor treated a young boy, Joseph Meister, with the vaccine; the boy was then protected from rabies.",
      "Yes. In 1885 the doctor treated the boy Joseph Meister with the vaccine, and this protected Joseph Meister from rabies.",
    );
    assert.ok(v.response.every((x) => x === "TP"), v.reasons);
  });
});

describe("statements that keep what belongs together", () => {
  it("keeps 'from X to Y' as one route, so a reversed route clashes", () => {
    const v = verdicts(
      "Which way does the night train run?",
      "The night train runs from Nizhny Novgorod to Saint Petersburg.",
      "The night train runs from Saint Petersburg to Nizhny Novgorod.",
    );
    assert.deepEqual([v.response, v.reference], [["FP"], ["FN"]], v.reasons);
    assert.deepEqual(splitStatements("The first train ran from Saint Petersburg to Tsarskoye Selo in 1837."), [
      "The first train ran from Saint Petersburg to Tsarskoye Selo.",
      "The first train ran in 1837.",
    ]);
  });

  it("keeps a name with 'of' in it whole", () => {
    assert.deepEqual(splitStatements("The fire broke out at the Museum of Modern Art in 1958."), [
      "The fire broke out at the Museum of Modern Art.",
      "The fire broke out in 1958.",
    ]);
  });

  it("keeps a short ', when …' clause with the date it describes", () => {
    const v = verdicts("When did the Tay Bridge collapse?", "The Tay Bridge collapsed in 1897, when Dundee flooded.", "The Tay Bridge collapsed on 28 December 1879.");
    assert.deepEqual(v.response, ["FP"], v.reasons);
  });

  it("reads the initials of a question's words as repeating the question", () => {
    // Asked when, the claim that only says for whom is the question's premise.
    assert.deepEqual(splitStatements("Valentina Tereshkova flew into space for the USSR in 1963.", "When did Valentina Tereshkova fly into space for the Union of Soviet Socialist Republics?"), [
      "Valentina Tereshkova flew into space in 1963.",
    ]);
    const v = verdicts(
      "When did Jens Stoltenberg become Secretary General of the North Atlantic Treaty Organization?",
      "Jens Stoltenberg became NATO Secretary General in 2012.",
      "Jens Stoltenberg became Secretary General of the North Atlantic Treaty Organization on 1 October 2014.",
    );
    assert.deepEqual(v.response, ["FP"], v.reasons);
  });
});

describe("a surname the tagger reads as a verb or a noun", () => {
  it("is part of the name, so the surname alone names the person", () => {
    const v = verdicts("Who proposed the theory of continuous groups?", "Lie proposed it.", "Sophus Lie proposed the theory of continuous groups.");
    assert.deepEqual(v.reference, ["covered"], v.reasons);
    const w = verdicts("Who met the delegation?", "Park met the delegation.", "Anna Park met the delegation in Geneva.");
    assert.deepEqual(w.response, ["TP"], w.reasons);
  });
});

describe("names written in full, with a particle or with letters Unicode does not decompose", () => {
  it("finds a name given in full where the other side gives part of it", () => {
    const v = verdicts("Who painted The Night Watch?", "Rembrandt van Rijn painted it in 1642.", "The Night Watch was painted by Rembrandt in 1642.");
    assert.deepEqual([v.response, v.reference], [["TP"], ["covered", "covered"]], v.reasons);
    const w = verdicts("Who painted The Night Watch?", "Frans Hals painted it in 1642.", "The Night Watch was painted by Rembrandt in 1642.");
    assert.deepEqual(w.response, ["FP"], w.reasons);
  });

  it("reads 'Wałęsa' as 'Walesa'", () => {
    const v = verdicts("Who led the Solidarity movement?", "Lech Wałęsa led it.", "Lech Walesa led the Solidarity movement.");
    assert.deepEqual([v.response, v.reference], [["TP"], ["covered"]], v.reasons);
  });

  it("splits 'and it …' without a comma into two statements", () => {
    assert.deepEqual(splitStatements("The lighthouse is about 60 m tall and it stands on a granite rock."), ["The lighthouse is about 60 m tall", "it stands on a granite rock."]);
  });
});

describe("lists and numbered things", () => {
  it("keeps a note after a list off its items, as a claim of its own", () => {
    assert.deepEqual(splitStatements("Belgium, the Netherlands and Luxembourg, from south to north.", "Which countries form Benelux?"), [
      "Belgium.",
      "Netherlands.",
      "Luxembourg.",
      "Belgium, the Netherlands and Luxembourg, from south to north.",
    ]);
    const v = verdicts("Which countries form Benelux?", "Belgium, the Netherlands and Luxembourg, from south to north.", "Benelux is formed by Belgium, the Netherlands and Luxembourg.");
    assert.deepEqual(v.response.slice(0, 3), ["TP", "TP", "TP"], v.reasons);
  });

  it("covers a reference list item by a bare item of the answer's list, though another bare item names another", () => {
    const v = verdicts("Which countries form Benelux?", "Belgium. The Netherlands. Luxembourg.", "Benelux is formed by Belgium, the Netherlands and Luxembourg, in that order.");
    assert.ok(v.reference.slice(0, 3).every((x) => x === "covered"), v.reasons);
  });

  it("reads 'platform No. 4' as which platform, not a count", () => {
    const v = verdicts("Which platform does the night train leave from?", "It leaves from platform No. 2.", "The night train leaves from platform No. 4.");
    assert.deepEqual(v.response, ["FP"], v.reasons);
    const w = verdicts("Which platform does the night train leave from?", "It leaves from Platform 4.", "The night train leaves from platform No. 4.");
    assert.deepEqual(w.response, ["TP"], w.reasons);
  });
});

describe("a plural noun that opens a sentence", () => {
  it("is a common noun, not a name the other side must give", () => {
    const v = verdicts("How do young seals feed?", "Pups drink their mother's milk for a few weeks.", "Young seals drink their mother's milk for a few weeks.");
    assert.deepEqual([v.response, v.reference], [["TP"], ["covered"]], v.reasons);
    // A name ending in s stays a name.
    const w = verdicts("What is the capital of Greece?", "Athens is the capital of Greece.", "The capital of Greece is Thessaloniki.");
    assert.deepEqual(w.response, ["FP"], w.reasons);
  });
});

describe("'they' after a plural subject", () => {
  it("stands for that subject", () => {
    assert.deepEqual(splitStatements("Worker bees do not mate; they gather pollen and nectar."), ["Worker bees do not mate", "Worker bees gather pollen and nectar."]);
  });
});
