/**
 * Statement classification for the offline judge (Ragas-style answer
 * correctness): response statements become TP/FP, reference statements
 * covered/FN, each with a reason that names what matched or clashed.
 *
 * A statement is supported by the other side when every value it states
 * (number, date, quantity) and every name it gives is found there (or in the
 * question), at least 35% of its weighted content words are found there,
 * and nothing clashes: another value or name in the same slot, a negation on
 * one side only, or an opposite word (rise/fall, red/blue).
 */
import type { ClassificationReply, ReferenceVerdict, ResponseVerdict } from "../types";
import { analyzeStatement, expansionOf, type StatementAnalysis, type Term } from "./analyze";
import { Memo } from "./memo";
import { quoteWords } from "./text";
import { hasOpposite, NAME_ALIASES, opposite, oppositeWords, RELATION_WORDS, synonymKey } from "./lexicon";
import { compareValues, isWordCount, type TextValue } from "./values";

/** Share of a statement's weighted content that the other side must hold. */
export const SUPPORT_THRESHOLD = 0.35;

/** Weight of a value (a number, date or quantity) in the support share. */
const VALUE_WEIGHT = 2;
/** Content found only in the question counts this much of its weight. */
const QUESTION_SHARE = 0.5;

/** Korean slots where another noun is another fact: subject, object, place, direction. */
const KOREAN_SLOTS: ReadonlySet<string> = new Set(["subject", "에", "에서", "로", "까지", "부터"]);

const HANGUL = /^[\uAC00-\uD7A3]+$/;

/** Hangul syllables as their letters (jamo): 흐릅 → ㅎㅡㄹㅡㅂ (as indices), so that stems meet across endings. */
function readJamo(word: string): number[] {
  const out: number[] = [];
  for (const ch of word) {
    const code = ch.charCodeAt(0) - 0xac00;
    if (code < 0 || code > 11171) {
      out.push(ch.charCodeAt(0));
      continue;
    }
    out.push(1000 + Math.floor(code / 588), 2000 + Math.floor((code % 588) / 28));
    if (code % 28 !== 0) out.push(3000 + (code % 28));
  }
  return out;
}

const recentJamo = new Memo<number[]>(50_000);

function jamo(word: string): number[] {
  return recentJamo.get(word, readJamo);
}

/** Whether `b` is the -ing form of the verb `a`: swim → swimming, use → using, play → playing. */
function isGerundOf(a: string, b: string): boolean {
  if (a.length < 3 || !b.endsWith("ing") || b.length < a.length + 3) return false;
  const stem = b.slice(0, -3);
  return stem === a || (stem.length === a.length + 1 && stem.startsWith(a) && stem.at(-1) === a.at(-1)) || `${stem}e` === a;
}

/** Whether two term keys name the same thing: equal, or one a close inflection of the other. */
function sameTerm(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.charCodeAt(0) !== b.charCodeAt(0)) return false;
  if (HANGUL.test(a) && HANGUL.test(b)) {
    const [short, long] = a.length <= b.length ? [a, b] : [b, a];
    if (short.length >= 2 && long.startsWith(short)) return true;
    // Verb stems with endings fused in: 흐릅(니다) / 흐른(다), 만들었 / 만든.
    const x = jamo(a);
    const y = jamo(b);
    let p = 0;
    while (p < x.length && p < y.length && x[p] === y[p]) p++;
    return p >= 4 && p >= 0.6 * Math.min(x.length, y.length);
  }
  // A plural that the tagger left unlemmatised (a capitalised "Colds" opening a sentence), and a
  // verb against its -ing form; both decided by the lengths first (this runs for every pair of terms).
  const d = b.length - a.length;
  if (d !== 0 && Math.abs(d) <= 4) {
    const [short, long] = d > 0 ? [a, b] : [b, a];
    const gap = Math.abs(d);
    if (gap <= 2 && short.length >= 3 && long.startsWith(short) && (gap === 1 ? long.endsWith("s") : long.endsWith("es"))) return true;
    if (gap >= 2 && long.endsWith("ing") && isGerundOf(short, long)) return true;
  }
  const min = Math.min(a.length, b.length);
  if (min < 5) return false;
  let prefix = 0;
  while (prefix < min && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return prefix >= Math.max(5, min - 2) && Math.abs(a.length - b.length) <= 3;
}

