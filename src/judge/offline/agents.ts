/**
 * Who does what, and which modifier goes with which noun: the doer of each verb of an English
 * statement, the subject of an active verb ("the President confirms them") or the by-phrase of a
 * passive one ("is nominated by the President"); and its noun phrases by their head noun. Two
 * doers swapped between two verbs ("nominated by the Senate … the President confirms" against
 * "nominated by the President … confirmed by the Senate") and two modifiers swapped between two
 * phrases of one noun ("a solid outer core and a liquid inner core") are classic wrong answers,
 * which word overlap alone takes for a match.
 */
import type { StatementAnalysis } from "./analyze";
import { englishTokens, type EnglishToken } from "./english";
import { synonymKey } from "./lexicon";
import { HAS_HANGUL } from "./text";

/** A verb and the nouns of who does it, as synonym keys. */
interface Deed {
  verb: string;
  doer: ReadonlySet<string>;
  /** The doer's nouns as written, for reasons. */
  written: string;
}

/** The tags of the nouns that name who does a thing. */
const NOUNISH = new Set(["NOUN", "PROPN"]);

/** The nouns of the phrase starting at token `from`, up to the first word that is not part of it. */
function phraseNouns(tokens: readonly EnglishToken[], from: number, to = tokens.length): EnglishToken[] {
  const out: EnglishToken[] = [];
  for (let k = from; k < to; k++) {
    const t = tokens[k]!;
    if (NOUNISH.has(t.pos)) out.push(t);
    else if (t.pos !== "DET" && t.pos !== "ADJ" && t.pos !== "NUM") break;
  }
  return out;
}

/** A deed of `verb` by the nouns `nouns`, or undefined without any. */
function deed(verb: string, nouns: readonly EnglishToken[]): Deed | undefined {
  return nouns.length === 0 ? undefined : { verb, doer: new Set(nouns.map((t) => synonymKey(t.lemma))), written: nouns.map((t) => t.text).join(" ") };
}

/** Whether the verb at `i` is passive: a form of "be" or "get" before it, with only adverbs, "not" or a modal between. */
function passive(tokens: readonly EnglishToken[], i: number): boolean {
  for (let k = i - 1; k >= 0; k--) {
    const t = tokens[k]!;
    if (t.pos === "AUX" && (t.lemma === "be" || t.lemma === "get")) return true;
    if (t.pos !== "ADV" && t.pos !== "PART" && t.pos !== "AUX") return false;
  }
  return false;
}

/** Deeds of statements already read. */
const deedsRead = new WeakMap<StatementAnalysis, readonly Deed[]>();

/**
 * The deeds of a statement: each verb with who does it, where the statement says who. The
 * subject (the nouns before the first verb) does every active verb; a passive verb's doer is
 * its by-phrase.
 */
export function deedsOf(statement: StatementAnalysis): readonly Deed[] {
  const known = deedsRead.get(statement);
  if (known !== undefined) return known;
  const deeds: Deed[] = [];
  if (!HAS_HANGUL.test(statement.text) && /\S\s+\S/.test(statement.text)) {
    const tokens = englishTokens(statement.text);
    const first = tokens.findIndex((t) => t.pos === "VERB" || t.pos === "AUX");
    const subject = first > 0 ? tokens.slice(0, first).filter((t) => NOUNISH.has(t.pos)) : [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.pos !== "VERB") continue;
      let found: Deed | undefined;
      if (passive(tokens, i)) {
        // The by-phrase after it, before another verb.
        let k = i + 1;
        while (k < tokens.length && tokens[k]!.pos !== "VERB" && !/^by$/i.test(tokens[k]!.text)) k++;
        if (k < tokens.length && /^by$/i.test(tokens[k]!.text)) found = deed(t.lemma, phraseNouns(tokens, k + 1));
      } else {
        found = deed(t.lemma, subject);
      }
      if (found) deeds.push(found);
    }
  }
  deedsRead.set(statement, deeds);
  return deeds;
}

function overlaps(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}

