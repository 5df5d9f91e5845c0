/**
 * Statement classification for the offline judge (Ragas-style answer
 * correctness): response statements become TP/FP, reference statements
 * covered/FN, each with a reason that names what matched or clashed.
 *
 * A statement is supported by the other side when every value it states
 * (number, date, quantity) and every name it gives is found there (or in the
 * question), at least 35% of its weighted content words are found there,
 * and nothing clashes: another value or name in the same slot, a negation on
 * one side only, an opposite word (rise/fall, red/blue), or a swap that keeps
 * every word of the other side (doers, values, modifiers or opposite verbs
 * exchanged between two things).
 */
import type { ClassificationReply, ReferenceVerdict, ResponseVerdict } from "../types";
import { swappedDoers, swappedModifiers } from "./agents";
import { analyzeStatement, expansionOf, withParts, type StatementAnalysis, type Term } from "./analyze";
import { englishTokens, type EnglishToken } from "./english";
import { HANGUL_WORD, quoteWords } from "./text";
import { hasOpposite, opposite, oppositeWords, RELATION_WORDS, synonymKey } from "./lexicon";
import { aliasHeld, buildPool, hasLowerWord, holds, isName, koreanCompounds, pool, statementsThatMayHold, type Pool } from "./pool";
import {
  anotherAnswer, anotherObject, clashingCount, exchangedPrepositions, crossedAttribute, crossedValue, deniedThere, headOfAnotherName, isPredicate, listRival, rivalNames, sharedCount, slotOf,
  statedValues, swappedObjects, swappedRoles, wordCounts,
} from "./rivals";
import { compareValues, type TextValue } from "./values";

/** Share of a statement's weighted content that the other side must hold. */
export const SUPPORT_THRESHOLD = 0.35;

/** Weight of a value (a number, date or quantity) in the support share. */
const VALUE_WEIGHT = 2;
/** Content found only in the question counts this much of its weight. */
const QUESTION_SHARE = 0.5;

/** Korean slots where another noun is another fact: subject, object, place, direction. */
const KOREAN_SLOTS: ReadonlySet<string> = new Set(["subject", "에", "에서", "로", "까지", "부터"]);

/** How one statement stands against the other side. */
interface Standing {
  verdict: "supported" | "clash" | "unsupported";
  reason: string;
  /** For a clash: the other side's statement it clashes with (0-based; -1 for no one statement). */
  against?: number;
}

/** "reference 2" for index 1 of the reference side, or "the reference" for no one statement (-1). */
function sideStatement(side: string, index: number): string {
  return index >= 0 ? `${side} ${index + 1}` : `the ${side}`;
}

function show(words: readonly string[]): string {
  // Once each: the words of an expanded abbreviation ("CEO") all carry its form.
  return quoteWords([...new Set(words)], 6);
}

/** The other side's statement that shares most weighted content with `a` (for reasons and negation checks). */
function closest(a: StatementAnalysis, others: readonly StatementAnalysis[]): { index: number; share: number } {
  let best = { index: -1, share: 0 };
  const values = statedValues(a);
  let total = values.length * VALUE_WEIGHT;
  for (const t of a.terms) total += t.weight;
  if (total === 0) return best;
  // Without values, only a statement that holds one of its terms can share anything with it.
  const order = values.length === 0 ? statementsThatMayHold(others, a.terms) : others.keys();
  for (const i of order) {
    const o = others[i]!;
    const p = pool([o]);
    let found = 0;
    for (const t of a.terms) if (holds(p, t)) found += t.weight;
    for (const v of values) if (o.values.some((w) => compareValues(v, w) === "same")) found += VALUE_WEIGHT;
    const share = found / total;
    // A tie goes to the statement about the same thing: the one that holds this one's first term.
    if (share > best.share || (share === best.share && share > 0 && a.terms.length > 0 && holds(p, a.terms[0]!) && !holds(pool([others[best.index]!]), a.terms[0]!))) best = { index: i, share };
  }
  return best;
}

/**
 * Whether two English terms were read as different parts of speech other than a verb (by their
 * weights): a noun against an adjective ("the final" against "the first cup"), an adverb against
 * an adjective ("first performed", for the first time, against "the last symphony").
 */
function nounAgainstAdjective(a: Term, b: Term): boolean {
  const english = !HANGUL_WORD.test(a.key) && !HANGUL_WORD.test(b.key);
  return english && a.weight !== b.weight && a.weight !== 0.75 && b.weight !== 0.75;
}

/** A word of the other side (as written) that is the opposite of `t`, and that this side lacks (not a noun against an adjective). */
function oppositeWord(t: Term, other: Pool, self: Pool): string | undefined {
  // (An opposite that is a content word there was weighed with what it is said of, above.)
  return oppositeWords(t.key).find((w) => hasLowerWord(other, w) && !hasLowerWord(self, w) && !other.terms.some((u) => u.key === w));
}

/**
 * Whether two values of two statements may measure the same thing: a value written as a
 * compound before its noun ("a 180-day period", "a 10-minute walk") measures that noun, and
 * another value measures it only where its statement names the noun too.
 */
function sameMeasured(v: TextValue, statement: StatementAnalysis, w: TextValue, other: StatementAnalysis | undefined): boolean {
  if (other === undefined) return true;
  const nounOf = (x: TextValue, text: string) => (/-\p{L}+$/u.test(x.text) ? /^\s+(\p{L}{3,})/u.exec(text.slice(x.end))?.[1]?.toLowerCase() : undefined);
  const names = (text: string, noun: string) => text.toLowerCase().includes(noun.slice(0, Math.max(4, noun.length - 2)));
  const mine = nounOf(v, statement.text);
  const theirs = nounOf(w, other.text);
  return (mine === undefined || names(other.text, mine)) && (theirs === undefined || names(statement.text, theirs));
}

/**
 * For a count of whole years ("ten years", "10년"), whether a list of values holds two years that
 * far apart; undefined for another value.
 */
function yearsApart(v: TextValue): ((values: readonly TextValue[]) => boolean) | undefined {
  if (v.dimension !== "duration-year" || !Number.isInteger(v.value)) return undefined;
  return (values) => {
    const years = values.flatMap((w) => (w.dimension === "year" && w.date?.year !== undefined ? [w.date.year] : []));
    return years.some((a) => years.some((b) => b - a === v.value));
  };
}

/**
 * Whether the other side names, by part of it, the name that `t` ends: a statement there holds
 * another word of that name, and every word of the name it gives is one of this name's.
 */
function shortNameThere(t: Term, statement: StatementAnalysis, other: Pool, self: Pool): boolean {
  // Not a common noun that ends a name and makes it another thing ("Ottawa River" is not "Ottawa").
  if (!englishTokens(statement.text).some((x) => x.pos === "PROPN" && x.text === t.form)) return false;
  const mates = statement.terms.filter((u) => u.group === t.group && u !== t);
  return other.analyses.some((a) =>
    a.terms.some((u) => u.entity && mates.some((m) => m.key === u.key) && a.terms.filter((x) => x.group !== "" && x.group === u.group).every((x) => holds(self, x))),
  );
}

