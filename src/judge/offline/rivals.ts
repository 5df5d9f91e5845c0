/**
 * Contradictions of one statement by the other side, for the offline judge's
 * statement classifier: another word or value standing in this statement's
 * place. A count of the same thing in words, a name in the same slot, an
 * item missing from the other side's list, two names in each other's roles,
 * an attribute taken from the statement about something else, a value given
 * to the wrong one of two parallel things.
 */
import { withParts, type StatementAnalysis, type Term } from "./analyze";
import { RELATION_WORDS, synonymKey } from "./lexicon";
import { aliasHeld, buildPool, holds, isName, pool, sameTerm, type Pool } from "./pool";
import { HANGUL_WORD } from "./text";
import { compareValues, isWordCount, type TextValue } from "./values";

const stated = new WeakMap<StatementAnalysis, TextValue[]>();

/** Values a statement states, without small counts written in words ("two scales"). */
export function statedValues(a: StatementAnalysis): TextValue[] {
  let values = stated.get(a);
  if (!values) {
    values = a.values.filter((v) => !isWordCount(v));
    stated.set(a, values);
  }
  return values;
}

/** Small counts written in words ("three chambers", "a four-year term"), which {@link statedValues} leaves out. */
export function wordCounts(a: StatementAnalysis): TextValue[] {
  return a.values.filter(isWordCount);
}

