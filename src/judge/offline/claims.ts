/**
 * Atomic claims for the offline judge: one clause that carries several facts
 * ("Einstein was born in Spain in 1879") becomes one claim per fact
 * ("Einstein was born in Spain." / "Einstein was born in 1879."), a list of
 * values or names one claim per item ("100 °C, or 180 °F"), "X, not Y" a
 * claim and a negated claim, and "A absorbs X and releases Y" two claims.
 * English uses wink-nlp's part-of-speech tags; Korean its particles.
 */
import { DESIGNATION_NUMBER, NAME_PARTICLE } from "./analyze";
import { englishTokens, type EnglishToken } from "./english";
import { Memo } from "./memo";
import { HAS_HANGUL } from "./text";
import { findValues, type TextValue } from "./values";


/** A slot: a preposition (and modifiers) followed by one or more items (values or names). */
interface Slot {
  start: number;
  end: number;
  /** Whether a preposition introduces it ("by the Scottish scientist …"); a slot without one is the verb's object or complement. */
  preposition: boolean;
  items: Array<{ start: number; end: number }>;
  /** "X, not Y": the items after "not" are denied. */
  negatedFrom: number;
}

/** Drops brackets left without their partner after a slot was cut out. */
function balance(text: string): string {
  let depth = 0;
  let out = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") {
      if (depth === 0) continue;
      depth--;
    }
    out += ch;
  }
  while (depth-- > 0) out = out.replace(/\((?![^(]*\))/, "");
  return out;
}

function tidy(text: string): string {
  return balance(text)
    .replace(/\s+([,.;:!?)])/g, "$1")
    .replace(/\(\s*\)/g, "")
    .replace(/,\s*,/g, ",")
    .replace(/,\s*([.!?]|$)/g, "$1")
    .replace(/^\s*[,;:]\s*/, "")
    .replace(/\s{2,}/g, " ")
    .trim();
}

/** A token that is a designation number ("11", "3.6") and nothing else. */
const WHOLE_DESIGNATION = new RegExp(`^${DESIGNATION_NUMBER.source}$`, "u");

const GLUE = /^(?:,|or|and|nor|\(|\)|as|well|not|but)$/i;
/** Words that may stand between a preposition and its item ("by the Scottish scientist …"). */
const MODIFIER_POS = new Set(["DET", "ADJ", "NOUN", "PROPN", "NUM", "SYM"]);


/** Whether a token can be part of a name: a proper noun, or a capitalised noun ("St Mary's Hospital"). */
function nameLike(t: EnglishToken): boolean {
  return (t.pos === "PROPN" || t.pos === "NOUN") && /^\p{Lu}/u.test(t.text) && t.text.length > 1;
}

/**
 * A capital letter in a list of names ("vitamins A, C, D and B12", "grades A, B or C"), whatever
 * the tagger made of it ("A" reads as an article): a name, like the items beside it.
 */
function listedLetter(tokens: readonly EnglishToken[], i: number): boolean {
  if (!/^\p{Lu}\.?$/u.test(tokens[i]!.text)) return false;
  const glue = (t: EnglishToken | undefined) => t !== undefined && /^(?:,|and|or)$/i.test(t.text);
  const named = (t: EnglishToken | undefined) => t !== undefined && /^\p{Lu}[\p{Lu}\p{N}]*\.?$/u.test(t.text);
  return (glue(tokens[i + 1]) && named(tokens[i + 2])) || (glue(tokens[i - 1]) && named(tokens[i - 2]));
}

/**
 * Items of an English clause: its values, and the name groups after its first
 * verb (a name that modifies a noun, "Penicillium mould", is not an item).
 * Items separated only by modifiers ("Scottish scientist Alexander Fleming")
 * are one item.
 */