/** The content of one side (or the question) pooled: terms by key, values, and the statements behind them. */
interface Pool {
  terms: Term[];
  /** The terms' keys as their synonym keys ("large" for "huge"): a term is held when it or a synonym is. */
  synonyms: Set<string>;
  /** Term keys by their first character, for the inflection check. */
  byInitial: Map<number, string[]>;
  /** Answers of {@link holds} so far (the same terms are asked about again and again). */
  held: Map<Term, boolean>;
  values: TextValue[];
  analyses: readonly StatementAnalysis[];
}

function buildPool(analyses: readonly StatementAnalysis[]): Pool {
  const terms: Term[] = [];
  const values: TextValue[] = [];
  for (const a of analyses) {
    for (const t of a.terms) terms.push(t);
    for (const v of a.values) values.push(v);
  }
  const byInitial = new Map<number, string[]>();
  for (const t of terms) {
    const c = t.key.charCodeAt(0);
    const list = byInitial.get(c);
    if (list) list.push(t.key);
    else byInitial.set(c, [t.key]);
  }
  return { terms, synonyms: new Set(terms.map((t) => synonymKey(t.key))), byInitial, held: new Map(), values, analyses };
}

const singlePools = new WeakMap<StatementAnalysis, Pool>();

/** The pool of one statement (built once per statement) or of several. */
function pool(analyses: readonly StatementAnalysis[]): Pool {
  if (analyses.length !== 1) return buildPool(analyses);
  const a = analyses[0]!;
  let p = singlePools.get(a);
  if (!p) {
    p = buildPool(analyses);
    singlePools.set(a, p);
  }
  return p;
}

/** Whether a pool holds a term, or spells an acronym out ("EPS" ↔ "earnings per share"). */
function hasTerm(p: Pool, key: string, acronym = false): boolean {
  if (p.synonyms.has(synonymKey(key))) return true;
  const candidates = p.byInitial.get(key.charCodeAt(0));
  if (candidates) for (const k of candidates) if (sameTerm(k, key)) return true;
  return acronym && p.analyses.some((a) => a.initials.has(key));
}

function holds(p: Pool, t: Term): boolean {
  let answer = p.held.get(t);
  if (answer === undefined) {
    answer = hasTerm(p, t.key, t.acronym);
    p.held.set(t, answer);
  }
  return answer;
}

function hasLowerWord(p: Pool, word: string): boolean {
  return p.analyses.some((a) => a.lowerWords.includes(word));
}

/** A name, unless the word is also written in lower case (a capitalised first word such as "Water"). */
function isName(t: Term, ...pools: readonly Pool[]): boolean {
  return t.entity && !pools.some((p) => hasLowerWord(p, t.key));
}

const stated = new WeakMap<StatementAnalysis, TextValue[]>();

/** Values a statement states, without small counts written in words ("two scales"). */
function statedValues(a: StatementAnalysis): TextValue[] {
  let values = stated.get(a);
  if (!values) {
    values = a.values.filter((v) => !isWordCount(v));
    stated.set(a, values);
  }
  return values;
}

/** Small counts written in words ("three chambers", "a four-year term"), which {@link statedValues} leaves out. */
function wordCounts(a: StatementAnalysis): TextValue[] {
  return a.values.filter(isWordCount);
}

/** The noun a number counts, as a rough singular: "three chambers" → "chamber", "a four-year term" → "year". */
function countedNoun(text: string, v: TextValue): string | undefined {
  const m = /^(?:\s+|\s*-\s*)(\p{L}{3,})/u.exec(text.slice(v.end));
  return m ? m[1]!.toLowerCase().replace(/(?<=[^s])s$/, "") : undefined;
}

/**
 * A count in words against a count of the same noun on the other side: the
 * other's statement and value when they differ ("three chambers" against
 * "four chambers"), else undefined. Counts of different nouns are left alone
 * ("two atria" against "four chambers").
 */
function clashingCount(statement: StatementAnalysis, others: readonly StatementAnalysis[]): { index: number; mine: TextValue; theirs: TextValue } | undefined {
  for (const mine of wordCounts(statement)) {
    const noun = countedNoun(statement.text, mine);
    if (noun === undefined) continue;
    for (let index = 0; index < others.length; index++) {
      const o = others[index]!;
      const same = o.values.filter((w) => countedNoun(o.text, w) === noun);
      if (same.length > 0 && same.every((w) => compareValues(mine, w) === "different")) return { index, mine, theirs: same[0]! };
    }
  }
  return undefined;
}