/** The terms written as alternatives to `t` with a slash ("SSL/TLS", "TCP/IP" gives the other). */
function slashAlternatives(statement: StatementAnalysis, t: Term): Term[] {
  if (!statement.text.includes("/")) return [];
  let pairs = slashPairs.get(statement);
  if (pairs === undefined) {
    pairs = new Map();
    for (const m of statement.text.matchAll(SLASH_PAIR)) {
      const [a, b] = [m[1]!.toLowerCase(), m[2]!.toLowerCase()];
      pairs.set(a, [...(pairs.get(a) ?? []), b]);
      pairs.set(b, [...(pairs.get(b) ?? []), a]);
    }
    slashPairs.set(statement, pairs);
  }
  const others = pairs.get(t.form.toLowerCase());
  return others === undefined ? [] : statement.terms.filter((u) => u !== t && others.includes(u.form.toLowerCase()));
}

/** Two words joined by a slash ("SSL/TLS", "and/or"). */
const SLASH_PAIR = /(?<![\p{L}\p{N}])([\p{L}\p{N}]+)\s?\/\s?([\p{L}\p{N}]+)(?![\p{L}\p{N}])/gu;

/** The slash pairs of statements already read, each word with the words it alternates with. */
const slashPairs = new WeakMap<StatementAnalysis, Map<string, string[]>>();

/**
 * Whether a statement of `glosses` only equates a name with others that `other` all has ("Excel
 * is XLSX", from "Excel (XLSX)"; "Eric Blair is George Orwell"): the name is found there by
 * another of its names.
 */
function glossedThere(t: Term, glosses: Pool, other: Pool): boolean {
  return glosses.analyses.some((a) => {
    // Names only, on both sides ("Its closest relatives are Turkish and Kazakh" glosses nothing).
    if (a.values.length > 0 || a.negations.length > 0 || !a.terms.every((u) => u.entity)) return false;
    const subject = a.terms.filter((u) => u.role === "subject");
    const equated = a.terms.filter((u) => u.role === "be");
    if (subject.length === 0 || equated.length === 0 || subject.length + equated.length !== a.terms.length) return false;
    const named = (side: readonly Term[]) => side.some((u) => u.key === t.key);
    const gloss = named(subject) ? equated : named(equated) ? subject : [];
    return gloss.length > 0 && gloss.every((u) => holds(other, u) || aliasHeld(u, other));
  });
}

/**
 * One statement read against the other side, once it is supported on the face of it: what every
 * check of a contradiction reads.
 */
interface Reading {
  statement: StatementAnalysis;
  /** The other side's statements, and all of them pooled. */
  others: readonly StatementAnalysis[];
  other: Pool;
  /** This side's statements pooled, and this statement alone. */
  own: Pool;
  self: Pool;
  question: Pool;
  /** The other side's name in reasons ("reference"/"response"). */
  side: string;
  /** The statement's names, and the values it is checked by. */
  names: Term[];
  values: readonly TextValue[];
  /** Its values found on the other side, as reasons show them ("100 °C = 100 degrees Celsius"). */
  matched: string[];
  /** The other side's closest statement, found when first asked for. */
  nearest: () => { index: number; share: number };
  /** "reference 2", or "the reference" for no one statement. */
  ref: (index: number) => string;
  /** A clash with the other side's statement `index`, saying what clashes. */
  clash: (index: number, what: string) => Standing;
  /** Its Korean words written apart that the other side writes as one word ("국립 중앙 박물관"). */
  joined: ReadonlySet<Term>;
}

/** A check of one kind of contradiction: the standing it finds, or undefined. */
type Contradiction = (r: Reading) => Standing | undefined;

/**
 * Another item of a list: the other side says the same of several other things, and this
 * statement's one word it lacks is the item ("the fat-soluble vitamins are C" against "… are A",
 * "… are D", "… are E").
 */
const anotherListItem: Contradiction = ({ statement, others, other, question, side }) => {
  const item = listRival(statement, others, other, question);
  return item === undefined ? undefined : { verdict: "unsupported", reason: `the ${side} lists ${show(item.rivals)}, not ${show([item.term.form])}` };
};

/**
 * A swapped name: the statement that says the same of something else ("the largest desert is
 * Antarctica" against "the Sahara is the largest desert").
 */
const swappedName: Contradiction = ({ statement, others, other, own, self, question, names, clash }) => {
  if (names.length === 0) return undefined;
  const predicate = statement.terms.filter((t) => !names.includes(t));
  const weight = predicate.reduce((sum, t) => sum + t.weight, 0);
  let best = -1;
  let bestShare = 0;
  // Only a statement that holds one of its terms can share anything with it.
  for (const i of statementsThatMayHold(others, statement.terms)) {
    const p = pool([others[i]!]);
    const share = weight === 0 ? 0 : predicate.filter((t) => holds(p, t)).reduce((sum, t) => sum + t.weight, 0) / weight;
    const holdsNames = names.some((t) => holds(p, t));
    if (share > bestShare || (share === bestShare && share > 0 && holdsNames)) {
      best = i;
      bestShare = share;
    }
  }
  if (best < 0 || bestShare < 0.6 || predicate.length < 2) return undefined;
  const o = others[best]!;
  const there = pool([o]);
  // The same thing said of another name has its verb ("confirmed by the Senate" says nothing of
  // what "put forward by the President" says, though both are of a justice).
  const verbs = predicate.filter(isPredicate);
  if (verbs.length > 0 && !verbs.some((t) => holds(there, t))) return undefined;
  // The names this statement gives that the statement saying the same of something lacks
  // ("Argentina won the first World Cup" against "Uruguay won the first FIFA World Cup").
  // (A name either side glosses with one that statement has is not absent: "Excel (XLSX)" against "… XLSX files".)
  const absent = names.filter((t) => !holds(there, t) && !aliasHeld(t, there) && !glossedThere(t, own, there) && !glossedThere(t, other, there));
  if (absent.length === 0) return undefined;
  // A bare item of a list there ("The Indian Ocean.", of "The Pacific. The Atlantic. The Indian
  // Ocean.") names one of several, and another item names this one.
  if (absent.every((t) => holds(other, t)) && !englishTokens(o.text).some((x) => x.pos === "VERB" || x.pos === "AUX")) return undefined;
  const rival = rivalNames(o, new Set(absent.map((t) => slotOf(t.role))), self, question);
  if (rival.length === 0 || deniedThere(statement, o)) return undefined;
  return clash(best, `${show(absent.map((t) => t.form))} where it names ${show(rival.map((t) => t.form))}`);
};

