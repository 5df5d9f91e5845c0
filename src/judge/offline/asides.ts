/**
 * Asides of an English sentence said as claims of their own: a bracketed
 * note after a name or quantity ("1984 (Nineteen Eighty-Four)", "8,849 m
 * (29,032 ft)") and an apposition that closes the sentence ("… George
 * Orwell, the pen name of Eric Arthur Blair."). Left in, an aside the
 * reference does not give made the whole sentence false; taken out, the
 * sentence is judged on what it says, and the aside on its own.
 */

import { findValues, type TextValue } from "./values";

/** A bracketed note of at most 80 characters after a space (not a call: "COUNT(*)", "O(log n)"). */
const BRACKETED = /\s+\(([^()]{1,80})\)/gu;

/**
 * The name or quantity a note is about: a number and up to three words of its unit ("100 degrees
 * Celsius"), or up to three capitalised words or numbers and the last word ("Mount Everest").
 */
const HEAD = /((?:\p{N}[\p{N},.]*\s*(?:[\p{L}°%]+\s+){0,2}[\p{L}°%]+)|(?:(?:[\p{Lu}\p{N}][\p{L}\p{N}'’.,-]*\s+){0,3}[\p{L}\p{N}'’.%°-]+))\s*$/u;


/** An apposition closing a sentence after a name: ", the pen name of …", ", a city in …". */
const CLOSING_APPOSITION = /((?:\p{Lu}[\p{L}'’.-]*\s+){0,3}\p{Lu}[\p{L}'’.-]*),\s+((?:the|a|an)\s+[^,;:()]{3,80}?)([.!?]?)$/u;

/** Notes that are no claim: a hedge, a cross-reference, a pronunciation, an abbreviation's letters alone. */
const NOT_A_CLAIM = /^(?:e\.g\.|i\.e\.|see\b|cf\.|pronounced\b|sic\b|approx\.?$|roughly$|about$|note\b|though\b|although\b|but\b|and\b|or\b|if\b|as\b|which\b|who\b|i\b|we\b|you\b|it\b|maybe\b|perhaps\b|probably\b)/iu;

/** A note that is only numbers: a year, a range of years, a count ("(1939–1945)", "(10)"): it stays where it is. */
const ONLY_NUMBERS = /^[\p{N}\s.,:/–—-]+$/u;

/**
 * The sentence without its asides, and each aside as a claim of its own
 * ("<head> is <aside>"); one that names nothing is left in place. (Dropping
 * the notes that only name their head again, "(CO2)", "(29,032 ft)", was
 * measured and ranked answers worse: references hold such notes too.)
 *
 * @example
 * withoutAsides("1984 (Nineteen Eighty-Four) was written by George Orwell, the pen name of Eric Arthur Blair.");
 * // → { main: "1984 was written by George Orwell.",
 * //     asides: ["1984 is Nineteen Eighty-Four.", "George Orwell is the pen name of Eric Arthur Blair."] }
 */
export function withoutAsides(sentence: string): { main: string; asides: string[] } {
  const asides: string[] = [];
  sentence = sentence.trim();
  let values: readonly TextValue[] | undefined;
  let main = sentence.replace(BRACKETED, (whole: string, note: string, offset: number) => {
    const content = note.trim();
    const found = HEAD.exec(sentence.slice(0, offset));
    // A head that starts inside a number takes all of it ("6.02 × 10²³ particles", not "10²³ particles").
    const inside = found === null ? undefined : (values ??= findValues(sentence)).find((v) => v.start < found.index && found.index < v.end);
    const head = (inside === undefined ? found?.[1] : sentence.slice(inside.start, offset))?.trim();
    if (!/[\p{L}\p{N}]/u.test(content)) return ""; // "(,)": nothing
    if (head === undefined || NOT_A_CLAIM.test(content) || ONLY_NUMBERS.test(content)) return whole;
    asides.push(`${head} is ${content}.`);
    return "";
  });
  const apposition = CLOSING_APPOSITION.exec(main);
  // Only after a verb: "Paris, the capital of France." alone is the answer, not an aside.
  if (apposition !== null && /\s\p{Ll}+(?:ed|s)?\s/u.test(main.slice(0, apposition.index + 1) + " ")) {
    asides.push(`${apposition[1]} is ${apposition[2]}.`);
    main = `${main.slice(0, apposition.index)}${apposition[1]}${apposition[3]}`;
  }
  return { main: main.replace(/\s{2,}/gu, " "), asides };
}