/** The slot a role stands for: the doer or the thing equated ("X is Y", "Y is X", "by X") is one slot. */
function slotOf(role: string): string {
  return role === "subject" || role === "be" || role === "by" || role === "" ? "who" : role;
}

/** Names of `other` in one of `slots` that neither the statement (`self`) nor the question gives: the rivals of a swapped name. */
function rivalNames(other: StatementAnalysis, slots: ReadonlySet<string>, self: Pool, question: Pool): Term[] {
  return other.terms.filter((u) => isName(u, self, question) && !holds(self, u) && !holds(question, u) && slots.has(slotOf(u.role)));
}

/** Whether a pool holds another name of the country or state `t` names ("United Kingdom" for "Britain"). */
function aliasHeld(t: Term, p: Pool): boolean {
  const aliases = NAME_ALIASES[t.key];
  if (aliases?.some((alias) => alias.split(" ").every((word) => p.synonyms.has(word) || p.analyses.some((a) => a.initials.has(word) && word.length > 1)))) return true;
  // The other way round: "Kingdom" of "United Kingdom" against "Britain".
  return ALIASED_WORDS.get(t.key)?.some((name) => p.synonyms.has(name)) ?? false;
}

/** Each word of an alias, with the names it is an alias of: "kingdom" → ["britain"]. */
const ALIASED_WORDS: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const [name, aliases] of Object.entries(NAME_ALIASES)) {
    for (const word of new Set(aliases.flatMap((a) => a.split(" ")))) out.set(word, [...(out.get(word) ?? []), name]);
  }
  return out;
})();

/**
 * Whether the other side names `head` only as part of a longer name: "Black Sea" is not found in
 * "Caspian Sea", nor "International Criminal Court" in "International Court of Justice"; the last
 * word alone finds a name only where the other side gives it bare ("Shakespeare" for "William
 * Shakespeare").
 */
function headOfAnotherName(head: Term, other: Pool): boolean {
  let bare = false;
  let longer = false;
  for (const a of other.analyses) {
    for (const end of a.terms) {
      if (end.key !== head.key) continue;
      if (end.group !== "" && a.terms.some((u) => u.group === end.group && u !== end)) longer = true;
      else bare = true;
    }
  }
  return longer && !bare;
}

/**
 * The one content word of `statement` that neither the other side nor the question holds, when
 * at least three statements of the other side hold everything else it says (or the question does)
 * and each adds another word of its own: the other side's list, of which this word is not an
 * item. Undefined otherwise.
 */
function listRival(statement: StatementAnalysis, others: readonly StatementAnalysis[], other: Pool, question: Pool): { term: Term; rivals: string[] } | undefined {
  const missing = statement.terms.filter((t) => t.weight >= 1 && !holds(other, t) && !holds(question, t));
  if (missing.length !== 1) return undefined;
  const frame = statement.terms.filter((t) => t !== missing[0] && t.weight >= 1);
  if (frame.length === 0) return undefined;
  const self = pool([statement]);
  const rivals: string[] = [];
  for (const o of others) {
    const p = pool([o]);
    if (!frame.every((t) => holds(p, t) || holds(question, t))) continue;
    const own = o.terms.filter((u) => u.weight >= 1 && !holds(self, u) && !holds(question, u));
    if (own.length === 1 && !rivals.includes(own[0]!.form)) rivals.push(own[0]!.form);
  }
  // Three other items at least: two statements that differ from this one by a word are as often a
  // paraphrase or another inflection as a list.
  return rivals.length >= 3 ? { term: missing[0]!, rivals } : undefined;
}

/** A Korean noun with the copula fused on (수컷이고, 암컷입니다, 열대저기압이다): what is said, not a verb. */
const KOREAN_COPULA = /[\uAC00-\uD7A3]{2,}(?:이고|이며|이다|입니다|이에요|예요|였다|이었다|였습니다|이었습니다)[.!?]?$/u;

/** An English verb, or a Korean word with a verb ending (낳고, 운다, 웁니다): the predicate, not what it is said of. */
function isPredicate(t: Term): boolean {
  if (HANGUL.test(t.key)) return /(?:다|요|죠|고|며)[.!?]?$/u.test(t.form) && !KOREAN_COPULA.test(t.form);
  return t.weight === 0.75;
}