/**
 * Two doers swapped between two verbs: this statement has X do V; a statement of the other side
 * has Y do V, the other side has X do another verb W, and this side has Y do W. Returns the other
 * side's statement that has Y do V, with X and Y as written keys; undefined otherwise.
 *
 * @example
 * // "Candidates are nominated by the Senate" with "The President confirms them", against
 * // "Each justice is nominated by the President" and "… must be confirmed by the Senate":
 * // the Senate where it says the President.
 */
export function swappedDoers(
  statement: StatementAnalysis,
  own: readonly StatementAnalysis[],
  others: readonly StatementAnalysis[],
): { index: number; mine: string; theirs: string } | undefined {
  const mine = deedsOf(statement);
  if (mine.length === 0) return undefined;
  const theirDeeds = others.flatMap((x) => deedsOf(x));
  for (const done of mine) {
    // The other side has X do another verb W …
    const w = theirDeeds.find((d) => d.verb !== done.verb && overlaps(d.doer, done.doer));
    if (w === undefined) continue;
    for (const [index, o] of others.entries()) {
      for (const theirs of deedsOf(o)) {
        if (theirs.verb !== done.verb || overlaps(theirs.doer, done.doer)) continue;
        // … and Y do V, and this side has Y do W.
        const back = own.some((x) => deedsOf(x).some((d) => d.verb === w.verb && overlaps(d.doer, theirs.doer)));
        if (back) return { index, mine: done.written, theirs: theirs.written };
      }
    }
  }
  return undefined;
}

/** A noun phrase: its words' keys sorted (to compare), and as written (for reasons). */
interface Phrase {
  key: string;
  text: string;
}

/** Phrases of statements already read. */
const phrasesRead = new WeakMap<StatementAnalysis, ReadonlyMap<string, readonly Phrase[]>>();

/** The noun phrases of an English statement (adjectives and nouns ending in a noun) by their head noun. */
function phrasesByHead(statement: StatementAnalysis): ReadonlyMap<string, readonly Phrase[]> {
  const known = phrasesRead.get(statement);
  if (known !== undefined) return known;
  const out = new Map<string, Phrase[]>();
  phrasesRead.set(statement, out);
  if (HAS_HANGUL.test(statement.text)) return out;
  const tokens = englishTokens(statement.text);
  let run: EnglishToken[] = [];
  const close = (): void => {
    while (run.length > 0 && run[run.length - 1]!.pos !== "NOUN") run.pop();
    if (run.length >= 2) {
      const head = synonymKey(run[run.length - 1]!.lemma);
      const phrase = { key: run.map((t) => synonymKey(t.lemma)).sort().join(" "), text: run.map((t) => t.text).join(" ") };
      out.set(head, [...(out.get(head) ?? []), phrase]);
    }
    run = [];
  };
  for (const t of tokens) {
    if (t.pos === "ADJ" || t.pos === "NOUN") run.push(t);
    else close();
  }
  close();
  return out;
}

/**
 * Modifiers swapped between two phrases of the same noun in one statement: "a solid outer core
 * and a liquid inner core" against "a liquid outer core and a solid inner core". Both say the same
 * words of the same noun, paired otherwise. Returns a phrase of each as written; undefined
 * otherwise.
 */
export function swappedModifiers(statement: StatementAnalysis, others: readonly StatementAnalysis[]): { index: number; mine: string; theirs: string } | undefined {
  // Only a statement with two phrases of one noun can have their modifiers swapped (few have).
  const mine = [...phrasesByHead(statement)].filter(([, phrases]) => phrases.length >= 2);
  if (mine.length === 0) return undefined;
  const words = (list: readonly Phrase[]) => list.flatMap((p) => p.key.split(" ")).sort().join(" ");
  for (const [index, o] of others.entries()) {
    const theirs = phrasesByHead(o);
    for (const [head, phrases] of mine) {
      const there = theirs.get(head);
      if (there === undefined || there.length !== phrases.length || words(phrases) !== words(there)) continue;
      const odd = phrases.find((p) => !there.some((q) => q.key === p.key));
      const other = there.find((q) => !phrases.some((p) => p.key === q.key));
      if (odd !== undefined && other !== undefined) return { index, mine: odd.text, theirs: other.text };
    }
  }
  return undefined;
}