/**
 * Another thing said to do the same: the statement's subject is words that neither the question
 * nor the other side has, and the other side's statement that says the rest of it has a subject
 * of its own that this one lacks ("The liver filters blood to make urine" against "The kidneys
 * filter blood to make urine"; "The defendant carries the burden of proof" against "The
 * prosecution carries …"; "The ribosome is the powerhouse of the cell" against "The mitochondria
 * are …"). A bare answer ("The liver.") says the question's rest. Names are {@link swappedName}'s.
 */
const swappedSubject: Contradiction = ({ statement, others, other, self, question, clash }) => {
  const subject = leadingTerms(statement, question);
  if (subject.length === 0 || subject.some((t) => t.entity || holds(other, t) || aliasHeld(t, other))) return undefined;
  const rest = statement.terms.slice(subject.length);
  // A bare answer has no verb ("The WHERE clause."); "The smallest prime is 2" has only its value after one.
  const bare = rest.length === 0 && statement.values.length === 0 && !englishTokens(statement.text).some((t) => t.pos === "VERB" || t.pos === "AUX");
  if (!bare && rest.length < 2) return undefined;
  const weight = rest.reduce((sum, t) => sum + t.weight, 0);
  for (const i of statementsThatMayHold(others, bare ? statement.terms : rest)) {
    const o = others[i]!;
    const p = pool([o]);
    const theirs = leadingTerms(o, question);
    // Both ways: the other statement says no more than this one of its own subject.
    const theirRest = o.terms.slice(theirs.length);
    const theirWeight = theirRest.reduce((sum, u) => sum + u.weight, 0);
    const said = bare
      ? o.terms.some((u) => holds(question, u))
      : rest.filter((t) => holds(p, t)).reduce((sum, t) => sum + t.weight, 0) / weight >= 0.75 && theirWeight > 0 && theirRest.filter((u) => holds(self, u)).reduce((sum, u) => sum + u.weight, 0) / theirWeight >= 0.6;
    if (!said) continue;
    // A noun (not an adjective before one: "Higher interest rates …" names no rival of "a central bank").
    const rival = theirs.filter((u) => u.weight >= 1.5 && !u.entity && !holds(self, u));
    if (rival.length === 0 || deniedThere(statement, o)) continue;
    return clash(i, `${show(subject.map((t) => t.form))} where it says ${show(rival.map((t) => t.form))}`);
  }
  return undefined;
};

/**
 * A statement's subject as far as the terms tell it: its leading subject terms up to the first
 * the question holds (a tagger may read "filters" in "The liver filters blood" as a noun).
 */
function leadingTerms(statement: StatementAnalysis, question: Pool): Term[] {
  const out: Term[] = [];
  for (const t of statement.terms) {
    if (t.role !== "subject" || holds(question, t)) break;
    out.push(t);
  }
  return out;
}

/** A comparison's two sides and the word that compares: "Ice is denser than water" → denser, {ice}, {water}. */
function comparison(statement: StatementAnalysis): Comparison | undefined {
  if (comparisons.has(statement)) return comparisons.get(statement);
  const found = readComparison(statement.text);
  comparisons.set(statement, found);
  return found;
}

/** A comparison read from a statement: its comparing word and the terms on either side of "than". */
interface Comparison {
  word: string;
  before: Set<string>;
  after: Set<string>;
  /** The quality compared and which way, as written: "denser" and "more dense" → dens, up; "less dense" → dens, down. */
  degree?: Degree;
}

/**
 * A quality written as a comparative reduced to one key for its plain form and its "-er" form:
 * "dense"/"denser" → "dens", "heavy"/"heavier" → "heavi", "big"/"bigger" → "big".
 */
function qualityKey(word: string): string {
  return word.toLowerCase().replace(/e$/u, "").replace(/y$/u, "i").replace(/([^aeiou])\1$/u, "$1");
}

/** A quality compared, which way, and the words that say so. */
interface Degree {
  quality: string;
  up: boolean;
  text: string;
}

/** Words ending in "-er" that compare nothing ("other than", "never"). */
const NOT_COMPARATIVE = /^(?:never|ever|other|rather|together|however|whether|over|under|after|proper|former|latter|either|neither|per)$/u;

/** The quality a comparing word compares and which way, with the word after it ("less dense"). */
function degreeOf(compared: EnglishToken, next: EnglishToken | undefined): Degree | undefined {
  const word = compared.text.toLowerCase();
  if (word === "more" || word === "less") {
    if (next === undefined || (next.pos !== "ADJ" && next.pos !== "ADV")) return undefined;
    return { quality: qualityKey(next.lemma), up: word === "more", text: `${compared.text} ${next.text}` };
  }
  if (word === "better" || word === "worse") return { quality: "good", up: word === "better", text: compared.text };
  if (word === "fewer" || NOT_COMPARATIVE.test(word)) return undefined;
  return { quality: qualityKey(word.slice(0, -2)), up: true, text: compared.text };
}

/** Comparisons already read, by statement: a statement of the other side is read once for all of this side's. */
const comparisons = new WeakMap<StatementAnalysis, Comparison | undefined>();

function readComparison(text: string): Comparison | undefined {
  const m = /^(.*?)\bthan\b(.*)$/isu.exec(text);
  if (m === null) return undefined;
  // The comparing word: the last comparative before "than" ("faster" in "faster in air than …").
  const tokens = englishTokens(m[1]!);
  const comparative = (t: EnglishToken) => /^(?:more|less|fewer|better|worse|\p{L}{2,}er)$/iu.test(t.text);
  // A tagger may call "denser" a noun: after "is" (or "is about 9%") it is the comparison all the
  // same (not "water" in "in water than").
  const afterVerb = (i: number): boolean => {
    let j = i - 1;
    while (j > 0 && (tokens[j]!.pos === "NUM" || tokens[j]!.pos === "SYM" || tokens[j]!.pos === "ADV")) j--;
    return j >= 0 && j < i && tokens[j]!.pos === "AUX";
  };
  const compared = tokens.filter((t) => (t.pos === "ADJ" || t.pos === "ADV") && comparative(t)).pop() ?? tokens.find((t, i) => i > 0 && afterVerb(i) && comparative(t));
  if (compared === undefined) return undefined;
  const word = compared.text.toLowerCase();
  const keys = (text: string) => new Set(analyzeStatement(text).terms.map((t) => synonymKey(t.key)).filter((k) => k !== word && k !== synonymKey(word)));
  const before = keys(m[1]!);
  const after = keys(m[2]!);
  if (before.size === 0 || after.size === 0) return undefined;
  const degree = degreeOf(compared, tokens[tokens.indexOf(compared) + 1]);
  // The quality's own word is no term of either side ("dense" in "less dense than").
  if (degree !== undefined) {
    for (const side of [before, after]) for (const k of [...side]) if (qualityKey(k) === degree.quality) side.delete(k);
  }
  return degree === undefined ? { word, before, after } : { word, before, after, degree };
}

/**
 * The same comparison the other way round: "Ice is denser than water" against "Water is denser than
 * ice", "… imports more than it exports" against "… exports more than it imports" (the same
 * comparing word; with opposite words, "faster" against "slower", the two agree).
 */