/** How many terms and values two statements share. */
function sharedCount(a: StatementAnalysis, b: StatementAnalysis): number {
  const p = pool([b]);
  return a.terms.filter((t) => holds(p, t)).length + a.values.filter((v) => b.values.some((w) => compareValues(v, w) === "same")).length;
}

/** The slot a Korean particle or an English role stands for: the doer, or what is done to. */
function doerOrDone(t: Term): "who" | "whom" | undefined {
  if (HANGUL.test(t.key)) return t.role === "subject" || t.role === "topic" ? "who" : t.role === "object" ? "whom" : undefined;
  if (!t.entity) return undefined;
  const slot = slotOf(t.role);
  // After a verb it is what is done to; after a preposition ("held in Africa") it is neither.
  return slot === "who" ? "who" : PREPOSITIONS.has(t.role) || RELATION_WORDS.has(t.role) || t.role === "" ? undefined : "whom";
}

/** English prepositions, which a term's role may be instead of a verb. */
const PREPOSITIONS: ReadonlySet<string> = new Set([
  "in", "on", "at", "of", "to", "from", "for", "with", "into", "onto", "over", "under", "about", "through", "during", "since",
  "until", "between", "among", "across", "against", "around", "near", "off", "out", "up", "down", "within", "as", "than",
  "like", "per", "via", "toward", "towards", "upon", "beyond", "along", "behind", "beside", "besides", "despite", "except",
]);

/** A term's role, or for a Korean noun without a particle the role of the word after it ("이세돌 9단이": the doer). */
function roleInPhrase(terms: readonly Term[], i: number): "who" | "whom" | undefined {
  const own = doerOrDone(terms[i]!);
  if (own !== undefined || !HANGUL.test(terms[i]!.key) || terms[i]!.role !== "") return own;
  const next = terms[i + 1];
  return next !== undefined && HANGUL.test(next.key.charAt(0)) ? doerOrDone(next) : undefined;
}

/** Two names (or Korean nouns) of `statement` that an aligned statement of the other side gives in each other's roles. */
function swappedRoles(statement: StatementAnalysis, others: readonly StatementAnalysis[]): { index: number; a: string; b: string } | undefined {
  const roles = statement.terms.map((t, i) => [t, roleInPhrase(statement.terms, i)] as const).filter((x): x is readonly [Term, "who" | "whom"] => x[1] !== undefined);
  const doers = roles.filter(([, r]) => r === "who").map(([t]) => t);
  const done = roles.filter(([, r]) => r === "whom").map(([t]) => t);
  if (doers.length === 0 || done.length === 0) return undefined;
  for (let index = 0; index < others.length; index++) {
    const o = others[index]!;
    // Only a statement that names both sides can swap them (the pool's answers are kept).
    const there = pool([o]);
    if (!doers.some((t) => holds(there, t)) || !done.some((t) => holds(there, t))) continue;
    const roleThere = (t: Term) => {
      const i = o.terms.findIndex((x) => sameTerm(synonymKey(x.key), synonymKey(t.key)));
      return i < 0 ? undefined : roleInPhrase(o.terms, i);
    };
    for (const a of doers) {
      if (roleThere(a) !== "whom") continue;
      const b = done.find((t) => roleThere(t) === "who");
      if (b !== undefined) return { index, a: a.form, b: b.form };
    }
  }
  return undefined;
}

/**
 * The one term of `statement` that its best-matching statement of the other side (`best`, the
 * closest by shared content) lacks but another
 * statement of that side has, where the best one says something else of its own: an attribute
 * taken from the wrong statement. Undefined otherwise.
 */
function crossedAttribute(statement: StatementAnalysis, others: readonly StatementAnalysis[], other: Pool, best: number): { index: number; mine: string; theirs: string; theirsTerm: Term } | undefined {
  if (best < 0) return undefined;
  const o = others[best]!;
  const oPool = pool([o]);
  // Verbs are left out: they are paraphrased freely (rotate / spin, 웁니다 / 운다); the attribute is a
  // noun, adjective or adverb.
  const missing = statement.terms.filter((t) => !isPredicate(t) && !holds(oPool, t));
  if (missing.length !== 1 || !holds(other, missing[0]!)) return undefined;
  // The attribute must come from a statement that says it of something else.
  const self = pool([statement]);
  const elsewhere = others.some((x, i) => i !== best && holds(pool([x]), missing[0]!) && x.terms.some((u) => !holds(self, u)));
  if (!elsewhere) return undefined;
  // (The words of one name are one attribute: "New Jersey".)
  const theirs = o.terms.filter((u, i) => !isPredicate(u) && !holds(self, u) && u.weight === missing[0]!.weight && (u.group === "" || o.terms.findIndex((w) => w.group === u.group) === i));
  if (theirs.length !== 1 || statement.values.some((v) => !o.values.some((w) => compareValues(v, w) === "same"))) return undefined;
  const name = theirs[0]!.group === "" ? [theirs[0]!] : o.terms.filter((w) => w.group === theirs[0]!.group);
  return { index: best, mine: missing[0]!.form, theirs: name.map((w) => w.form).join(" "), theirsTerm: theirs[0]! };
}