function englishItems(tokens: readonly EnglishToken[], values: readonly TextValue[]): Array<{ start: number; end: number }> {
  // A value takes the noun it counts ("40 bottles", "3 moons").
  // A value in a compound takes the whole of it ("a 180-day period", "a four-year term").
  const items: Array<{ start: number; end: number }> = values.map((v) => {
    let end = v.end;
    let i = tokens.findIndex((t) => t.start >= end);
    if (i >= 0 && tokens[i]!.text === "-" && tokens[i]!.start === end && tokens[i + 1]?.start === tokens[i]!.end && /^\p{L}/u.test(tokens[i + 1]!.text)) {
      end = tokens[i + 1]!.end;
      i += 2;
    }
    const next = tokens[i];
    const counted = next !== undefined && next.pos === "NOUN" && !nameLike(next) && next.start - end <= 1;
    return { start: v.start, end: counted ? next.end : end };
  });
  // A fragment without a verb ("Canberra, not Sydney") has its names anywhere.
  let seenVerb = !tokens.some((t) => t.pos === "VERB" || t.pos === "AUX");
  let group: { start: number; end: number } | undefined;
  // The token before the group: a name that modifies a noun after a preposition is an item with its noun.
  let before: EnglishToken | undefined;
  const flush = (at: number): void => {
    const next = tokens[at];
    const modifiesNoun = next !== undefined && next.pos === "NOUN" && !nameLike(next);
    // Not "70.8 percent of the Earth's surface": what a value is a share of stays with it.
    const ofValue = before !== undefined && /^of$/i.test(before.text) && values.some((v) => v.end <= before!.start && before!.start - v.end <= 1);
    if (group && modifiesNoun && before?.pos === "ADP" && !ofValue) {
      // "of NASA's Apollo 11 mission", "at the Louvre Museum shop": the name and the nouns it modifies.
      let end = at;
      while (tokens[end + 1]?.pos === "NOUN" && !nameLike(tokens[end + 1]!)) end++;
      group = { start: group.start, end: tokens[end]!.end };
    } else if (modifiesNoun) {
      group = undefined;
    }
    if (group && !items.some((i) => group!.start < i.end && group!.end > i.start)) items.push(group);
    group = undefined;
  };
  for (const [index, t] of tokens.entries()) {
    if (t.pos === "VERB" || t.pos === "AUX") seenVerb = true;
    if (seenVerb && (nameLike(t) || listedLetter(tokens, index))) {
      if (!group) {
        // Back over adjectives and determiners ("aboard the Soviet Vostok 1 capsule") to what opens the phrase.
        let k = index - 1;
        while (tokens[k]?.pos === "ADJ" || tokens[k]?.pos === "DET") k--;
        before = tokens[k];
      }
      group = group ? { start: group.start, end: t.end } : { start: t.start, end: t.end };
    } else if (group && NAME_PARTICLE.test(t.text)) {
      // "Leonardo da Vinci", "Ludwig van Beethoven": the group goes on if a name follows.
      continue;
    } else if (group && WHOLE_DESIGNATION.test(t.text) && t.start === group.end + 1 && !values.some((v) => v.start < t.end && v.end > t.start)) {
      // A number that names which one ("Python 3.6", "Apollo 11") is part of the name.
      group = { start: group.start, end: t.end };
    } else if (group && t.pos === "PART" && /^['’]s$/.test(t.text)) {
      group = { start: group.start, end: t.end };
    } else if (group) {
      flush(index);
    }
  }
  flush(tokens.length);
  items.sort((a, b) => a.start - b.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const item of items) {
    const last = merged[merged.length - 1];
    const between = last ? tokens.filter((t) => t.start >= last.end && t.end <= item.start) : [];
    // A range ("1914–18", "60-100", "20 to 25 times") is one item, as is a run of modifiers between two items.
    const startsValue = (it: { start: number }) => values.some((v) => v.start === it.start);
    const range = between.length === 1 && (/^[-–~]$/.test(between[0]!.text) || (/^to$/i.test(between[0]!.text) && last !== undefined && startsValue(last) && startsValue(item)));
    if (last && between.length > 0 && (range || between.every((t) => t.pos === "ADJ" || t.pos === "NOUN" || t.pos === "PROPN"))) {
      last.end = item.end;
    } else if (last && item.start < last.end) {
      last.end = Math.max(last.end, item.end);
    } else {
      merged.push({ ...item });
    }
  }
  return merged;
}

/** Groups items into slots: items joined only by list glue share a slot; a slot takes the preposition before it. */
function englishSlots(clause: string, tokens: readonly EnglishToken[], items: ReadonlyArray<{ start: number; end: number }>): Slot[] {
  const slots: Slot[] = [];
  for (const item of items) {
    const last = slots[slots.length - 1];
    // Inside the phrase of a slot before it ("with Richard Taylor helping him in 1994"): the slot's own.
    if (last && item.start < last.end) continue;
    if (last) {
      const between = tokens.filter((t) => t.start >= last.end && t.end <= item.start);
      // A list needs a conjunction ("A and B", "A, or B", "A, not B"); a lone comma is an apposition ("Rome, Italy").
      const joined = between.some((t) => /^(?:or|and|nor|not|\()$/i.test(t.text));
      // A lone comma is a list's when the list closes later ("France, Spain and Italy"): a later
      // item comes after "and" or "or", with no verb or preposition on the way.
      let closing: boolean | undefined;
      const closesLater = (): boolean =>
        (closing ??= items.some((later) => {
          if (later.start <= item.start) return false;
          const gap = tokens.filter((t) => t.start >= item.end && t.end <= later.start);
          return gap.some((t) => /^(?:or|and)$/i.test(t.text)) && !gap.some((t) => t.pos === "VERB" || t.pos === "AUX" || t.pos === "ADP");
        }));
      const apposition = between.length > 0 && between.every((t) => t.text === ",") && !closesLater();
      // "Pride and Prejudice", "Lewis and Clark", "from London to Paris": single-word names joined by
      // glue words are one item; not across a noun or verb ("the Himalayas on the border between Nepal").
      const singleNames =
        last.items.length < 2 &&
        !between.some((t) => /^(?:or|nor|not|,|\()$/i.test(t.text) || t.pos === "NOUN" || t.pos === "VERB") &&
        [last.items[last.items.length - 1]!, item].every((it) => !/\s/.test(clause.slice(it.start, it.end)) && /^\p{Lu}/u.test(clause.slice(it.start, it.end)));
      // "between Nepal and the Tibet region": the two ends of one relation, not a list of two.
      const pair = /^between\b/i.test(clause.slice(last.start, last.items[0]!.start)) && last.items.length === 1 && between.some((t) => /^and$/i.test(t.text));
      // "from New York to Paris": a route, one thing said; cut apart, the two ends could be swapped unseen.
      const route =
        /^from\b/i.test(clause.slice(last.start, last.items[0]!.start)) && last.items.length === 1 && between.some((t) => /^to$/i.test(t.text)) && between.every((t) => /^to$/i.test(t.text) || t.pos === "DET");
      // "the Spirit of St. Louis", "the Bank of England": a name with "of" in it is one name (not
      // "the East Coast of the United States", a place in a larger one, said in two claims).
      const ofName =
        last.items.length === 1 &&
        between.length === 1 &&
        /^of$/i.test(between[0]!.text) &&
        [last.items[0]!, item].every((it) => /^\p{Lu}/u.test(clause.slice(it.start, it.end)));
      if (apposition || singleNames || pair || route || ofName) {
        last.items[last.items.length - 1]!.end = item.end;
        last.end = item.end;
        continue;
      }
      if ((joined || closesLater()) && between.every((t) => GLUE.test(t.text) || t.pos === "DET")) {
        if (between.some((t) => /^not$/i.test(t.text)) && last.negatedFrom < 0) last.negatedFrom = last.items.length;
        last.items.push(item);
        last.end = item.end;
        continue;
      }
    }
    // Walk back over modifiers to the preposition that introduces the item.
    const floor = last ? last.end : 0;
    const before = tokens.filter((t) => t.end <= item.start && t.start >= floor);
    let start = item.start;
    for (let i = before.length - 1; i >= 0; i--) {
      const t = before[i]!;
      if (t.pos === "ADP") {
        // A preposition and a hedge that reads as one ("at around", "of about"): the slot takes both.
        let first = i;
        while (first > 0 && before[first - 1]!.pos === "ADP") first--;
        // A preposition of two words ("according to", "due to", "compared with"): the slot takes both.
        if (first > 0 && /^(?:according|due|owing|thanks|prior|next|close|contrary|relative|compared|instead|ahead|because)$/i.test(before[first - 1]!.text)) first--;
        start = before[first]!.start;
        break;
      }
      if (!MODIFIER_POS.has(t.pos) || /^(?:not)$/i.test(t.text)) break;
    }
    // No preposition found: the item is the verb's object or complement, and the slot is the item alone.
    // "with X doing …": the item and its slot run to the end of the participle's phrase.
    const participle = withParticiple(clause, tokens, start, item) ?? relativeAdverb(clause, tokens, start, item);
    if (participle !== undefined) item.end = participle;
    slots.push({ start, end: item.end, preposition: start < item.start, items: [item], negatedFrom: -1 });
  }
  return slots;
}

/**
 * Where a slot "with X doing …" ends: the item does what the participle says, so the slot holds
 * the participle's phrase to the end of its clause ("with Richard Taylor helping him finish it"
 * is one thing said, not "with Richard Taylor" and "helping him finish it"). Undefined for
 * another slot.
 */
function withParticiple(clause: string, tokens: readonly EnglishToken[], start: number, item: { readonly start: number; readonly end: number }): number | undefined {
  if (!/^with(?:out)?\b/i.test(clause.slice(start))) return undefined;
  const k = tokens.findIndex((t) => t.start >= item.end);
  return k < 0 || !/^\p{Ll}{2,}ing$/u.test(tokens[k]!.text) ? undefined : phraseEnd(tokens, k);
}

/** Where the phrase that token `k` opens ends: before the next punctuation mark, or at the clause's end. */
function phraseEnd(tokens: readonly EnglishToken[], k: number): number {
  while (k + 1 < tokens.length && !/^[,;:.!?()]$/.test(tokens[k + 1]!.text)) k++;
  return tokens[k]!.end;
}

/**
 * Where a slot followed by ", when …" or ", where …" ends: the clause after the comma says more
 * about the slot's time or place ("in 1944, when Germany surrendered"; "in Vienna, where he
 * studied"), so the slot holds it to the next mark. Undefined for another slot, or when the
 * slot has no preposition (the clause is then about the sentence, not one item of it).
 */
function relativeAdverb(clause: string, tokens: readonly EnglishToken[], start: number, item: { readonly start: number; readonly end: number }): number | undefined {
  if (start === item.start || !/^,\s*(?:when|where)\s/i.test(clause.slice(item.end))) return undefined;
  const k = tokens.findIndex((t) => t.start > item.end && /^(?:when|where)$/i.test(t.text));
  return k < 0 ? undefined : phraseEnd(tokens, k);
}

/**
 * The clause with every slot but those in `keep` removed; `focus` (one of
 * them) reduced to its item `itemIndex`, the others to their first item.
 */
function claimFor(clause: string, slots: readonly Slot[], keep: readonly Slot[], itemIndex: number, focus?: Slot): string {
  let out = "";
  let from = 0;
  for (const slot of slots) {
    out += clause.slice(from, slot.start);
    if (keep.includes(slot)) {
      const index = slot === focus ? itemIndex : 0;
      const item = slot.items[index]!;
      if (slot.negatedFrom >= 0 && index >= slot.negatedFrom) out += "not ";
      out += clause.slice(slot.start, slot.items[0]!.start) + clause.slice(item.start, item.end);
    }
    from = slot.end;
  }
  const claim = tidy(out + clause.slice(from));
  // A participle whose phrase was all cut out ("…, set in Berlin in 2009" → "…, set.") says nothing alone.
  const dangling = /,\s+\p{Ll}+([.!?]?)$/u.exec(claim);
  return dangling !== null && !/,\s+\p{Ll}+[.!?]?$/u.test(clause.trim()) ? claim.slice(0, dangling.index) + dangling[1] : claim;
}

/** The first verb written in lower case, or -1: the tagger reads some surnames as verbs ("Watson, Crick and Franklin"). */
function firstMainVerb(tokens: readonly EnglishToken[]): number {
  return tokens.findIndex((t) => (t.pos === "VERB" || t.pos === "AUX") && /^\p{Ll}/u.test(t.text));
}

/** Past "not", adverbs and "be"/"have" after a modal ("may not", "can be", "will have been"), to the verb. */
function skipAuxiliaries(tokens: readonly EnglishToken[], k: number): number {
  while (k < tokens.length && (tokens[k]!.pos === "ADV" || tokens[k]!.pos === "PART" || (tokens[k]!.pos === "AUX" && /^(?:be|been|have)$/i.test(tokens[k]!.text)))) k++;
  return k;
}

/** Modal verbs, which open a verb phrase of their own after "and". */
const MODAL = /^(?:may|must|can|cannot|should|will|shall|might|could|would)$/i;

/** "They absorb X and release Y" → ["They absorb X", "They release Y"]: a coordinated verb phrase gets the subject. */
function splitVerbPhrases(clause: string, tokens: readonly EnglishToken[]): string[] | undefined {
  const firstVerb = firstMainVerb(tokens);
  if (firstVerb < 0) return undefined;
  for (let i = firstVerb + 1; i + 1 < tokens.length; i++) {
    const and = tokens[i]!;
    const next = tokens[i + 1]!;
    const after = tokens[i + 2];
    if (!/^(?:and|but)$/i.test(and.text)) continue;
    const leftVerbs = tokens.slice(firstVerb, i).some((t) => t.pos === "VERB");
    // "… and veins carry it back": a clause with its own subject (a determiner, then a noun or pronoun, then its verb);
    // also after "X is Y" ("Japan's capital is Tokyo and its currency is the yen").
    const possessive = /^(?:its|their|his|her|our|my|your)$/i.test(next.text);
    let ownSubjectAt = next.pos === "DET" || possessive ? i + 2 : i + 1;
    // "… and its atomic mass is 14": adjectives before the subject's noun.
    if (next.pos === "DET" || possessive) while (tokens[ownSubjectAt]?.pos === "ADJ" && tokens[ownSubjectAt + 1] !== undefined) ownSubjectAt++;
    const ownSubject = tokens[ownSubjectAt];
    // (An adverb may stand between: "… and reduction always takes place …".)
    let verbAt = ownSubjectAt + 1;
    while (tokens[verbAt]?.pos === "ADV") verbAt++;
    const ownVerb = tokens[verbAt];
    if (
      ownSubject !== undefined && ownVerb !== undefined && ["NOUN", "PROPN", "PRON"].includes(ownSubject.pos) &&
      (ownVerb.pos === "VERB" || ownVerb.pos === "AUX") && /^\p{Ll}/u.test(ownVerb.text) && !/^(?:it|them|him|her|us|me)$/i.test(ownSubject.text) &&
      // After "X is Y" only a subject with a determiner opens a clause: "… where Celsius and Fahrenheit meet" is one subject.
      (leftVerbs || next.pos === "DET" || possessive)
    ) {
      return [tidy(clause.slice(0, and.start).replace(/,\s*$/, "")), tidy(clause.slice(next.start))];
    }
    if (!leftVerbs) continue;
    // A noun the tagger may have meant as a verb ("and release heat"), but not in a list of
    // examples ("from food, such as oily fish and egg yolks").
    // A modal and its verb, denied or not ("… and may not enter the yard", "… and must wear a badge").
    const modal = MODAL.test(next.text) && next.pos === "AUX" && tokens[skipAuxiliaries(tokens, i + 2)]?.pos === "VERB";
    const verbLike = next.pos === "VERB" || modal || (next.pos === "NOUN" && after !== undefined && ["DET", "NOUN", "ADJ", "PRON", "NUM"].includes(after.pos) && !inExamples(tokens, i));
    if (!verbLike) continue;
    // (A negation of the first verb is no negation of the second: "the males never bite and live on nectar".)
    const subject = clause.slice(0, tokens[firstVerb]!.start).trim().replace(/\s+(?:never|not)$/iu, "");
    const left = tidy(clause.slice(0, and.start).replace(/,\s*$/, ""));
    const right = tidy(`${subject ? `${subject} ` : ""}${clause.slice(next.start)}`);
    return [left, right];
  }
  return undefined;
}

/** Whether token `at` is inside a list of examples ("such as", "like", "including", "e.g." with no verb since). */
function inExamples(tokens: readonly EnglishToken[], at: number): boolean {
  for (let k = at - 1; k >= 0; k--) {
    const t = tokens[k]!;
    if ((/^like$/i.test(t.text) && t.pos !== "VERB") || /^(?:including|e\.g\.?)$/i.test(t.text) || (/^as$/i.test(t.text) && /^such$/i.test(tokens[k - 1]?.text ?? ""))) return true;
    if (t.pos === "VERB" || t.pos === "AUX") return false;
  }
  return false;
}

/**
 * "Whales are mammals, not fish." → ["Whales are mammals.", "Whales are not fish."]: a clause
 * that ends in ", not Y" (a short phrase of common words, no verb) is the clause and its
 * subject and verb denying Y; a fragment ("The skin, not the liver.") is the answer and "not Y". Names and values after "not" are lists of items (see
 * {@link englishSlots}) and are left to them.
 */
function splitContrast(clause: string, tokens: readonly EnglishToken[]): string[] | undefined {
  const not = tokens.findIndex((t, i) => /^not$/i.test(t.text) && i > 0 && tokens[i - 1]!.text === ",");
  if (not < 0) return undefined;
  const denied = tokens.slice(not + 1).filter((t) => t.pos !== "PUNCT");
  if (denied.length === 0 || denied.length > 4 || denied.some((t) => ["VERB", "AUX", "PROPN", "NUM"].includes(t.pos) || /^\p{Lu}/u.test(t.text))) return undefined;
  const verb = tokens.findIndex((t) => t.pos === "AUX" || t.pos === "VERB");
  const end = tokens[not + denied.length]?.end ?? clause.length;
  // A fragment ("The skin, not the liver"): the answer, and the denial.
  const deniedText = clause.slice(denied[0]!.start, denied[denied.length - 1]!.end);
  const stop = /[.!?]\s*$/.test(clause) ? "." : "";
  const said = tidy(clause.slice(0, tokens[not - 1]!.start) + clause.slice(end));
  if (verb < 0 && not >= 2) return [said, tidy(`not ${deniedText}${stop}`)];
  if (verb < 0 || verb >= not - 1) return undefined;
  const head = clause.slice(0, tokens[verb]!.end);
  return [said, tidy(`${head} not ${deniedText}${stop}`)];
}

/**
 * "Uruguay won in 1930, beating Brazil in the final." → ["Uruguay won in 1930", "Uruguay beating
 * Brazil in the final."]: a participle clause after a comma says a second thing of the subject.
 */
function splitParticiple(clause: string, tokens: readonly EnglishToken[]): string[] | undefined {
  const firstVerb = firstMainVerb(tokens);
  if (firstVerb <= 0 || !tokens.slice(0, firstVerb).some((t) => ["NOUN", "PROPN", "PRON"].includes(t.pos))) return undefined;
  for (let i = firstVerb + 2; i + 1 < tokens.length; i++) {
    const t = tokens[i]!;
    if (tokens[i - 1]!.text !== "," || !/^\p{Ll}{2,}ing$/u.test(t.text) || !["VERB", "NOUN"].includes(t.pos)) continue;
    // "… and, using sunlight, turn it into sugar": an aside inside a verb phrase, not a clause of its own.
    if (tokens[i - 2]!.pos === "CCONJ") return undefined;
    if (!["DET", "PROPN", "NOUN", "PRON", "ADJ", "NUM", "ADP"].includes(tokens[i + 1]!.pos)) continue;
    // (A negation of the first verb is no negation of the second: "the males never bite and live on nectar".)
    const subject = clause.slice(0, tokens[firstVerb]!.start).trim().replace(/\s+(?:never|not)$/iu, "");
    if (!subject || tokens.slice(0, firstVerb).some((u) => /^(?:no|nothing|none|nobody|neither)$/i.test(u.text))) return undefined;
    return [tidy(clause.slice(0, tokens[i - 1]!.start)), tidy(`${subject} ${clause.slice(t.start)}`)];
  }
  return undefined;
}

/**
 * "Oxidation happens at the anode and reduction at the cathode." → ["Oxidation happens at the
 * anode", "reduction happens at the cathode"]: a second conjunct with no verb of its own, a noun
 * phrase then a phrase of the preposition that closes the first (a gapped clause), takes the first
 * one's verb, so that each thing keeps what is said of it.
 */
function splitGapped(clause: string, tokens: readonly EnglishToken[]): string[] | undefined {
  const firstVerb = firstMainVerb(tokens);
  if (firstVerb <= 0 || !tokens.slice(0, firstVerb).some((t) => t.pos === "NOUN" || t.pos === "PROPN")) return undefined;
  const and = tokens.findIndex((t, i) => i > firstVerb && /^(?:and|but|whereas)$/i.test(t.text));
  if (and < 0) return undefined;
  const right = tokens.slice(and + 1).filter((t) => t.pos !== "PUNCT");
  if (right.some((t) => t.pos === "VERB" || t.pos === "AUX")) return undefined;
  let k = 0;
  while (k < right.length && right[k]!.pos === "DET") k++;
  const from = k;
  while (k < right.length && ["ADJ", "NOUN", "PROPN"].includes(right[k]!.pos)) k++;
  const preposition = right[k];
  if (k === from || preposition === undefined || preposition.pos !== "ADP" || !right.slice(from, k).some((t) => t.pos === "NOUN" || t.pos === "PROPN")) return undefined;
  // The first conjunct's phrase of the same preposition, right before "and" ("at the anode").
  let j = and - 1;
  while (j > firstVerb && ["DET", "ADJ", "NOUN", "PROPN", "NUM", "PUNCT"].includes(tokens[j]!.pos)) j--;
  if (j <= firstVerb || tokens[j]!.pos !== "ADP" || tokens[j]!.text.toLowerCase() !== preposition.text.toLowerCase()) return undefined;
  const verbPhrase = clause.slice(tokens[firstVerb]!.start, tokens[j]!.start);
  const first = tidy(clause.slice(0, tokens[and]!.start).replace(/,\s*$/, ""));
  return [first, tidy(`${clause.slice(right[0]!.start, right[k - 1]!.end)} ${verbPhrase}${clause.slice(preposition.start)}`)];
}

/** Tags a list item may hold: a short noun phrase ("object-oriented design", "the aorta"). */
const ITEM_POS = new Set(["NOUN", "PROPN", "ADJ", "DET", "PUNCT"]);

/**
 * "The pillars are encapsulation, inheritance and modularity." → one claim per item ("The pillars
 * are encapsulation.", …): a list of three or more short noun phrases ("A, B and C", "A, B, or C")
 * states each item, as a reader labels it. Lists of names or values are split by slots; this
 * takes the lists of common words they leave.
 */
function splitList(clause: string, tokens: readonly EnglishToken[]): string[] | undefined {
  // Items: runs of item tags between commas, closed by "and"/"or" before the last one.
  const commas = tokens.map((t, i) => (t.text === "," ? i : -1)).filter((i) => i >= 0);
  if (commas.length < 1) return undefined;
  for (let c = 0; c < commas.length; c++) {
    const first = commas[c]!;
    // The first item: the tokens right before the first comma, back to a non-item tag.
    let start = first;
    while (start > 0 && ITEM_POS.has(tokens[start - 1]!.pos) && tokens[start - 1]!.text !== "," && first - start < 4) start--;
    const article = start;
    while (start < first && tokens[start]!.pos === "DET") start++;
    if (start === first) continue;
    const items: Array<{ from: number; to: number }> = [{ from: start, to: first }];
    let i = first + 1;
    let closed = false;
    while (i < tokens.length && !closed) {
      if (/^(?:and|or)$/i.test(tokens[i]!.text)) {
        i++;
        closed = true;
      }
      let j = i;
      // A determiner opens an item, never continues one ("… and business loans all cost more").
      while (j < tokens.length && ITEM_POS.has(tokens[j]!.pos) && !/^[,.;:!?]$/.test(tokens[j]!.text) && j - i < 4 && !(j > i && tokens[j]!.pos === "DET")) j++;
      if (j === i) break;
      items.push({ from: i, to: j });
      if (tokens[j]?.text === ",") i = j + 1;
      else if (!closed && /^(?:and|or)$/i.test(tokens[j]?.text ?? "")) i = j;
      else break;
    }
    if (!closed || items.length < 3) continue;
    const kinds = items.map((it) => tokens.slice(it.from, it.to).filter((t) => t.pos !== "DET" && t.pos !== "PUNCT"));
    // Names and values are the slots' to split; a list of them alone is left to them.
    // (The first item is judged by the others: its run back may have taken a verb the tagger read
    // as a noun, "It borders France, Spain and Italy".)
    if (kinds.slice(1).every((k) => k.every((t) => t.pos === "PROPN" || /^\p{Lu}/u.test(t.text)))) return undefined;
    const head = clause.slice(0, tokens[items[0]!.from]!.start);
    // An item with its own article takes the head without the first item's ("… are the crust, the mantle").
    const bare = clause.slice(0, tokens[article]!.start);
    const last = items[items.length - 1]!;
    const tail = last.to < tokens.length ? clause.slice(tokens[last.to - 1]!.end) : "";
    // A note after the list and a comma is said of the list as a whole ("Estonia, Latvia and
    // Lithuania, from north to south"): the items stand without it, and the note is a claim of its own.
    if (/^,\s+\p{Ll}/u.test(tail) && !/^,\s+(?:and|or|but|which|who)\b/u.test(tail)) {
      return [...items.map((it) => tidy(`${tokens[it.from]!.pos === "DET" ? bare : head}${clause.slice(tokens[it.from]!.start, tokens[it.to - 1]!.end)}`)), tidy(clause)];
    }
    return items.map((it) => tidy(`${tokens[it.from]!.pos === "DET" ? bare : head}${clause.slice(tokens[it.from]!.start, tokens[it.to - 1]!.end)}${tail}`));
  }
  return undefined;
}

/** A calculation or example with many numbers ("$1,000 at 10% becomes $1,100"): one claim, as a reader takes it. */
function isCalculation(clause: string, values: readonly TextValue[]): boolean {
  return values.length >= 3 || /\d\s*[=×*/+^]\s*\d|=\s*\p{L}+\(/u.test(clause);
}

function englishClaims(clause: string, depth = 0): string[] {
  const tokens = englishTokens(clause);
  if (depth < 2) {
    const parts = splitContrast(clause, tokens) ?? splitParticiple(clause, tokens) ?? splitList(clause, tokens) ?? splitVerbPhrases(clause, tokens) ?? splitGapped(clause, tokens);
    if (parts) return parts.flatMap((p) => englishClaims(p, depth + 1));
  }
  const values = findValues(clause);
  if (isCalculation(clause, values)) return [clause];
  const slots = englishSlots(clause, tokens, englishItems(tokens, values));
  // Slots without a preposition hold the verb's object or complement: the core of every claim.
  const core = slots.filter((s) => !s.preposition);
  const prepositional = slots.length - core.length;
  const facts = slots.reduce((n, s) => n + (s.preposition || s.items.length > 1 ? s.items.length : 0), 0);
  // Only an object or complement makes a claim of its own: an item in the subject ("The 2020
  // pandemic was caused by …") leaves a claim with nothing said ("The 2020 pandemic was caused.").
  const verb = firstMainVerb(tokens);
  const verbStart = verb < 0 ? 0 : tokens[verb]!.start;
  const coreItems = core.reduce((n, s) => n + (s.start >= verbStart ? s.items.length : 0), 0);
  if (facts <= 1 && !(facts === 1 && coreItems > 0 && prepositional > 0)) return [clause];
  // A note after a list and a comma is said of the list as a whole ("Estonia, Latvia and Lithuania,
  // from north to south"): the items stand without it, and the note is a claim of its own.
  const list = slots.find((s) => s.items.length > 1);
  if (list !== undefined && depth < 2) {
    const note = /^,\s+(?!(?:and|or|but|which|who|not)\b)\p{Ll}[^,;]*$/u.exec(clause.slice(list.end));
    if (note) return [...englishClaims(tidy(clause.slice(0, list.end + note.index) + "."), depth + 1), clause];
  }
  const claims: string[] = [];
  if (coreItems > 0 && prepositional > 0) claims.push(claimFor(clause, slots, core, -1));
  for (const slot of slots) {
    if (!slot.preposition && slot.items.length === 1) continue;
    for (let i = 0; i < slot.items.length; i++) claims.push(claimFor(clause, slots, [...core, slot], i, slot));
  }
  return [...new Set(claims)].filter((c) => /[\p{L}\p{N}]/u.test(c));
}

/** Korean count words before a counter ("다섯 개로"). */
const KOREAN_COUNT = /^(?:\d+|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|모두)$/u;

/** Whether a word before a comma is tied to its clause by a particle ("…에서,", "다섯 개로,"), not a list item. */
function tiedToClause(word: string, previous: string): boolean {
  return /(?:으로|에서|에게|에는|에도),$/u.test(word) || (/로,$/u.test(word) && KOREAN_COUNT.test(previous));
}

/** Korean: a list of three or more words joined by commas ("고구려, 백제, 신라이다") becomes one claim per item. */
function koreanList(words: ReadonlyArray<{ text: string }>): string[] | undefined {
  for (let i = 0; i < words.length; i++) {
    let j = i;
    // Items: words ending in a comma, not in a particle that ties them to the clause ("다섯 개로,").
    while (j < words.length && /^[\uAC00-\uD7A3\w·]+,$/u.test(words[j]!.text) && !tiedToClause(words[j]!.text, words[j - 1]?.text ?? "")) j++;
    if (j - i < 2 || j >= words.length) continue;
    // "화성, 지구, 금성, 수성, 이렇게 네 개가 …": the list ended at its last comma.
    const closedEarly = /^(?:이렇게|모두|총|전부|등|등등|다)$/u.test(words[j]!.text);
    if (closedEarly && j - i < 3) continue;
    // "…, 한글날, 그리고 현충일이": the last item may follow a conjunction.
    const last = closedEarly ? j - 1 : /^(?:그리고|및|또는)$/u.test(words[j]!.text) && j + 1 < words.length ? j + 1 : j;
    let before = words.slice(0, i).map((w) => w.text);
    const after = words.slice(closedEarly ? j : last + 1).map((w) => w.text);
    const items = closedEarly ? words.slice(i, j).map((w) => w.text.slice(0, -1)) : [...words.slice(i, j).map((w) => w.text.slice(0, -1)), words[last]!.text];
    // "국경일은 모두 다섯 개로, 3·1절, …": a clause before the list is a claim of its own, and the
    // items keep only its topic.
    const leadIn = i > 0 && words[i - 1]!.text.endsWith(",") ? tidy(before.join(" ").replace(/,$/, "")) : undefined;
    if (leadIn !== undefined) before = before.filter((w) => /[\uAC00-\uD7A3](?:은|는)$/u.test(w)).slice(0, 1);
    const claims = items.map((item) => tidy([...before, item, ...after].join(" ")));
    return leadIn !== undefined ? [leadIn, ...claims] : claims;
  }
  return undefined;
}

/**
 * Korean "A가 아니라 B": "주파수는 60Hz가 아니라 50Hz예요" → ["주파수는 50Hz예요", "주파수는 60Hz가 아니다"],
 * the claim and the denial, as "X, not Y" in English.
 */
function koreanContrast(words: ReadonlyArray<{ text: string }>): string[] | undefined {
  const k = words.findIndex((w, i) => i > 0 && /^아니(?:라|고)[,]?$/u.test(w.text));
  if (k < 1 || k + 1 >= words.length) return undefined;
  const denied = words[k - 1]!.text;
  const before = words.slice(0, k - 1).map((w) => w.text);
  const rest = words.slice(k + 1).map((w) => w.text);
  return [tidy([...before, ...rest].join(" ")), tidy([...before, denied, "아니다."].join(" "))];
}

/** A Korean word with a subject or topic particle (이론이, 경찰은). */
export const KOREAN_SUBJECT = /[\uAC00-\uD7A3](?:은|는|이|가)$/u;

/**
 * Korean gapping: "일반 상대성 이론이 1905년, 특수 상대성 이론이 1915년에 나왔다" → ["일반 상대성
 * 이론이 1905년 나왔다", "특수 상대성 이론이 1915년에 나왔다"]. Parts before the last, each a subject
 * and what goes with it but no verb, take the last part's verb (the words after its value or its
 * word with a place or object particle), so that each subject keeps its own value.
 */
function koreanGapped(words: ReadonlyArray<{ text: string }>): string[] | undefined {
  const parts: string[][] = [[]];
  for (const w of words) {
    parts[parts.length - 1]!.push(w.text.replace(/,$/u, ""));
    if (w.text.endsWith(",")) parts.push([]);
  }
  const last = parts[parts.length - 1]!;
  if (parts.length < 2) return undefined;
  const gapped = parts.slice(0, -1);
  // "도 1칸, 개 2칸, 걸 3칸이에요": short pairs of a thing and its number, the verb fused on the last.
  const pairs = parts.every((p) => p.length === 2 && /\d/.test(p[1]!) && !/\d/.test(p[0]!));
  if (pairs) return parts.map((p) => tidy(p.join(" ")));
  const hasSubject = (p: readonly string[]) => p.slice(0, -1).some((w) => KOREAN_SUBJECT.test(w));
  if (last.length < 3 || !gapped.every((p) => p.length >= 2 && hasSubject(p) && !/(?:다|요|죠|고|며)$/u.test(p[p.length - 1]!)) || !hasSubject(last)) return undefined;
  let slot = last.length - 1;
  while (slot >= 0 && !/\d|(?:으로|로|에서|에|을|를)$/u.test(last[slot]!)) slot--;
  if (slot < 1 || slot >= last.length - 1) return undefined;
  const verb = last.slice(slot + 1);
  return [...gapped.map((p) => tidy([...p, ...verb].join(" "))), tidy(last.join(" "))];
}

/** A Korean unit a rate is counted per: one night, person, time, day or hour ("1박", "1인당", "1회에"). */
const KOREAN_RATE_UNIT = /^(?:1|한)\s?(?:박|인|인당|회|일|시간|명|개)(?:에|당|에는)?$/u;

/** Korean: a clause with several values (or a value and a subject beside its topic) becomes one claim per item. */
function koreanClaims(clause: string): string[] {
  const words = [...clause.matchAll(/\S+/g)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
  const contrast = koreanContrast(words);
  if (contrast) return contrast.flatMap((c) => koreanClaims(c));
  const listed = koreanList(words) ?? koreanGapped(words);
  if (listed) return listed.flatMap((c) => koreanClaims(c));
  const values = findValues(clause);
  if (isCalculation(clause, values)) return [clause];
  const hasTopic = words.some((w) => /[\uAC00-\uD7A3](?:은|는)$/.test(w.text));
  // Each value (a date may span several words: 1945년 8월 15일) or subject beside a topic is one item.
  const items: Array<Array<(typeof words)[number]>> = [];
  for (const v of values) {
    const span = words.filter((w) => v.start < w.end && v.end > w.start);
    if (span.length === 0 || span[0] === words[0]) continue;
    // Two values in one word are one item ("460만~250만": a range).
    if (!items.some((g) => g.length === 1 && span.length === 1 && g[0] === span[0])) items.push(span);
  }
  words.forEach((w, i) => {
    if (i > 0 && i < words.length - 1 && hasTopic && /[\uAC00-\uD7A3]{2,}(?:이|가)$/.test(w.text) && !items.some((g) => g.includes(w))) items.push([w]);
  });
  items.sort((a, b) => a[0]!.start - b[0]!.start);
  // "1박 220유로", "1인당 3만 원": the unit a rate is counted per goes with the value that follows it.
  for (let k = items.length - 2; k >= 0; k--) {
    const [per, next] = [items[k]!, items[k + 1]!];
    if (per.length === 1 && KOREAN_RATE_UNIT.test(per[0]!.text) && words.indexOf(next[0]!) === words.indexOf(per[0]!) + 1) items.splice(k, 2, [...per, ...next]);
  }
  if (items.length <= 1) return [clause];
  const inItems = new Set(items.flat());
  return items.map((keep) => tidy(words.filter((w) => keep.includes(w) || !inItems.has(w)).map((w) => w.text).join(" ")));
}

/**
 * Splits one clause into atomic claims.
 *
 * @example
 * atomicClaims("Einstein was born in Spain in 1879.");
 * // → ["Einstein was born in Spain.", "Einstein was born in 1879."]
 * atomicClaims("Water boils at 100 °C, or 180 °F.");
 * // → ["Water boils at 100 °C.", "Water boils at 180 °F."]
 */
export function atomicClaims(clause: string): string[] {
  if (clause.length > 600) return [clause];
  return [...recentClaims.get(clause, (c) => [...new Set(HAS_HANGUL.test(c) ? koreanClaims(c) : englishClaims(c))])];
}

/** Claims of recently split clauses: answers often repeat sentences of their reference or of each other. */
const recentClaims = new Memo<readonly string[]>(12_500);
