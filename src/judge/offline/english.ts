/**
 * English tokens for the offline judge, from wink-nlp and its shipped
 * English model (wink-eng-lite-web-model): part-of-speech tags and lemmas. Loaded on first use (about 0.3 s), so that
 * importing evalframe does not pay for it; nothing is downloaded.
 */
import type { ItemToken, WinkMethods } from "wink-nlp";
import { Memo } from "./memo";
import { foldAccents } from "./text";

/** One token of an English text. */
export interface EnglishToken {
  /** As written. */
  text: string;
  /** Lower-cased lemma ("born" → "bear", "discovered" → "discover"). */
  lemma: string;
  /** Universal POS tag: NOUN, PROPN, VERB, ADJ, ADV, NUM, ADP, PRON, DET, AUX, PART, PUNCT, SYM, CCONJ, SCONJ, … */
  pos: string;
  /** Where the token starts and ends in its text. */
  start: number;
  end: number;
}

let instance: WinkMethods | undefined;

function nlp(): WinkMethods {
  if (instance === undefined) {
    // CommonJS packages without type exports for the model: load them as values.
    // Only the part-of-speech step runs (lemmas come with it): sentences are split
    // before wink sees a text, and entities and sentiment are not needed.
    const winkNLP = require("wink-nlp") as (model: unknown, pipe?: string[]) => WinkMethods;
    const model = require("wink-eng-lite-web-model") as unknown;
    instance = winkNLP(model, ["pos"]);
  }
  return instance;
}

/**
 * The longest text handed to wink in one piece. Longer texts are cut at
 * line breaks or spaces first, so that the cost stays linear in the length.
 */
const MAX_PIECE = 20_000;

function pieces(text: string): string[] {
  if (text.length <= MAX_PIECE) return [text];
  const out: string[] = [];
  let from = 0;
  while (from < text.length) {
    let to = Math.min(text.length, from + MAX_PIECE);
    if (to < text.length) {
      const cut = Math.max(text.lastIndexOf("\n", to), text.lastIndexOf(". ", to), text.lastIndexOf(" ", to));
      if (cut > from + MAX_PIECE / 2) to = cut + 1;
    }
    out.push(text.slice(from, to));
    from = to;
  }
  return out;
}

/**
 * Tokens of recently read texts. Every text is read on its own, never as a
 * piece of another, so its tokens (and all that follows from them) depend on
 * the text alone, whatever was read before.
 */
const recent = new Memo<readonly EnglishToken[]>(5_000);

type OutArgument = Parameters<ItemToken["out"]>[0];

/**
 * Tokenises English text with wink-nlp: each token with its lemma and POS
 * tag. The same text is read once (recent texts are remembered).
 *
 * @example
 * englishTokens("Einstein was born in 1879.").map((t) => `${t.lemma}/${t.pos}`);
 * // → ["einstein/PROPN", "be/AUX", "bear/VERB", "in/ADP", "1879/NUM", "./PUNCT"]
 */
export function englishTokens(text: string): readonly EnglishToken[] {
  return recent.get(text, readTokens);
}

function readTokens(text: string): EnglishToken[] {
  const tokens: EnglishToken[] = [];
  const its = nlp().its;
  let offset = 0;
  // Accents folded, one character for one: wink splits a word at a letter it does not know ("Bedřich").
  for (const piece of pieces(foldAccents(text))) {
    const all = nlp().readDoc(piece).tokens();
    const words = all.out() as string[];
    const pos = all.out(its.pos as OutArgument) as unknown as string[];
    const lemmas = all.out(its.lemma as OutArgument) as unknown as string[];
    let cursor = 0;
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      const at = piece.indexOf(word, cursor);
      const start = at >= 0 ? at : cursor;
      if (at >= 0) cursor = start + word.length;
      tokens.push({ text: word, lemma: String(lemmas[i] ?? "").toLowerCase(), pos: String(pos[i] ?? "X"), start: offset + start, end: offset + start + word.length });
    }
    offset += piece.length;
  }
  return withVerbs(withSurnames(withAdjectiveOpeners(text, tokens)));
}