/** A name, or a Korean noun marked as subject or topic (세종은, 경찰이): what a statement is about. */
function isHolder(t: Term): boolean {
  return HANGUL.test(t.key) ? t.role === "subject" || t.role === "topic" : t.entity;
}

/**
 * A value that the other side gives to another thing, where it gives this statement's thing
 * another value in a parallel statement (two statements that share a frame of at least two
 * terms): "경찰은 119" against "화재 신고 번호는 119번" and "경찰 신고 번호는 112번"; "general
 * relativity came in 1905" against "special … in 1905" and "general … in 1915". Undefined
 * otherwise.
 */
function crossedValue(statement: StatementAnalysis, others: readonly StatementAnalysis[]): { index: number; value: string; term: string; theirs: string } | undefined {
  const values = statedValues(statement);
  if (values.length === 0 || statement.negations.length > 0 || others.length < 2) return undefined;
  const self = pool([statement]);
  const things = statement.terms.filter((t) => !isPredicate(t));
  for (const v of values) {
    // The other side's statements that give this value, and those that give another of its kind.
    const same: number[] = [];
    const theirs = new Map<number, TextValue>();
    others.forEach((o, i) => {
      let other: TextValue | undefined;
      for (const w of o.values) {
        const c = compareValues(v, w);
        if (c === "same") return void same.push(i);
        if (c === "different") other ??= w;
      }
      if (other !== undefined) theirs.set(i, other);
    });
    if (same.length === 0 || theirs.size === 0) continue;
    // How far a term is written from the value.
    const distance = (t: Term): number => {
      const at = statement.text.indexOf(t.form);
      return at < 0 ? Infinity : at < v.start ? v.start - (at + t.form.length) : at - v.end;
    };
    for (const i of same) {
      const o = others[i]!;
      // The thing the value is given to: of the terms the other statement lacks, the one written nearest the value.
      const here = pool([o]);
      const lacking = things.filter((t) => !holds(here, t));
      if (lacking.length === 0) continue;
      const x = lacking.reduce((a, b) => (distance(b) < distance(a) ? b : a));
      for (const [j, value] of theirs) {
        const parallel = others[j]!;
        const there = pool([parallel]);
        if (!holds(there, x)) continue;
        // The parallel statement says the same kind of thing of x (they share a frame of two
        // terms; one is enough when x is what both are about: "세종은 1418년에 즉위했다"), and this
        // one names nothing that only the first one has.
        const about = isHolder(x) && parallel.terms.some((u) => isHolder(u) && sameTerm(synonymKey(u.key), synonymKey(x.key)));
        if (sharedCount(o, parallel) < (about ? 1 : 2) || o.terms.some((u) => !holds(there, u) && holds(self, u))) continue;
        return { index: j, value: v.text, term: x.form, theirs: value.text };
      }
    }
  }
  return undefined;
}

/** Whether a denial is borne out by the other statement ("not Sydney" against "the capital is Canberra"). */
function deniedThere(statement: StatementAnalysis, other: StatementAnalysis): boolean {
  return statement.negations.length > 0 && other.negations.length === 0;
}

