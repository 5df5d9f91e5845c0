/**
 * What one side of a comparison holds, for the offline judge's statement
 * classifier: a pool of terms and values (one statement's, or a whole
 * side's), and whether it holds a term: the same word, a synonym, a close
 * inflection (Korean stems across endings, plurals, -ing forms), or another
 * name of the same country or state.
 */
import type { StatementAnalysis, Term } from "./analyze";
import { Memo } from "./memo";
import { NAME_ALIASES, synonymKey } from "./lexicon";
import { HANGUL_WORD } from "./text";
import type { TextValue } from "./values";

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

const recentJamo = new Memo<number[]>(12_500);

function jamo(word: string): number[] {
  return recentJamo.get(word, readJamo);
}

/** Whether `b` is the -ing form of the verb `a`: swim → swimming, use → using, play → playing. */
function isGerundOf(a: string, b: string): boolean {
  if (a.length < 3 || !b.endsWith("ing") || b.length < a.length + 3) return false;
  const stem = b.slice(0, -3);
  return stem === a || (stem.length === a.length + 1 && stem.startsWith(a) && stem.at(-1) === a.at(-1)) || `${stem}e` === a;
}

const HAS_DIGIT = /\d/u;

/** Whether two term keys name the same thing: equal, or one a close inflection of the other. */
export function sameTerm(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.charCodeAt(0) !== b.charCodeAt(0)) return false;
  // A name with a number ("covid-19", "apollo 11", "a380") is that number's thing: no near spelling is it.
  if (HAS_DIGIT.test(a) || HAS_DIGIT.test(b)) return a.replace(/[-\s]/gu, "") === b.replace(/[-\s]/gu, "");
  if (HANGUL_WORD.test(a) && HANGUL_WORD.test(b)) {
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
  // Two forms of one word differ in an ending ("photosynthesis" / "photosynthesise"), not in a
  // root ("convex" / "converge", "diverge" / "diverse": each goes on with another consonant).
  return prefix >= Math.max(5, min - 2) && Math.abs(a.length - b.length) <= 3 && !rootsPart(a.slice(prefix), b.slice(prefix));
}

/** Whether two words' different ends both open with a consonant, and not the same one: another root, not another ending. */
function rootsPart(x: string, y: string): boolean {
  const consonant = (c: string | undefined) => c !== undefined && /[b-df-hj-np-tv-z]/u.test(c);
  return consonant(x[0]) && consonant(y[0]) && x[0] !== y[0];
}