const comparisonReversed: Contradiction = ({ statement, others, clash }) => {
  const mine = comparison(statement);
  if (mine === undefined) return undefined;
  for (const [i, o] of others.entries()) {
    const theirs = comparison(o);
    if (theirs === undefined || theirs.word !== mine.word) continue;
    const moved = [...mine.after].filter((k) => theirs.before.has(k) && !theirs.after.has(k) && !mine.before.has(k));
    const movedBack = [...mine.before].filter((k) => theirs.after.has(k) && !theirs.before.has(k) && !mine.after.has(k));
    if (moved.length > 0 && movedBack.length > 0) {
      return clash(i, `it compares the other way ("${movedBack[0]}" ${mine.word} than "${moved[0]}")`);
    }
  }
  return undefined;
};

/**
 * The same quality compared the other way: "ice is denser than water" against "ice is less dense
 * than water" (or "water is denser than ice" against "ice is more dense than water"). The two
 * sides of "than" tell which way round each says it: the same way round with opposite degrees, or
 * the other way round with the same degree, is a clash; "water is denser than ice" and "ice is
 * less dense than water" agree.
 */
const degreeReversed: Contradiction = ({ statement, others, clash }) => {
  const mine = comparison(statement);
  if (mine?.degree === undefined) return undefined;
  const meets = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].some((k) => b.has(k));
  for (const [i, o] of others.entries()) {
    const theirs = comparison(o);
    if (theirs?.degree === undefined || theirs.degree.quality !== mine.degree.quality) continue;
    const same = meets(mine.before, theirs.before) && meets(mine.after, theirs.after);
    const crossed = meets(mine.before, theirs.after) && meets(mine.after, theirs.before);
    if (same === crossed) continue;
    const agree = (theirs.degree.up === mine.degree.up) === same;
    if (!agree) return clash(i, `"${mine.degree.text}" where it says "${theirs.degree.text}"${same ? "" : " the other way round"}`);
  }
  return undefined;
};

/** Opposites: "rises" against "falls", "red" against "blue". */
const oppositeWordSaid: Contradiction = ({ statement, others, other, self, nearest, clash }) => {
  // The opposite must be said of the same thing: its statement shares a word with this one besides
  // the two ("raises interest rates" is no clash with "lowers overall demand").
  const about = (o: StatementAnalysis, t: Term, rivals: readonly Term[]): boolean => {
    // Not of two named things that differ ("cold" of Antarctica, "hot" of the Sahara).
    const there = pool([o]);
    const named = statement.terms.filter((x) => x.entity && x !== t);
    if (named.length > 0 && o.terms.some((u) => u.entity) && !named.some((x) => holds(there, x))) return false;
    if (o.terms.length <= 2 || statement.values.some((v) => o.values.some((w) => compareValues(v, w) === "same"))) return true;
    // Opposite verbs that both act on something must act on the same thing ("gills absorb oxygen"
    // is no clash with "gills release carbon dioxide"; "the crew perished" is with "… survived").
    const acted = (a: StatementAnalysis) => a.terms.filter((x) => x.role !== "subject" && x.role !== "" && x.weight >= 1);
    const onThings = t.weight < 1 && !HANGUL_WORD.test(t.key) && acted(statement).length > 0 && acted(o).length > 0;
    return rivals.some((u) => statement.terms.some((x) => x !== t && x.key !== u.key && !(onThings && x.role === "subject") && holds(there, x)));
  };
  for (const t of statement.terms) {
    if (!hasOpposite(t.key)) continue;
    if (holds(other, t)) {
      // Said there too, but of something else: the statement that says the rest of this one says
      // the opposite ("condenses in coils inside the fridge" against "evaporates in coils inside the
      // fridge", where the other side has it condense at the back).
      const near = nearest();
      const o = near.index < 0 ? undefined : others[near.index]!;
      if (o === undefined || holds(pool([o]), t)) continue;
      const rival = o.terms.find((u) => opposite(t.key, u.key) && !holds(self, u) && !nounAgainstAdjective(t, u));
      if (rival !== undefined && termShare(statement.terms.filter((x) => x !== t), o) >= 0.75) return clash(near.index, `"${t.form}" where it says "${rival.form}"`);
      continue;
    }
    // "the final" (a match) is no opposite of "the first" (cup): a noun against an adjective is two senses.
    for (const [j, o] of others.entries()) {
      const rivals = o.terms.filter((u) => opposite(t.key, u.key) && !holds(self, u) && !nounAgainstAdjective(t, u));
      if (rivals.length > 0 && about(o, t, rivals)) return clash(j, `"${t.form}" where it says "${rivals[0]!.form}"`);
    }
    // Function words with a meaning ("only" against "both … and").
    const word = oppositeWord(t, other, self);
    if (word) {
      const j = others.findIndex((o) => o.lowerWords.includes(word));
      return clash(j, `"${t.form}" where it says "${word}"`);
    }
  }
  return undefined;
};

/**
 * Opposite relations: the same thing "above" the pump here and "below" it there, "before" the war
 * and "after" it, carried "to" the heart and "away from" it. Said of the statement's subject when
 * it has one: "Veins carry blood to the heart" is no clash with "Arteries carry blood away from
 * the heart".
 */
const oppositeRelation: Contradiction = ({ statement, others, other, clash }) => {
  const subject = statement.terms.find((t) => t.role === "subject");
  // The terms of the other side's statements about the same subject, found when first needed.
  let aboutIt: readonly Term[] | undefined;
  for (const t of statement.terms) {
    if (!RELATION_WORDS.has(t.role) || t === subject) continue;
    const key = synonymKey(t.key);
    aboutIt ??= subject === undefined ? other.terms : others.filter((o) => holds(pool([o]), subject)).flatMap((o) => o.terms);
    const there = aboutIt.filter((u) => synonymKey(u.key) === key);
    if (there.length === 0 || !there.every((u) => opposite(t.role, u.role))) continue;
    const j = others.findIndex((o) => o.terms.includes(there[0]!));
    return clash(j, `"${t.role}" where it says "${there[0]!.role}" (of "${t.form}")`);
  }
  return undefined;
};

/** Korean slots: another noun with the same particle in a statement about the same thing. */
const koreanSlotTaken: Contradiction = ({ statement, others, self, question, nearest, clash }) => {
  const korean = statement.terms.some((t) => KOREAN_SLOTS.has(t.role) && HANGUL_WORD.test(t.key));
  const near = korean ? nearest() : { index: -1, share: 0 };
  if (near.index < 0 || near.share <= 0) return undefined;
  // The nearest statement, then any other that shares two things with this one (the same value
  // and subject: "중성자가 8개" against "양성자가 8개").
  const candidates = [near.index, ...others.map((_, i) => i).filter((i) => i !== near.index && sharedCount(statement, others[i]!) >= 2)];
  for (const index of candidates) {
    const o = others[index]!;
    const oPool = pool([o]);
    for (const t of statement.terms) {
      if (!KOREAN_SLOTS.has(t.role) || !HANGUL_WORD.test(t.key) || holds(oPool, t) || holds(question, t)) continue;
      const rival = o.terms.find((u) => u.role === t.role && HANGUL_WORD.test(u.key) && !holds(self, u) && !holds(question, u));
      // Two words for one thing that both sides name the same way ("루브르 미술관" and "루브르 박물관").
      const named = rival && wordBefore(statement.text, t.form);
      if (rival && !(named !== undefined && named === wordBefore(o.text, rival.form))) return clash(index, `"${t.form}" where it says "${rival.form}"`);
    }
  }
  return undefined;
};