/** How one statement stands against the other side. */
interface Standing {
  verdict: "supported" | "clash" | "unsupported";
  reason: string;
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
  for (let i = 0; i < others.length; i++) {
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
  const english = !HANGUL.test(a.key) && !HANGUL.test(b.key);
  return english && a.weight !== b.weight && a.weight !== 0.75 && b.weight !== 0.75;
}

/** A word of the other side (as written) that is the opposite of `t`, and that this side lacks (not a noun against an adjective). */
function oppositeWord(t: Term, other: Pool, self: Pool): string | undefined {
  return oppositeWords(t.key).find((w) => hasLowerWord(other, w) && !hasLowerWord(self, w) && !other.terms.some((u) => u.key === w && nounAgainstAdjective(t, u)));
}

/**
 * Judges one statement against the statements of the other side and the
 * question. `side` names the other side in reasons ("reference"/"response").
 */
function stand(statement: StatementAnalysis, others: readonly StatementAnalysis[], other: Pool, own: Pool, question: Pool, side: string): Standing {
  const self = pool([statement]);
  // The other side's closest statement, found only when a check needs it.
  let closestFound: { index: number; share: number } | undefined;
  const nearest = (): { index: number; share: number } => (closestFound ??= closest(statement, others));
  const ref = (index: number) => (index >= 0 ? `${side} ${index + 1}` : `the ${side}`);

  if (statement.refusal) return { verdict: "unsupported", reason: "a refusal or \"I don't know\" supports nothing" };
  // A bare count is all a fragment says ("Four."), so it is checked like any value.
  const stated = statedValues(statement);
  const values = statement.terms.length === 0 && stated.length === 0 ? wordCounts(statement) : stated;
  if (statement.terms.length === 0 && values.length === 0) {
    return { verdict: "unsupported", reason: "the statement has no content to check" };
  }
  const count = clashingCount(statement, others);
  if (count !== undefined) {
    return { verdict: "clash", reason: `clashes with ${ref(count.index)}: ${count.mine.text} where it says ${count.theirs.text}` };
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
    const different = other.values.filter((w) => compareValues(v, w) === "different");
    if (different.length > 0) {
      const j = others.findIndex((o) => o.values.includes(different[0]!));
      // Denying another value is what the other side says too ("50Hz가 아니다" against "60Hz").
      if (j >= 0 && deniedThere(statement, others[j]!)) {
        return { verdict: "supported", reason: `consistent with ${ref(j)}: it says ${different[0]!.text}, not ${v.text}` };
      }
      return { verdict: "clash", reason: `clashes with ${ref(j)}: ${v.text} where it says ${different.map((d) => d.text).join(", ")}` };
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
    if (t.group === "") return false;
    const head = statement.terms.filter((u) => u.group === t.group).pop();
    if (head === undefined || head === t) return false;
    if (holds(question, head)) return true;
    return holds(other, head) && !headOfAnotherName(head, other);
  };
  const missingNames = names.filter((t) => !nameFound(t));
  if (missingNames.length > 0) {
    // A name in the same statement as a name of the other side that this one lacks: a swapped name.
    const slots = new Set(missingNames.map((t) => slotOf(t.role)));
    // The statement of the other side that names something else in the same slot, about the same thing.
    const shares = (o: StatementAnalysis) => statement.terms.some((t) => !missingNames.includes(t) && holds(pool([o]), t));
    const j = others.findIndex((o) => rivalNames(o, slots, self, question).length > 0 && shares(o));
    const given = missingNames.map((t) => t.form);
    if (j >= 0) {
      const names = show(rivalNames(others[j]!, slots, self, question).map((t) => t.form));
      if (deniedThere(statement, others[j]!)) {
        return { verdict: "supported", reason: `consistent with ${ref(j)}: it names ${names}, not ${show(given)}` };
      }
      return { verdict: "clash", reason: `clashes with ${ref(j)}: ${show(given)} where it names ${names}` };
    }
    return { verdict: "unsupported", reason: `the ${side} never mentions ${show(given)}` };
  }

  // Content words, weighted: found on the other side, or (for half their weight) in the question.
  const shared: string[] = [];
  const missing: string[] = [];
  for (const t of statement.terms) {
    total += t.weight;
    if (holds(other, t)) {
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
  // Another item of a list: the other side says the same of several other things, and this
  // statement's one word it lacks is the item ("the fat-soluble vitamins are C" against "… are A",
  // "… are D", "… are E").
  const item = listRival(statement, others, other, question);
  if (item !== undefined) {
    return { verdict: "unsupported", reason: `the ${side} lists ${show(item.rivals)}, not ${show([item.term.form])}` };
  }
  // A swapped name: the statement that says the same of something else ("the largest desert is
  // Antarctica" against "the Sahara is the largest desert").
  if (names.length > 0) {
    const predicate = statement.terms.filter((t) => !names.includes(t));
    const weight = predicate.reduce((sum, t) => sum + t.weight, 0);
    let best = -1;
    let bestShare = 0;
    others.forEach((o, i) => {
      const p = pool([o]);
      const share = weight === 0 ? 0 : predicate.filter((t) => holds(p, t)).reduce((sum, t) => sum + t.weight, 0) / weight;
      const holdsNames = names.some((t) => holds(p, t));
      if (share > bestShare || (share === bestShare && share > 0 && holdsNames)) {
        best = i;
        bestShare = share;
      }
    });
    if (best >= 0 && bestShare >= 0.6 && predicate.length >= 2) {
      const o = others[best]!;
      // The names this statement gives that the statement saying the same of something lacks
      // ("Argentina won the first World Cup" against "Uruguay won the first FIFA World Cup").
      const absent = names.filter((t) => !holds(pool([o]), t) && !aliasHeld(t, pool([o])));
      if (absent.length > 0) {
        const rival = rivalNames(o, new Set(absent.map((t) => slotOf(t.role))), self, question);
        if (rival.length > 0 && !deniedThere(statement, o)) {
          return { verdict: "clash", reason: `clashes with ${ref(best)}: ${show(absent.map((t) => t.form))} where it names ${show(rival.map((t) => t.form))}` };
        }
      }
    }
  }

  // Opposites: "rises" against "falls", "red" against "blue".
  for (const t of statement.terms) {
    if (!hasOpposite(t.key) || holds(other, t)) continue;
    // "the final" (a match) is no opposite of "the first" (cup): a noun against an adjective is two senses.
    const rival = other.terms.find((u) => opposite(t.key, u.key) && !holds(self, u) && !nounAgainstAdjective(t, u));
    if (rival) {
      const j = others.findIndex((o) => o.terms.includes(rival));
      return { verdict: "clash", reason: `clashes with ${ref(j)}: "${t.form}" where it says "${rival.form}"` };
    }
    // Function words with a meaning ("only" against "both … and").
    const word = oppositeWord(t, other, self);
    if (word) {
      const j = others.findIndex((o) => o.lowerWords.includes(word));
      return { verdict: "clash", reason: `clashes with ${ref(j)}: "${t.form}" where it says "${word}"` };
    }
  }

  // Opposite relations: the same thing "above" the pump here and "below" it there, "before" the war and "after" it.
  for (const t of statement.terms) {
    if (!RELATION_WORDS.has(t.role)) continue;
    const key = synonymKey(t.key);
    const there = other.terms.filter((u) => synonymKey(u.key) === key);
    if (there.length === 0 || !there.every((u) => opposite(t.role, u.role))) continue;
    const j = others.findIndex((o) => o.terms.includes(there[0]!));
    return { verdict: "clash", reason: `clashes with ${ref(j)}: "${t.role}" where it says "${there[0]!.role}" (of "${t.form}")` };
  }

  // Korean slots: another noun with the same particle in a statement about the same thing.
  const korean = statement.terms.some((t) => KOREAN_SLOTS.has(t.role) && HANGUL.test(t.key));
  const near = korean ? nearest() : { index: -1, share: 0 };
  if (near.index >= 0 && near.share > 0) {
    // The nearest statement, then any other that shares two things with this one (the same value
    // and subject: "중성자가 8개" against "양성자가 8개").
    const candidates = [near.index, ...others.map((_, i) => i).filter((i) => i !== near.index && sharedCount(statement, others[i]!) >= 2)];
    for (const index of candidates) {
      const o = others[index]!;
      const oPool = pool([o]);
      for (const t of statement.terms) {
        if (!KOREAN_SLOTS.has(t.role) || !HANGUL.test(t.key) || holds(oPool, t) || holds(question, t)) continue;
        const rival = o.terms.find((u) => u.role === t.role && HANGUL.test(u.key) && !holds(self, u) && !holds(question, u));
        if (rival) return { verdict: "clash", reason: `clashes with ${ref(index)}: "${t.form}" where it says "${rival.form}"` };
      }
    }
  }

  // The same two things in each other's roles: "이세돌 9단이 알파고를 꺾었다" against "알파고가 이세돌 9단을 이겼다".
  const swap = swappedRoles(statement, others);
  if (swap !== undefined) {
    return { verdict: "clash", reason: `clashes with ${ref(swap.index)}: "${swap.a}" and "${swap.b}" in each other's roles` };
  }

  // A value given to the wrong one of two parallel things: "경찰은 119" where the reference gives
  // 119 to 화재 and 112 to 경찰.
  const swappedValue = crossedValue(statement, others);
  if (swappedValue !== undefined) {
    return { verdict: "clash", reason: `clashes with ${ref(swappedValue.index)}: it gives ${swappedValue.theirs} for "${swappedValue.term}", not ${swappedValue.value}` };
  }

  // An answer's statement that takes its subject from one statement of the reference and its
  // attribute from another: "Northern … clockwise" against "Northern … counterclockwise" and
  // "Southern … clockwise". (Not for coverage: an answer may say a reference fact in other words.)
  // For coverage, only a two-way cross: the word the response says in its place is the reference's
  // too, said of something else ("oxidation … anode" against "oxidation … cathode, reduction …
  // anode"). One way only, it is as often the response's own wording ("traffic" for "cars").
  const crossed = statement.negations.length === 0 ? crossedAttribute(statement, others, other, nearest().index) : undefined;
  if (crossed !== undefined && (side === "reference" || (holds(own, crossed.theirsTerm) && !holds(question, crossed.theirsTerm)))) {
    return { verdict: "clash", reason: `clashes with ${ref(crossed.index)}: "${crossed.mine}" where it says "${crossed.theirs}"` };
  }

  // Negation on one side only, between statements about the same thing.
  const negated = statement.negations.length > 0;
  const aligned = nearest();
  if (aligned.index >= 0 && aligned.share >= SUPPORT_THRESHOLD && statement.terms.length + values.length >= 2) {
    const o = others[aligned.index]!;
    // A clash unless a statement of the same polarity matches as well.
    if (negated !== (o.negations.length > 0) && closest(statement, others.filter((x) => (x.negations.length > 0) === negated)).share <= aligned.share) {
      const who = statement.negations.length > 0 ? "this statement negates it" : `${ref(aligned.index)} negates it`;
      return { verdict: "clash", reason: `clashes with ${ref(aligned.index)}: ${who}` };
    }
  }

  // An answer's statement must have something of what it says of its first term (its subject, as
  // a rule) found in the reference too: "Cats can fly" is not supported by "Cats have four legs",
  // though "cats" is most of its weight. (Coverage of a reference statement stays lenient: an
  // answer that names "Apollo 11" covers "during the Apollo 11 mission".)
  if (side === "reference" && matched.length === 0) {
    const said = statement.terms.slice(1).filter((t) => !holds(question, t));
    // An English verb alone is paraphrased freely ("hosted" for "held in") where one statement of
    // the other side holds two of the things this one relates ("Africa", "Olympics"); not where it
    // holds the subject alone ("Cats can fly" against "Cats have four legs").
    const related = (): boolean => others.some((o) => statement.terms.filter((t) => !isPredicate(t) && holds(pool([o]), t)).length >= 2);
    const verbsOnly = said.every((t) => !HANGUL.test(t.key) && isPredicate(t));
    if (said.length > 0 && !(verbsOnly && related()) && !said.some((t) => holds(other, t) || aliasHeld(t, other))) {
      return { verdict: "unsupported", reason: `the ${side} never says ${show(said.map((t) => t.form))} of ${statement.terms[0]!.form}` };
    }
  }
  return { verdict: "supported", reason: `matches ${ref(aligned.index)} on ${show(evidence)}` };
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
  const responseVerdicts: ResponseVerdict[] = responses.map((r, i) => {
    if (references.length === 0) return { verdict: "FP", reason: "there are no reference statements to match" };
    const s = stand(r, references, referencePool, ownPool, asked, "reference");
    return { verdict: s.verdict === "supported" ? "TP" : "FP", reason: s.reason };
  });

  // A refusal covers nothing: it stays in place (so indices hold) with no content.
  const answering = responses.map((r) => (r.refusal ? { ...r, terms: [], values: [], negations: [] } : r));
  const answers = responses.some((r) => !r.refusal);
  const responsePool = buildPool(answering);
  const referenceVerdicts: ReferenceVerdict[] = references.map((r, i) => {
    if (!answers) {
      return { verdict: "FN", reason: responses.length === 0 ? "not covered: the response has no statements" : "not covered: the response does not answer" };
    }
    const s = stand(r, answering, responsePool, referencePool, asked, "response");
    if (s.verdict === "supported") return { verdict: "covered", reason: `covered: ${s.reason}` };
    return { verdict: "FN", reason: `not covered: ${s.reason}` };
  });

  return { response: responseVerdicts, reference: referenceVerdicts };
}