/** "one X" or "a single X" in `text` for the counted noun `noun` (letters only, from {@link countedNoun}), as a count of one; undefined when absent. */
function oneOf(text: string, noun: string): TextValue | undefined {
  const m = new RegExp(`\\b(?:one|a\\s+single|only\\s+one|exactly\\s+one)\\s+${noun}s?\\b`, "iu").exec(text);
  return m === null ? undefined : { dimension: "number", value: 1, approximate: false, text: m[0].split(/\s+/u).slice(0, -1).join(" "), start: m.index, end: m.index + m[0].length, step: 1 };
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
export function clashingCount(statement: StatementAnalysis, others: readonly StatementAnalysis[]): { index: number; mine: TextValue; theirs: TextValue } | undefined {
  for (const mine of wordCounts(statement)) {
    const noun = countedNoun(statement.text, mine);
    if (noun === undefined) continue;
    for (let index = 0; index < others.length; index++) {
      const o = others[index]!;
      const same = o.values.filter((w) => countedNoun(o.text, w) === noun);
      if (same.length > 0 && same.every((w) => compareValues(mine, w) === "different")) return { index, mine, theirs: same[0]! };
      // "one oxygen atom", "a single oxygen atom": a count of one, which is not read as a value ("one of the …").
      const single = same.length === 0 && mine.value !== 1 ? oneOf(o.text, noun) : undefined;
      if (single !== undefined) return { index, mine, theirs: single };
    }
  }
  return undefined;
}

/** The slot a role stands for: the doer or the thing equated ("X is Y", "Y is X", "by X") is one slot. */
export function slotOf(role: string): string {
  return role === "subject" || role === "be" || role === "by" || role === "" ? "who" : role;
}

/** Names of `other` in one of `slots` that neither the statement (`self`) nor the question gives: the rivals of a swapped name. */
export function rivalNames(other: StatementAnalysis, slots: ReadonlySet<string>, self: Pool, question: Pool): Term[] {
  return other.terms.filter((u) => isName(u, self, question) && !holds(self, u) && !holds(question, u) && slots.has(slotOf(u.role)));
}

/**
 * Whether the other side names `head` only as part of a longer name: "Black Sea" is not found in
 * "Caspian Sea", nor "International Criminal Court" in "International Court of Justice"; the last
 * word alone finds a name only where the other side gives it bare ("Shakespeare" for "William
 * Shakespeare").
 */
export function headOfAnotherName(head: Term, other: Pool): boolean {
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
export function listRival(statement: StatementAnalysis, others: readonly StatementAnalysis[], other: Pool, question: Pool): { term: Term; rivals: string[] } | undefined {
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
    // An English item in the same place ("are C" against "are A"), not another thing said of the
    // same words (a Korean item's particle varies with its place in the list: "장마가", "겨울입니다").
    const samePlace = own.length === 1 && (HANGUL_WORD.test(own[0]!.key) || own[0]!.role === missing[0]!.role);
    if (samePlace && !rivals.includes(own[0]!.form)) rivals.push(own[0]!.form);
  }
  // Three other items at least: two statements that differ from this one by a word are as often a
  // paraphrase or another inflection as a list.
  return rivals.length >= 3 ? { term: missing[0]!, rivals } : undefined;
}

/** A Korean noun with the copula fused on (수컷이고, 암컷입니다, 열대저기압이다): what is said, not a verb. */
const KOREAN_COPULA = /[\uAC00-\uD7A3]{2,}(?:이고|이며|이다|입니다|이에요|예요|였다|이었다|였습니다|이었습니다)[.!?]?$/u;

/** An English verb, or a Korean word with a verb ending (낳고, 운다, 웁니다): the predicate, not what it is said of. */
export function isPredicate(t: Term): boolean {
  if (HANGUL_WORD.test(t.key)) return /(?:다|요|죠|고|며)[.!?]?$/u.test(t.form) && !KOREAN_COPULA.test(t.form);
  return t.weight === 0.75;
}

/** How many terms and values two statements share. */
export function sharedCount(a: StatementAnalysis, b: StatementAnalysis): number {
  const p = pool([b]);
  return a.terms.filter((t) => holds(p, t)).length + a.values.filter((v) => b.values.some((w) => compareValues(v, w) === "same")).length;
}

/** The slot a Korean particle or an English role stands for: the doer, or what is done to. */
function doerOrDone(t: Term): "who" | "whom" | undefined {
  if (HANGUL_WORD.test(t.key)) return t.role === "subject" || t.role === "topic" ? "who" : t.role === "object" ? "whom" : undefined;
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
  if (own !== undefined || !HANGUL_WORD.test(terms[i]!.key) || terms[i]!.role !== "") return own;
  const next = terms[i + 1];
  return next !== undefined && HANGUL_WORD.test(next.key.charAt(0)) ? doerOrDone(next) : undefined;
}

/** Two names (or Korean nouns) of `statement` that an aligned statement of the other side gives in each other's roles. */
export function swappedRoles(statement: StatementAnalysis, others: readonly StatementAnalysis[]): { index: number; a: string; b: string } | undefined {
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
 * Two things whose prepositions the other side exchanges: "from the cathode to the anode" against
 * "from the anode to the cathode". Only phrases of prepositions: "X is Y" and "Y is X" say one
 * thing, and a verb's doer and object are {@link swappedRoles}'. Undefined otherwise.
 */
export function exchangedPrepositions(statement: StatementAnalysis, others: readonly StatementAnalysis[]): { index: number; a: string; b: string } | undefined {
  const phrased = statement.terms.filter((t) => (PREPOSITIONS.has(t.role) || RELATION_WORDS.has(t.role)) && !isPredicate(t));
  if (phrased.length < 2) return undefined;
  for (const [index, o] of others.entries()) {
    for (const a of phrased) {
      const aThere = onlyRole(o, synonymKey(a.key));
      if (aThere === undefined || aThere === a.role) continue;
      const b = phrased.find((t) => t.role === aThere && t !== a && onlyRole(o, synonymKey(t.key)) === a.role);
      if (b !== undefined) return { index, a: a.form, b: b.form };
    }
  }
  return undefined;
}

/** The role of the one term of `o` whose synonym key is `key`; undefined when none or several have it. */
function onlyRole(o: StatementAnalysis, key: string): string | undefined {
  let role: string | undefined;
  let count = 0;
  for (const u of o.terms) {
    if (synonymKey(u.key) !== key) continue;
    if (++count > 1) return undefined;
    role = u.role;
  }
  return role;
}

/**
 * The one term of `statement` that its best-matching statement of the other side (`best`, the
 * closest by shared content) lacks but another
 * statement of that side has, where the best one says something else of its own: an attribute
 * taken from the wrong statement. Undefined otherwise.
 */
export function crossedAttribute(
  statement: StatementAnalysis,
  others: readonly StatementAnalysis[],
  other: Pool,
  best: number,
): { index: number; mine: string; mineTerm: Term; theirs: string; theirsTerm: Term } | undefined {
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
  return { index: best, mine: missing[0]!.form, mineTerm: missing[0]!, theirs: name.map((w) => w.form).join(" "), theirsTerm: theirs[0]! };
}

/** A thing of this statement and what the other side's statement `index` says in its place. */
export interface Replacement {
  index: number;
  mine: string;
  theirs: string;
}

/**
 * Two things in each other's relations: this statement puts a thing X in a relation (a verb, a
 * preposition or particle) where a statement of the other side puts another thing Y, another
 * statement of that side puts X in another relation, and this side puts Y in that one ("Plants
 * take in oxygen" and "… give off carbon dioxide" against "Plants take in carbon dioxide" and
 * "… give off oxygen"). Both halves must be there: "Plants take in water" is another fact, not a
 * swap. Undefined otherwise.
 */
export function swappedObjects(
  statement: StatementAnalysis,
  others: readonly StatementAnalysis[],
  own: readonly StatementAnalysis[],
  question: Pool,
): Replacement | undefined {
  if (own.length < 2 || others.length < 2) return undefined;
  const subject = statement.terms.filter((t) => t.role === "subject");
  const things = statement.terms.filter((t) => !isPredicate(t) && t.role !== "subject" && t.role !== "" && !holds(question, t));
  if (subject.length === 0 || things.length === 0) return undefined;
  const self = pool([statement]);
  const keys = new Set(statement.terms.map((t) => synonymKey(t.key)));
  const theirSide = relationIndex(others);
  const ownSide = relationIndex(own);
  for (const x of things) {
    const inOne = (terms: readonly Term[]) => terms.length > 0 && terms.every((t) => t.role === x.role);
    // The other side puts X in another relation …
    for (const [moved, holders] of theirSide.get(synonymKey(x.key)) ?? []) {
      if (moved === x.role || holders.length === 0) continue;
      // … this side puts some Y in that relation …
      for (const y of ownSide.byRole.get(moved) ?? []) {
        if (y.statement === statement || keys.has(y.key)) continue;
        // … and the other side puts Y in X's relation here, of the same subject, and says no more
        // that this statement lacks (or it is another fact, not a swap).
        for (const i of theirSide.get(y.key)?.get(x.role) ?? []) {
          const a = others[i]!;
          const there = pool([a]);
          if (!subject.some((t) => holds(there, t)) || holds(there, x)) continue;
          const mine = things.filter((t) => !holds(there, t));
          const theirs = a.terms.filter((u) => !isPredicate(u) && !holds(self, u) && !holds(question, u));
          const bothMoved = holders.some((j) => mine.every((t) => holds(pool([others[j]!]), t))) && theirs.every((u) => holds(pool([y.statement]), u));
          if (inOne(mine) && inOne(theirs) && bothMoved) return { index: i, mine: mine.map((t) => t.form).join(" "), theirs: theirs.map((u) => u.form).join(" ") };
        }
      }
    }
  }
  return undefined;
}

/** Where a side puts each thing: by its synonym key, the statements that put it in each relation; and the things in each relation. */
interface RelationIndex {
  get(key: string): ReadonlyMap<string, readonly number[]> | undefined;
  byRole: ReadonlyMap<string, ReadonlyArray<{ statement: StatementAnalysis; key: string; form: string }>>;
}

/** The relation index of a side (built once per side). */
function relationIndex(side: readonly StatementAnalysis[]): RelationIndex {
  let index = relationIndexes.get(side);
  if (index === undefined) {
    const byKey = new Map<string, Map<string, number[]>>();
    const byRole = new Map<string, Array<{ statement: StatementAnalysis; key: string; form: string }>>();
    side.forEach((a, i) => {
      for (const t of a.terms) {
        if (isPredicate(t) || t.role === "subject" || t.role === "") continue;
        const key = synonymKey(t.key);
        const roles = byKey.get(key) ?? new Map<string, number[]>();
        byKey.set(key, roles);
        const holders = roles.get(t.role) ?? [];
        roles.set(t.role, holders);
        if (holders[holders.length - 1] !== i) holders.push(i);
        const things = byRole.get(t.role) ?? [];
        byRole.set(t.role, things);
        things.push({ statement: a, key, form: t.form });
      }
    });
    index = { get: (key) => byKey.get(key), byRole };
    relationIndexes.set(side, index);
  }
  return index;
}

/** Relation indexes of the sides already read. */
const relationIndexes = new WeakMap<readonly StatementAnalysis[], RelationIndex>();

/** The pool of a statement's terms in one role ("subject", "be"), built once per statement and role. */
function termsInRole(statement: StatementAnalysis, role: string): Pool {
  let byRole = roleOnlyPools.get(statement);
  if (byRole === undefined) roleOnlyPools.set(statement, (byRole = new Map()));
  let p = byRole.get(role);
  if (p === undefined) byRole.set(role, (p = buildPool([withParts(statement, { terms: statement.terms.filter((t) => t.role === role) })])));
  return p;
}

/** Pools of one role's terms, by statement and role. */
const roleOnlyPools = new WeakMap<StatementAnalysis, Map<string, Pool>>();

/** The subject terms of an English statement (none for a Korean one, whose roles are particles). */
function englishSubject(statement: StatementAnalysis): Term[] {
  if (statement.terms.some((t) => HANGUL_WORD.test(t.key))) return [];
  return statement.terms.filter((t) => t.role === "subject" && !isPredicate(t));
}

/**
 * Another object of the same verb: this statement's subject does something to a thing the other
 * side never mentions, where a statement of the other side has the same subject do the same to
 * another thing ("Bees collect pollen" against "Bees collect nectar"). Only a verb's object: a
 * phrase of a preposition ("at sea level" against "at standard pressure") may say the same in
 * other words. English only.
 * Undefined otherwise.
 */
export function anotherObject(
  statement: StatementAnalysis,
  others: readonly StatementAnalysis[],
  other: Pool,
  question: Pool,
): Replacement | undefined {
  const subject = englishSubject(statement);
  if (subject.length === 0) return undefined;
  const self = pool([statement]);
  // Not a complement of "be": many things are true of one subject ("Vatican City is an independent
  // city-state" beside "… is the smallest country").
  const objectOf = (t: Term) => !isPredicate(t) && !["subject", "", "be"].includes(t.role) && !PREPOSITIONS.has(t.role) && !RELATION_WORDS.has(t.role);
  const verbRoles = new Set(statement.terms.filter(objectOf).map((t) => t.role));
  for (const role of verbRoles) {
    const mine = statement.terms.filter((t) => t.role === role && !isPredicate(t));
    if (mine.some((t) => holds(other, t) || holds(question, t) || aliasHeld(t, other))) continue;
    for (const [i, o] of others.entries()) {
      // The same subject as the subject there, and a noun or adjective in the object's place.
      if (!subject.every((t) => holds(termsInRole(o, "subject"), t))) continue;
      const theirs = o.terms.filter((u) => u.role === role && u.weight >= 1 && !isPredicate(u) && !holds(self, u));
      if (theirs.length > 0) return { index: i, mine: mine.map((t) => t.form).join(" "), theirs: theirs.map((u) => u.form).join(" ") };
    }
  }
  return undefined;
}

/**
 * Another answer to what the question asks, in an equation the other way round: "The hardest is
 * corundum" (its subject only the question's words) against "Diamond is the hardest mineral" (the
 * question's words equated with another noun, its subject). The noun it gives must be one the
 * other side never mentions. English only. Undefined otherwise.
 */
export function anotherAnswer(
  statement: StatementAnalysis,
  others: readonly StatementAnalysis[],
  other: Pool,
  question: Pool,
): Replacement | undefined {
  const subject = englishSubject(statement);
  if (subject.length === 0 || !subject.every((t) => holds(question, t))) return undefined;
  const mine = statement.terms.filter((t) => t.role === "be" && t.weight >= 1.5 && !holds(question, t));
  if (mine.length === 0 || mine.some((t) => holds(other, t) || aliasHeld(t, other))) return undefined;
  const self = pool([statement]);
  for (const [i, o] of others.entries()) {
    if (!subject.every((t) => holds(termsInRole(o, "be"), t))) continue;
    const theirs = o.terms.filter((u) => u.role === "subject" && u.weight >= 1.5 && !isPredicate(u) && !holds(self, u) && !holds(question, u));
    if (theirs.length > 0) return { index: i, mine: mine.map((t) => t.form).join(" "), theirs: theirs.map((u) => u.form).join(" ") };
  }
  return undefined;
}

/** A name, or a Korean noun marked as subject or topic (세종은, 경찰이): what a statement is about. */
function isHolder(t: Term): boolean {
  return HANGUL_WORD.test(t.key) ? t.role === "subject" || t.role === "topic" : t.entity;
}

/**
 * A value that the other side gives to another thing, where it gives this statement's thing
 * another value in a parallel statement (two statements that share a frame of at least two
 * terms): "경찰은 119" against "화재 신고 번호는 119번" and "경찰 신고 번호는 112번"; "general
 * relativity came in 1905" against "special … in 1905" and "general … in 1915". Undefined
 * otherwise.
 */
export function crossedValue(statement: StatementAnalysis, others: readonly StatementAnalysis[]): { index: number; value: string; term: string; theirs: string } | undefined {
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
export function deniedThere(statement: StatementAnalysis, other: StatementAnalysis): boolean {
  return statement.negations.length > 0 && other.negations.length === 0;
}