/**
 * Another name as the topic (은/는) of a statement that says the same of it, word for word:
 * "부산은 한국의 수도이다" against "서울은 한국의 수도이다", "태종은 한글을 만들었다" against
 * "세종대왕은 한글을 만들었다"; and another noun before the copula ("고래는 어류이다" against
 * "고래는 포유류이다"). Only a statement whose every other word is found in the other
 * (and the other's in it) counts: Korean puts many things as the topic ("경찰은 112" against
 * "경찰 신고 번호는 112번"), and only the same sentence about another thing is a clash. Never
 * when another statement there says this one word for word: a list of the same thing said of
 * several ("고래는 포유류이다. 박쥐는 포유류이다.") holds each of them.
 */
const koreanTopicTaken: Contradiction = ({ statement, others, self, question, clash }) => {
  if (others.some((o) => statement.terms.every((t) => holds(pool([o]), t)))) return undefined;
  for (const slot of [isKoreanTopic, isKoreanCopula]) {
    const mine = statement.terms.filter(slot);
    if (mine.length !== 1) continue;
    const word = mine[0]!;
    const rest = statement.terms.filter((t) => t !== word);
    if (rest.length === 0 || holds(question, word)) continue;
    for (let i = 0; i < others.length; i++) {
      const o = others[i]!;
      const theirs = o.terms.filter(slot);
      if (theirs.length !== 1) continue;
      const rival = theirs[0]!;
      const oPool = pool([o]);
      if (holds(oPool, word) || holds(self, rival) || holds(question, rival)) continue;
      const oRest = o.terms.filter((u) => u !== rival);
      if (oRest.length !== rest.length || !rest.every((t) => holds(oPool, t)) || !oRest.every((u) => holds(self, u))) continue;
      return clash(i, `"${word.form}" where it says "${rival.form}"`);
    }
  }
  return undefined;
};

/** A Korean noun as the topic (은/는). */
function isKoreanTopic(t: Term): boolean {
  return t.role === "topic" && HANGUL_WORD.test(t.key);
}

/** A Korean noun of two letters or more with the copula after it: "포유류이다", "수도입니다". */
function isKoreanCopula(t: Term): boolean {
  return t.role === "" && t.key.length >= 2 && HANGUL_WORD.test(t.key) && KOREAN_COPULA.test(t.form) && t.form.startsWith(t.key);
}

const KOREAN_COPULA = /(?:이다|입니다|이에요|예요|였다|이었다|였습니다|이었습니다)[.!]?$/u;

/**
 * The bare Hangul word (two letters or more, no particle or ending after it) written right before
 * `form` in `text`: a name that modifies it ("루브르" of "루브르 미술관"), if any.
 */
function wordBefore(text: string, form: string): string | undefined {
  const at = text.indexOf(form);
  const word = at > 0 ? /([\uAC00-\uD7A3]{2,})\s+$/u.exec(text.slice(0, at))?.[1] : undefined;
  return word === undefined || /(?:이|가|은|는|을|를|의|에|로|와|과|도|만|고|며|서|면|게|지|니다|어요|아요)$/u.test(word) ? undefined : word;
}

/** The same two things in each other's roles: "이세돌 9단이 알파고를 꺾었다" against "알파고가 이세돌 9단을 이겼다". */
const rolesSwapped: Contradiction = ({ statement, others, clash }) => {
  const swap = swappedRoles(statement, others);
  return swap === undefined ? undefined : clash(swap.index, `"${swap.a}" and "${swap.b}" in each other's roles`);
};

/** Two things in each other's prepositions ("from the cathode to the anode" against the reverse). */
const prepositionsExchanged: Contradiction = ({ statement, others, clash }) => {
  const swap = exchangedPrepositions(statement, others);
  return swap === undefined ? undefined : clash(swap.index, `"${swap.a}" and "${swap.b}" in each other's places`);
};

/** Two things given each other's verbs ("take in oxygen … give off carbon dioxide" against the reverse). */
const objectsSwapped: Contradiction = ({ statement, others, own, question, clash }) => {
  const swap = swappedObjects(statement, others, own.analyses, question);
  return swap === undefined ? undefined : clash(swap.index, `"${swap.mine}" where it says "${swap.theirs}"`);
};

/** Two doers swapped between two verbs ("nominated by the Senate … the President confirms" against the reverse). */
const doersSwapped: Contradiction = ({ statement, others, own, clash }) => {
  const swap = swappedDoers(statement, own.analyses, others);
  return swap === undefined ? undefined : clash(swap.index, `"${swap.mine}" does it where it says "${swap.theirs}"`);
};

/** Modifiers swapped between two phrases of one noun ("a solid outer core and a liquid inner core" against the reverse). */
const modifiersSwapped: Contradiction = ({ statement, others, clash }) => {
  const swap = swappedModifiers(statement, others);
  return swap === undefined ? undefined : clash(swap.index, `"${swap.mine}" where it says "${swap.theirs}"`);
};

/** Another object of the same verb, one the other side never mentions ("Bees collect pollen" against "Bees collect nectar"). */
const objectReplaced: Contradiction = ({ statement, others, other, question, clash }) => {
  const replaced = anotherObject(statement, others, other, question);
  return replaced === undefined ? undefined : clash(replaced.index, `"${replaced.mine}" where it says "${replaced.theirs}"`);
};

/** Another answer to the question, equated the other way round ("The hardest is corundum" against "Diamond is the hardest mineral"). */
const answerReplaced: Contradiction = ({ statement, others, other, question, clash }) => {
  const replaced = anotherAnswer(statement, others, other, question);
  return replaced === undefined ? undefined : clash(replaced.index, `"${replaced.mine}" where it says "${replaced.theirs}"`);
};

/** A value given to the wrong one of two parallel things: "경찰은 119" where the reference gives 119 to 화재 and 112 to 경찰. */
const valueCrossed: Contradiction = ({ statement, others, clash }) => {
  const swapped = crossedValue(statement, others);
  return swapped === undefined ? undefined : clash(swapped.index, `it gives ${swapped.theirs} for "${swapped.term}", not ${swapped.value}`);
};