/**
 * The tagger takes an adjective or a plural noun that opens a sentence, capitalised, for a name
 * ("Higher interest rates …", "Red blood cells …", "Dolphins are mammals"). A capitalised first
 * word tagged as a name, before a lower-case noun, is read again in lower case: if it is an
 * adjective or adverb there, it is one. A name stays a name ("Paris hotels": "paris" is no
 * adjective either).
 */
function withAdjectiveOpeners(text: string, tokens: EnglishToken[]): EnglishToken[] {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const opens = i === 0 || /^[.!?:;]$/.test(tokens[i - 1]!.text);
    const next = tokens[i + 1];
    if (!opens || t.pos !== "PROPN" || !/^\p{Lu}\p{Ll}+$/u.test(t.text) || next === undefined) continue;
    const lower = t.text.toLowerCase();
    // A plural common noun ("Dolphins are mammals", "Newborns start with …"): in lower case, a noun
    // whose lemma drops its plural ending; a name ending in s keeps it ("athens", "jones").
    if (/s$/.test(lower) && (next.pos === "VERB" || next.pos === "AUX" || (next.pos === "NOUN" && /^\p{Ll}/u.test(next.text)))) {
      const [plural] = englishTokens(`${lower} ${text.slice(next.start, next.end)}`);
      if (plural !== undefined && plural.text === lower && plural.pos === "NOUN" && plural.lemma !== lower) {
        tokens[i] = { ...t, pos: "NOUN", lemma: plural.lemma };
        continue;
      }
    }
    if (next.pos !== "NOUN" || !/^\p{Ll}/u.test(next.text)) continue;
    const [again] = englishTokens(`${lower} ${text.slice(next.start, next.end)}`);
    if (again !== undefined && again.text === lower && (again.pos === "ADJ" || again.pos === "ADV")) tokens[i] = { ...t, pos: again.pos, lemma: again.lemma };
  }
  return tokens;
}

/** Tags that may follow a verb's first word in a clause: its object or complement. */
const OBJECT_START = new Set(["DET", "NOUN", "PROPN", "ADJ", "NUM", "PRON"]);

/**
 * The tagger reads some surnames as verbs or nouns ("Francis Crick proposed": "Crick" a verb;
 * "Anna Park met": "Park" a noun): a capitalised word so tagged, right after a name and right
 * before a verb, is part of the name.
 */
function withSurnames(tokens: EnglishToken[]): EnglishToken[] {
  for (let i = 1; i + 1 < tokens.length; i++) {
    const t = tokens[i]!;
    if ((t.pos !== "VERB" && t.pos !== "NOUN") || !/^\p{Lu}\p{Ll}+$/u.test(t.text)) continue;
    const next = tokens[i + 1]!.pos;
    if (tokens[i - 1]!.pos === "PROPN" && (next === "VERB" || next === "AUX")) tokens[i] = { ...t, pos: "PROPN", lemma: t.text.toLowerCase() };
  }
  return tokens;
}

/**
 * The tagger reads some plural subjects and their verb as one compound noun ("Plants release
 * oxygen": "Plants release" a noun): in a sentence with no verb at all, a lower-case noun right
 * after a plural noun, with an object after it, is the verb. A sentence with a verb, or without
 * a plural before the noun ("Credit card payments"), is left as it was tagged.
 */
function withVerbs(tokens: EnglishToken[]): EnglishToken[] {
  let from = 0;
  for (let i = 0; i <= tokens.length; i++) {
    if (i < tokens.length && !/^[.!?;]$/.test(tokens[i]!.text)) continue;
    const sentence = tokens.slice(from, i);
    if (!sentence.some((t) => t.pos === "VERB" || t.pos === "AUX")) {
      const at = sentence.findIndex((t, k) => {
        const before = sentence[k - 1];
        const after = sentence[k + 1];
        return (
          k > 0 && t.pos === "NOUN" && /^\p{Ll}+$/u.test(t.text) && !/s$/.test(t.text) &&
          before !== undefined && (before.pos === "NOUN" || before.pos === "PROPN") && /\p{L}s$/u.test(before.text) &&
          after !== undefined && OBJECT_START.has(after.pos)
        );
      });
      if (at >= 0) tokens[from + at] = { ...sentence[at]!, pos: "VERB" };
    }
    from = i + 1;
  }
  return tokens;
}