/** The content of one side (or the question) pooled: terms by key, values, and the statements behind them. */
export interface Pool {
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

/** The pool of some statements (a whole side, or the question), built afresh; {@link pool} keeps one statement's. */
export function buildPool(analyses: readonly StatementAnalysis[]): Pool {
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
  const synonyms = new Set(terms.map((t) => synonymKey(t.key)));
  for (const a of analyses) for (const joined of koreanCompounds(a.terms)) synonyms.add(joined.key);
  return { terms, synonyms, byInitial, held: new Map(), values, analyses };
}

/**
 * Korean compounds written with spaces, as one word: a run of up to three Hangul terms, all but
 * the last without a particle ("국립 중앙 박물관에" → "국립중앙박물관", "다 빈치가" → "다빈치"),
 * since spacing inside a compound noun is the writer's choice. Each with the terms it joins.
 */
export function koreanCompounds(terms: readonly Term[]): Array<{ key: string; parts: readonly Term[] }> {
  const out: Array<{ key: string; parts: readonly Term[] }> = [];
  for (let i = 0; i < terms.length; i++) {
    if (terms[i]!.role !== "" || !HANGUL_ONLY.test(terms[i]!.key)) continue;
    for (let n = 2; n <= 3 && i + n <= terms.length; n++) {
      const parts = terms.slice(i, i + n);
      if (!parts.every((t) => HANGUL_ONLY.test(t.key)) || !parts.slice(0, -1).every((t) => t.role === "")) break;
      out.push({ key: parts.map((t) => t.key).join(""), parts });
    }
  }
  return out;
}

/** A key of Hangul syllables only. */
const HANGUL_ONLY = /^[\uAC00-\uD7A3]+$/u;

const singlePools = new WeakMap<StatementAnalysis, Pool>();

/** The pool of one statement (built once per statement) or of several. */
export function pool(analyses: readonly StatementAnalysis[]): Pool {
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

/** Whether a pool holds a term (the answer is kept in the pool: terms are asked about again and again). */
export function holds(p: Pool, t: Term): boolean {
  let answer = p.held.get(t);
  if (answer === undefined) {
    answer = hasTerm(p, t.key, t.acronym);
    // One statement's pool is asked about every term of the other side: past a few, asking
    // again costs less than keeping the answers (a row of 1,000 statements a side kept millions).
    if (p.analyses.length !== 1 || p.held.size < HELD_PER_STATEMENT) p.held.set(t, answer);
  }
  return answer;
}

/** Answers of {@link holds} kept for one statement's pool. */
const HELD_PER_STATEMENT = 64;

/** Whether a statement of the pool writes the word in lower case (then, capitalised elsewhere, it is no name). */
export function hasLowerWord(p: Pool, word: string): boolean {
  return p.analyses.some((a) => a.lowerWords.includes(word));
}

/** A name, unless the word is also written in lower case (a capitalised first word such as "Water"). */
export function isName(t: Term, ...pools: readonly Pool[]): boolean {
  return t.entity && !pools.some((p) => hasLowerWord(p, t.key));
}

/** Whether a pool holds another name of the country or state `t` names ("United Kingdom" for "Britain"). */
export function aliasHeld(t: Term, p: Pool): boolean {
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

/** A term key's entries in a {@link SideIndex}: its synonym key, its first letter and its first two (see {@link sameTerm}). */
interface IndexKeys {
  synonym: string;
  first: string;
  firstTwo: string;
  /** Where it is looked for besides its synonym key: near spellings share the first letter (a Korean word) or the first two (any other word). */
  near: string;
}

function readIndexKeys(key: string): IndexKeys {
  const first = `1:${key.charAt(0)}`;
  const firstTwo = `2:${key.slice(0, 2)}`;
  return { synonym: `s:${synonymKey(key)}`, first, firstTwo, near: HANGUL_WORD.test(key) ? first : firstTwo };
}

// Kept by key: the same terms' keys are indexed and looked up again and again.
const recentIndexKeys = new Memo<IndexKeys>(12_500);

function indexKeys(key: string): IndexKeys {
  return recentIndexKeys.get(key, readIndexKeys);
}

/** The statements of one side by what they hold, for {@link statementsThatMayHold}. */
type SideIndex = Map<string, number[]>;

const sideIndexes = new WeakMap<readonly StatementAnalysis[], SideIndex>();

function sideIndex(side: readonly StatementAnalysis[]): SideIndex {
  let index = sideIndexes.get(side);
  if (index) return index;
  index = new Map();
  const add = (key: string, i: number): void => {
    const list = index!.get(key);
    if (list === undefined) index!.set(key, [i]);
    else if (list[list.length - 1] !== i) list.push(i);
  };
  side.forEach((a, i) => {
    for (const t of a.terms) {
      const keys = indexKeys(t.key);
      add(keys.synonym, i);
      add(keys.first, i);
      add(keys.firstTwo, i);
    }
  });
  sideIndexes.set(side, index);
  return index;
}

const initialsIndexes = new WeakMap<readonly StatementAnalysis[], SideIndex>();

/**
 * The statements of one side by the initials of their runs of words, built only when an acronym
 * is looked up (most sides are never asked, and the initials of every run cost more than the rest).
 */
function initialsIndex(side: readonly StatementAnalysis[]): SideIndex {
  let index = initialsIndexes.get(side);
  if (index) return index;
  index = new Map();
  side.forEach((a, i) => {
    for (const initial of a.initials) {
      const list = index!.get(initial);
      if (list === undefined) index!.set(initial, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  initialsIndexes.set(side, index);
  return index;
}

/**
 * The indices (ascending) of the statements of `side` whose pool may hold
 * one of `terms` ({@link holds}): every statement that does is among them.
 * A loop that only counts what a statement holds can skip the others,
 * which makes judging a side of n statements against the other side close
 * to linear instead of n × n.
 *
 * @example
 * statementsThatMayHold(references, statement.terms) // e.g. [0, 3]
 */
export function statementsThatMayHold(side: readonly StatementAnalysis[], terms: readonly Term[]): number[] {
  const index = sideIndex(side);
  // Marked by index and read back in order between the lowest and the highest marked (no set, no sort).
  const seen = new Uint8Array(side.length);
  let low = side.length;
  let high = -1;
  const take = (list: readonly number[] | undefined): void => {
    if (list === undefined) return;
    for (const i of list) {
      seen[i] = 1;
      if (i < low) low = i;
      if (i > high) high = i;
    }
  };
  for (const t of terms) {
    const keys = indexKeys(t.key);
    take(index.get(keys.synonym));
    take(index.get(keys.near));
    if (t.acronym) take(initialsIndex(side).get(t.key));
  }
  const found: number[] = [];
  for (let i = low; i <= high; i++) if (seen[i] === 1) found.push(i);
  return found;
}