/**
 * An answer's statement that takes its subject from one statement of the reference and its
 * attribute from another: "Northern … clockwise" against "Northern … counterclockwise" and
 * "Southern … clockwise". (Not for coverage: an answer may say a reference fact in other words.)
 * For coverage, only a two-way cross: the word the response says in its place is the reference's
 * too, said of something else ("oxidation … anode" against "oxidation … cathode, reduction …
 * anode"). One way only, it is as often the response's own wording ("traffic" for "cars").
 */
const attributeCrossed: Contradiction = ({ statement, others, other, own, question, side, nearest, clash }) => {
  const crossed = statement.negations.length === 0 ? crossedAttribute(statement, others, other, nearest().index) : undefined;
  if (crossed === undefined || !(side === "reference" || (holds(own, crossed.theirsTerm) && !holds(question, crossed.theirsTerm)))) return undefined;
  // A subject the question asks about is no attribute of one statement ("The theorem was proved
  // …" against "the completed proof …", asked about Fermat's Last Theorem and its proof; not the
  // options a question offers, "수컷" in "암컷인가요, 수컷인가요?").
  if (crossed.mineTerm.role === "subject" && holds(question, crossed.mineTerm)) return undefined;
  // Two names of one thing, set side by side on either side: "the boy was protected" against "…
  // protected James Phipps", where one of them says "the boy James Phipps".
  if (apposed(crossed.mine, crossed.theirs, own) || apposed(crossed.mine, crossed.theirs, other)) return undefined;
  // A statement of the other side whose things (its nouns and names) another statement of this one
  // says is that one's, not this one's crossed: "a justice is put forward by the President" is
  // "each justice is nominated by the President", not "each justice must be confirmed by the
  // Senate" with another name.
  const theirs = others[crossed.index]!;
  const said = theirs.terms.filter((u) => u.weight >= 1);
  if (own.analyses.some((a) => a !== statement && said.every((u) => holds(pool([a]), u)))) return undefined;
  return clash(crossed.index, `"${crossed.mine}" where it says "${crossed.theirs}"`);
};

/** The weighted share of a statement's terms (not its values) that another statement holds. */
function termShare(terms: readonly Term[], o: StatementAnalysis): number {
  const there = pool([o]);
  let total = 0;
  let found = 0;
  for (const t of terms) {
    total += t.weight;
    if (holds(there, t)) found += t.weight;
  }
  return total === 0 ? 0 : found / total;
}

/**
 * A value that the other side gives, but in another statement than the one that says the rest:
 * "the train when the journey takes two hours or less" against "… four hours or less" and "first
 * class on journeys over two hours" (the two limits swapped). The statement that says the same
 * things gives another value of the kind; the one that gives this value says much less of it.
 */
const valueOfAnother: Contradiction = ({ statement, others, values, clash }) => {
  if (values.length === 0 || others.length < 2 || statement.terms.length < 3) return undefined;
  for (const v of values) {
    const same: number[] = [];
    const different = new Map<number, TextValue>();
    others.forEach((o, i) => {
      for (const w of o.values) {
        const c = compareValues(v, w);
        if (c === "same") return void same.push(i);
        // (Not a value this statement gives too: "the $10 drop is one fifth of $50" against "fell by $10".)
        if (c === "different" && sameMeasured(v, statement, w, o) && !different.has(i) && !values.some((x) => compareValues(x, w) === "same")) different.set(i, w);
      }
    });
    if (same.length === 0 || different.size === 0) continue;
    let best = -1;
    let bestShare = 0;
    for (const i of different.keys()) {
      const share = termShare(statement.terms, others[i]!);
      if (share > bestShare) [best, bestShare] = [i, share];
    }
    const sameShare = Math.max(...same.map((i) => termShare(statement.terms, others[i]!)));
    if (best >= 0 && bestShare >= 0.6 && bestShare - sameShare >= 0.3) return clash(best, `${v.text} where it says ${different.get(best)!.text}`);
  }
  return undefined;
};

/** Whether a statement of `side` writes `a` and `b` side by side, as an apposition ("a young boy, James Phipps"). */
function apposed(a: string, b: string, side: Pool): boolean {
  const escape = (w: string): string => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escape(a)},?\\s+${escape(b)}|${escape(b)},?\\s+${escape(a)})(?![\\p{L}\\p{N}])`, "iu");
  return side.analyses.some((x) => pattern.test(x.text));
}

/** Negation on one side only, between statements about the same thing. */
const negatedOnOneSide: Contradiction = ({ statement, others, values, nearest, ref, clash }) => {
  const negated = statement.negations.length > 0;
  const aligned = nearest();
  // One word or value is enough when the statement of the other side holds all of it and is a denial of it, or it is the
  // denial ("It is not in Nepal." against "It is in Nepal."); not a bare word against a denial of more ("const" against
  // "… cannot be reassigned").
  if (aligned.index < 0 || aligned.share < SUPPORT_THRESHOLD) return undefined;
  const o = others[aligned.index]!;
  if (statement.terms.length + values.length < 2 && !(aligned.share >= 1 && (negated || o.terms.length + o.values.length < 2))) return undefined;
  // A clash unless a statement of the same polarity matches as well. (A denial of something else
  // there is no denial of this: "must be escorted … and may not enter the loading bays" affirms the
  // escort that "do not need to be escorted" denies.)
  const negatedThere = o.negations.length > 0 && denies(o, statement);
  if (negated === negatedThere || closest(statement, others.filter((x) => (x.negations.length > 0) === negated)).share > aligned.share) return undefined;
  const who = (index: number) => clash(index, negated ? "this statement negates it" : `${ref(index)} negates it`);
  if (denies(negated ? statement : o, negated ? o : statement)) return who(aligned.index);
  // The closest statement says something else of the same thing ("Glass is an amorphous solid"
  // against "glass … does not flow"); another that this one denies is a clash all the same
  // ("Type 1 diabetes isn't caused by the immune system" against "the immune system attacks …").
  if (!negated) return undefined;
  const denied = others.findIndex((x, i) => i !== aligned.index && x.negations.length === 0 && denies(statement, x) && closest(statement, [x]).share >= SUPPORT_THRESHOLD);
  return denied < 0 ? undefined : who(denied);
};

/**
 * Whether a negated statement denies what another says: the words its negations govern (the rest
 * of their clauses) are said there; a negation of the whole statement always does.
 */
function denies(negated: StatementAnalysis, affirming: StatementAnalysis): boolean {
  const scope = negated.denied;
  if (scope === undefined) return true;
  const there = pool([affirming]);
  return negated.terms.some((t) => scope.includes(t.key) && holds(there, t));
}

/**
 * An answer's statement must have something of what it says of its first term (its subject, as
 * a rule) found in the reference too: "Cats can fly" is not supported by "Cats have four legs",
 * though "cats" is most of its weight. (Coverage of a reference statement stays lenient: an
 * answer that names "Apollo 11" covers "during the Apollo 11 mission".)
 */
const nothingSaidOfSubject: Contradiction = ({ statement, others, other, question, side, matched, joined }) => {
  if (side !== "reference" || matched.length > 0) return undefined;
  // (A Korean compound written apart is one thing: "국립 중앙 박물관" says nothing of "국립".)
  const first = statement.terms[0]!;
  const said = statement.terms.slice(1).filter((t) => !holds(question, t) && !(joined.has(t) && joined.has(first)));
  // The rest of the subject's own name says nothing of it: "Michelangelo Buonarroti painted it", where
  // the question asks who painted (a verb it says; not a table row "Fe | Copper", read as one name).
  const ownName = (t: Term) => first.entity && t.entity && t.group !== "" && t.group === first.group;
  if (said.every(ownName) && statement.terms.some(isPredicate)) return undefined;
  // An English verb alone is paraphrased freely ("hosted" for "held in") where one statement of
  // the other side holds two of the things this one relates ("Africa", "Olympics"); not where it
  // holds the subject alone ("Cats can fly" against "Cats have four legs").
  const related = (): boolean => others.some((o) => statement.terms.filter((t) => !isPredicate(t) && holds(pool([o]), t)).length >= 2);
  const verbsOnly = said.every((t) => !HANGUL_WORD.test(t.key) && isPredicate(t));
  if (said.length === 0 || (verbsOnly && related()) || said.some((t) => holds(other, t) || aliasHeld(t, other))) return undefined;
  return { verdict: "unsupported", reason: `the ${side} never says ${show(said.map((t) => t.form))} of ${first.form}` };
};

/** What would contradict a statement supported on the face of it, in the order they are checked: the first found decides. */
const CONTRADICTIONS: readonly Contradiction[] = [
  anotherListItem,
  swappedName,
  swappedSubject,
  comparisonReversed,
  degreeReversed,
  oppositeWordSaid,
  oppositeRelation,
  koreanSlotTaken,
  rolesSwapped,
  prepositionsExchanged,
  objectsSwapped,
  doersSwapped,
  modifiersSwapped,
  objectReplaced,
  answerReplaced,
  valueCrossed,
  valueOfAnother,
  attributeCrossed,
  koreanTopicTaken,
  negatedOnOneSide,
  nothingSaidOfSubject,
];

/**
 * Judges one statement against the statements of the other side and the
 * question: supported on the face of it (its values and names found, enough
 * of its content), then not contradicted ({@link CONTRADICTIONS}). `side`
 * names the other side in reasons ("reference"/"response").
 */
function stand(statement: StatementAnalysis, others: readonly StatementAnalysis[], other: Pool, own: Pool, question: Pool, side: string): Standing {
  const self = pool([statement]);
  // The other side's closest statement, found only when a check needs it.
  let closestFound: { index: number; share: number } | undefined;
  const nearest = (): { index: number; share: number } => (closestFound ??= closest(statement, others));
  const ref = (index: number) => sideStatement(side, index);
  const clash = (index: number, what: string): Standing => ({ verdict: "clash", reason: `clashes with ${ref(index)}: ${what}`, against: index });

  if (statement.refusal) return { verdict: "unsupported", reason: "a refusal or \"I don't know\" supports nothing" };
  // "not the liver", cut from "The skin, not the liver": another answer to the question denied. The
  // other side, which answers it with something else and never names this, says as much.
  if (/^not\s/iu.test(statement.text) && statement.values.length === 0 && statement.terms.length > 0 && statement.terms.every((t) => !holds(other, t) && !holds(question, t))) {
    const j = others.findIndex((o) => o.terms.some((t) => holds(question, t)));
    if (j >= 0) return { verdict: "supported", reason: `consistent with ${ref(j)}: it gives another answer, not ${show(statement.terms.map((t) => t.form))}` };
  }
  // A bare count is all a fragment says ("Four."), so it is checked like any value.
  const stated = statedValues(statement);
  const values = statement.terms.length === 0 && stated.length === 0 ? wordCounts(statement) : stated;
  if (statement.terms.length === 0 && values.length === 0) {
    return { verdict: "unsupported", reason: "the statement has no content to check" };
  }
  const count = clashingCount(statement, others);
  if (count !== undefined) {
    return clash(count.index, `${count.mine.text} where it says ${count.theirs.text}`);
  }

  // Values: each must be found on the other side (or be given by the question).
  let total = 0;
  let found = 0;
  let foundOnOtherSide = 0;
  const matched: string[] = [];
  for (const v of values) {
    const same = other.values.find((w) => compareValues(v, w) === "same");
    if (same) {
      total += VALUE_WEIGHT;
      found += VALUE_WEIGHT;
      foundOnOtherSide++;
      matched.push(v.text === same.text ? v.text : `${v.text} = ${same.text}`);
      continue;
    }
    if (question.values.some((w) => compareValues(v, w) === "same")) continue;
    // A count of years between two years that are given ("in 1905 and, ten years later, in 1915"):
    // by the other side's years it is said there; by this statement's own, it adds nothing.
    const between = yearsApart(v);
    if (between !== undefined && between(other.values)) {
      total += VALUE_WEIGHT;
      found += VALUE_WEIGHT;
      foundOnOtherSide++;
      matched.push(v.text);
      continue;
    }
    if (between !== undefined && between(statement.values)) continue;
    // (Not a value that measures another thing: "any 180-day period" is no clash with "stays of 90 days".)
    const owner = (w: TextValue) => others.find((o) => o.values.includes(w));
    const different = other.values.filter((w) => compareValues(v, w) === "different" && sameMeasured(v, statement, w, owner(w)));
    if (different.length > 0) {
      const j = others.findIndex((o) => o.values.includes(different[0]!));
      // Denying another value is what the other side says too ("50Hz가 아니다" against "60Hz").
      if (j >= 0 && deniedThere(statement, others[j]!)) {
        return { verdict: "supported", reason: `consistent with ${ref(j)}: it says ${different[0]!.text}, not ${v.text}` };
      }
      const clashed = clash(j, `${v.text} where it says ${different.map((d) => d.text).join(", ")}`);
      // A statement that also gives one of that statement's values ("finished in 1443 and
      // published in 1446" against "published in 1446") still says what it says.
      const alsoGives = j >= 0 && values.some((x) => others[j]!.values.some((w) => compareValues(x, w) === "same"));
      return alsoGives ? { verdict: "clash", reason: clashed.reason } : clashed;
    }
    return { verdict: "unsupported", reason: `the ${side} never states ${v.text}` };
  }

  // Names: each must be found on the other side or in the question.
  const names = statement.terms.filter((t) => isName(t, other, question));
  // A name is found when its last word is ("Shakespeare" for "William Shakespeare"; not "Ottawa" for "Ottawa River").
  const nameFound = (t: Term): boolean => {
    if (holds(other, t) || holds(question, t)) return true;
    if (aliasHeld(t, other) || aliasHeld(t, question)) return true;
    // A formula or abbreviation whose expansion is there ("CH4" for "methane").
    const expansion = expansionOf(t.key);
    if (expansion !== undefined && expansion.every((w) => other.synonyms.has(w) || question.synonyms.has(w))) return true;
    // Another name this side gives it, in a note of its own ("Excel (XLSX)" → "Excel is XLSX"), that the other side has.
    if (glossedThere(t, own, other)) return true;
    // One of two names written as alternatives ("SSL/TLS") where the other side has the other.
    if (slashAlternatives(statement, t).some((u) => holds(other, u))) return true;
    if (t.group === "") return false;
    const head = statement.terms.filter((u) => u.group === t.group).pop();
    // The name given in full where the other side gives part of it ("Michelangelo Buonarroti" for
    // "Michelangelo"): every word of the other side's name is one of this one's.
    if (head === t) return shortNameThere(t, statement, other, self);
    if (head === undefined) return false;
    if (holds(question, head)) return true;
    return holds(other, head) && !headOfAnotherName(head, other);
  };
  const missingNames = names.filter((t) => !nameFound(t));
  if (missingNames.length > 0) {
    // A name in the same statement as a name of the other side that this one lacks: a swapped name.
    const slots = new Set(missingNames.map((t) => slotOf(t.role)));
    // The statement of the other side that names something else in the same slot, about the same thing.
    // A fragment that is only the names ("Canberra, not Sydney." → "not Sydney.") is about what the question asks.
    const bare = statement.terms.every((t) => missingNames.includes(t));
    const shares = (o: StatementAnalysis) =>
      statement.terms.some((t) => !missingNames.includes(t) && holds(pool([o]), t)) || (bare && o.terms.some((t) => holds(question, t)));
    const j = others.findIndex((o) => rivalNames(o, slots, self, question).length > 0 && shares(o));
    const given = missingNames.map((t) => t.form);
    if (j >= 0) {
      const names = show(rivalNames(others[j]!, slots, self, question).map((t) => t.form));
      if (deniedThere(statement, others[j]!)) {
        return { verdict: "supported", reason: `consistent with ${ref(j)}: it names ${names}, not ${show(given)}` };
      }
      return clash(j, `${show(given)} where it names ${names}`);
    }
    return { verdict: "unsupported", reason: `the ${side} never mentions ${show(given)}` };
  }

  // Content words, weighted: found on the other side, or (for half their weight) in the question.
  const shared: string[] = [];
  const missing: string[] = [];
  // Korean words written apart that the other side writes as one ("국립 중앙 박물관" for "국립중앙박물관").
  // (The very word: a Korean stem's looser match would take "조선" for "조선시대".)
  const joined = new Set(koreanCompounds(statement.terms).flatMap((c) => (other.synonyms.has(c.key) ? c.parts : [])));
  for (const t of statement.terms) {
    total += t.weight;
    if (holds(other, t) || joined.has(t)) {
      found += t.weight;
      foundOnOtherSide++;
      shared.push(t.form);
    } else if (holds(question, t)) {
      found += t.weight * QUESTION_SHARE;
    } else {
      missing.push(t.form);
    }
  }
  const share = total === 0 ? 0 : found / total;

  const evidence = [...matched, ...shared];
  if (foundOnOtherSide === 0 || share < SUPPORT_THRESHOLD) {
    const percent = Math.round(share * 100);
    return {
      verdict: "unsupported",
      reason: `the ${side} does not say it (${percent}% of its content found${missing.length > 0 ? `; missing ${show(missing)}` : ""})`,
    };
  }

  // Supported on the face of it; now what would contradict it.
  const reading: Reading = { statement, others, other, own, self, question, side, names, values, matched, nearest, ref, clash, joined };
  for (const contradiction of CONTRADICTIONS) {
    const found = contradiction(reading);
    if (found !== undefined) return found;
  }
  return { verdict: "supported", reason: `matches ${ref(nearest().index)} on ${show(evidence)}` };
}

/** A statement kept in its place (so that indices hold) with nothing in it to support or cover anything. */
function withoutContent(a: StatementAnalysis): StatementAnalysis {
  return withParts(a, { terms: [], values: [], negations: [] });
}

/**
 * Classifies response statements as TP (supported by the reference) or FP,
 * and reference statements as covered (stated by the response) or FN, with
 * a reason for each. Indices in verdicts and reasons are 1-based.
 *
 * @example
 * classifyStatements("Where and when was Einstein born?",
 *   ["Einstein was born in Spain.", "Einstein was born in 1879."],
 *   ["Einstein was born in 1879.", "Einstein was born in Germany."]);
 * // → response: FP ("Spain" where reference 2 names "Germany"), TP (matches reference 1 on "1879", …)
 * //   reference: covered, FN
 */
export function classifyStatements(question: string, response: readonly string[], reference: readonly string[]): ClassificationReply {
  const responses = response.map(analyzeStatement);
  const references = reference.map(analyzeStatement);
  const asked = pool([analyzeStatement(question)]);

  const referencePool = buildPool(references);
  const ownPool = buildPool(responses);
  const responseStandings = responses.map((r) => (references.length === 0 ? undefined : stand(r, references, referencePool, ownPool, asked, "reference")));
  const responseVerdicts: ResponseVerdict[] = responseStandings.map((s) =>
    s === undefined ? { verdict: "FP", reason: "there are no reference statements to match" } : { verdict: s.verdict === "supported" ? "TP" : "FP", reason: s.reason },
  );

  // A refusal covers nothing: it stays in place (so indices hold) with no content.
  const answering = responses.map((r) => (r.refusal ? withoutContent(r) : r));
  const answers = responses.some((r) => !r.refusal);
  const responsePool = buildPool(answering);
  const referenceVerdicts: ReferenceVerdict[] = references.map((r, i) => {
    if (!answers) {
      return { verdict: "FN", reason: responses.length === 0 ? "not covered: the response has no statements" : "not covered: the response does not answer" };
    }
    // A response statement that clashes with this one says otherwise, so it covers nothing of it
    // ("Oxidation takes place at the cathode" does not cover "Oxidation takes place at the anode",
    // though it has most of its words); the rest of the response still may.
    const s = stand(r, answering, responsePool, referencePool, asked, "response");
    if (s.verdict !== "supported") return { verdict: "FN", reason: `not covered: ${s.reason}` };
    const gainsaid = responseStandings.flatMap((g, k) => (g?.verdict === "clash" && g.against === i ? [k] : []));
    if (gainsaid.length === 0) return { verdict: "covered", reason: `covered: ${s.reason}` };
    const rest = answering.map((a, k) => (gainsaid.includes(k) ? withoutContent(a) : a));
    const without = stand(r, rest, buildPool(rest), referencePool, asked, "response");
    if (without.verdict === "supported") return { verdict: "covered", reason: `covered: ${without.reason}` };
    return { verdict: "FN", reason: `not covered: response ${gainsaid[0]! + 1} says otherwise (${responseStandings[gainsaid[0]!]!.reason})` };
  });

  return { response: responseVerdicts, reference: referenceVerdicts };
}
