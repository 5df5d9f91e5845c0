/**
 * What the offline judge reads in a statement: weighted content terms
 * (lemmas), named entities, typed values, the slots they fill, its polarity,
 * and whether it is a refusal. English goes through wink-nlp (POS tags and
 * lemmas); Korean through particle and ending stripping; both through the
 * language-agnostic value finder.
 */
import { englishTokens } from "./english";
import { Memo } from "./memo";
import { phrasalVerb } from "./lexicon";
import { foldAccents, HANGUL_WORD, HAS_HANGUL, isNegation, stripKoreanEnding, STOP_WORDS } from "./text";
import { findValues, type TextValue } from "./values";
import { ownKeys } from "./own-keys";

/** A content word of a statement. */
export interface Term {
  /** Lemma (English) or stem (Korean), lower-cased: what terms are matched by. */
  key: string;
  /** As written, for reasons. */
  form: string;
  /** How much it says: names 2, nouns 1.5, adjectives and Korean words 1, verbs 0.75, adverbs 0.5. */
  weight: number;
  /** A proper noun (English PROPN), part of a named entity. */
  entity: boolean;
  /** The slot it fills: the preposition or verb before it (English), or its particle (Korean). */
  role: string;
  /** Written in capitals ("EPS", "DNA"): may be spelled out on the other side. */
  acronym: boolean;
  /** For a name, the whole name it is part of ("william shakespeare"); "" otherwise. */
  group: string;
}

/** The offline judge's reading of one statement. */
export interface StatementAnalysis {
  text: string;
  /** Distinct content terms, values excluded, in order of first appearance. */
  terms: Term[];
  /** Values (numbers, dates, quantities). */
  values: TextValue[];
  /** Negation cues found ("not", "never", "않"). */
  negations: string[];
  /**
   * The keys of the content terms that English negations of a verb ("not", "n't", "never") deny:
   * those after the negation in its clause, up to its first noun ("flow", "noticeable",
   * "timescale" in "glass does not flow on any noticeable timescale"; "vegetable" in "it is not a
   * vegetable in that sense"). Undefined where a negation denies the whole statement: "no",
   * "nobody", a frame ("It is not true that …"), a negation with nothing after it in its clause,
   * Korean.
   */
  denied?: readonly string[];
  /** A refusal or "I don't know": supports nothing. */
  refusal: boolean;
  /** Lower-cased words written in lower case somewhere (to tell "Water" at a sentence start from a name). */
  lowerWords: readonly string[];
  /** Initials of every run of 2–6 words ("earnings per share" → "eps"), to find acronyms. */
  initials: ReadonlySet<string>;
}

const FUNCTION_WORDS: ReadonlySet<string> = new Set(["of", "and", "the", "for", "in", "on", "to", "a", "an", "&"]);

/** Initials of every run of 2–6 words, with and without function words. */
function initialsOf(text: string): Set<string> {
  const out = new Set<string>();
  if (!/[A-Za-z]/.test(text)) return out;
  const words = text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  const content = words.filter((w) => !FUNCTION_WORDS.has(w));
  for (const list of [words, content]) {
    for (let i = 0; i < list.length; i++) {
      let acronym = list[i]!.charAt(0);
      for (let n = 2; n <= 6 && i + n - 1 < list.length; n++) {
        acronym += list[i + n - 1]!.charAt(0);
        out.add(acronym);
      }
    }
  }
  return out;
}

const ACRONYM = /^\p{Lu}{2,6}$/u;

/** Lemmas that carry no content even when tagged as content words. */
const LIGHT_LEMMAS: ReadonlySet<string> = new Set([
  "be", "have", "do", "get", "make", "take", "give", "go", "come", "say", "call", "know", "use", "also", "very",
  "really", "just", "exactly", "about", "around", "roughly", "approximately", "nearly", "almost", "so",
  "thing", "way", "lot", "kind", "type", "part", "example", "fact", "yes", "no", "well", "believe", "think",
  "often", "usually", "generally", "typically", "actually", "mostly", "each", "other", "same", "such",
  "there", "here", "then", "now", "still", "even", "ever", "much", "many", "more", "most", "several", "certain",
]);

/** Korean words that carry no content: copulas, light verbs, hedges and politeness. */
const KOREAN_LIGHT: ReadonlySet<string> = new Set([
  "이", "있", "하", "되", "것", "수", "등", "및", "그", "이것", "저", "제", "약", "대략", "정도", "때문", "위해", "통해",
  "입니다", "이다", "있다", "합니다", "한다", "된다", "네", "예", "아니요", "아니오", "그렇", "그렇다",
  // Adverbs and connectives that carry no fact: 이렇게 네 개, 모두 다섯, 그중 한 쌍.
  "이렇게", "그렇게", "모두", "각각", "전부", "그중", "즉", "다만", "그리고", "또한", "참고로", "바로",
]);

/** Lower-case words inside names ("da" of "Leonardo da Vinci"). */
export const NAME_PARTICLE = /^(?:da|de|del|della|di|van|von|der|den|la|le|du|bin|ibn|al|el)$/;

/** Refusals and "I don't know", in English and Korean. */
const REFUSAL =
  /\b(?:i\s+(?:do\s+not|don't|dont)\s+know|i(?:'m| am)\s+not\s+(?:sure|certain|confident)|i(?:'d|\s+would)\s+rather\s+not\s+(?:guess|say|answer|speculate)|i\s+(?:can't|cannot|don't|do\s+not)\s+(?:recall|remember)|i\s+(?:don't|do\s+not)\s+have\s+(?:reliable|enough|that|this|any)\s+information|i\s+(?:cannot|can't|can\s+not|am\s+unable\s+to|'m\s+unable\s+to)\s+(?:answer|help|say|tell|provide|determine|find)|(?:i\s+have|there\s+is)\s+no\s+(?:information|data|knowledge)|no\s+idea|unable\s+to\s+(?:answer|determine)|as\s+an\s+ai\b|not\s+(?:able|possible)\s+to\s+(?:answer|say))|모르겠|잘\s*모릅니다|알\s*수\s*없|답변(?:할|드릴)\s*수\s*없|답(?:할|하기)\s*(?:수\s*)?(?:없|어렵)|대답할\s*수\s*없|정보가\s*없/iu;

/** Whether a statement refuses to answer or says it does not know. */
export function isRefusal(text: string): boolean {
  return REFUSAL.test(text);
}

const POS_WEIGHT: Readonly<Record<string, number>> = ownKeys<number>({ PROPN: 1.5, NOUN: 1.5, ADJ: 1, VERB: 0.75, ADV: 0.5, X: 1 });

/** Korean particles that mark a slot, longest first: subject, topic, object, place/time, instrument, possessive. */
const KOREAN_ROLES: ReadonlyArray<readonly [string, string]> = [
  ["에서는", "에서"], ["에서", "에서"], ["으로", "로"], ["에게", "에게"], ["에는", "에"], ["까지", "까지"], ["부터", "부터"],
  ["은", "topic"], ["는", "topic"], ["이", "subject"], ["가", "subject"], ["을", "object"], ["를", "object"],
  ["의", "of"], ["에", "에"], ["로", "로"], ["와", "with"], ["과", "with"],
];

/** A copula after a particle ("데이턴에서였습니다", "서울에서입니다"): the slot is the particle's. */
const KOREAN_COPULA_AFTER_PARTICLE = /(?<=(?:에서|에|으로|로|까지|부터))(?:이었습니다|이었다|였습니다|였다|였어요|입니다|이다|이에요|예요|이고|이며)$/u;

function koreanRole(written: string): string {
  const word = written.replace(KOREAN_COPULA_AFTER_PARTICLE, "");
  for (const [particle, role] of KOREAN_ROLES) {
    if (word.length > particle.length && word.endsWith(particle)) return role;
  }
  return "";
}

/** Spans of the text covered by values, to keep their digits and unit words out of the terms. */
function inValue(values: readonly TextValue[], start: number, end: number): boolean {
  return values.some((v) => start < v.end && end > v.start);
}

/**
 * {@link inValue} for many spans of one text: the values sorted by start, with the furthest end
 * among the first k, so that each span is answered by a binary search (a long text has
 * thousands of values, and every one of its tokens is asked about).
 */
function valueSpans(values: readonly TextValue[]): (start: number, end: number) => boolean {
  if (values.length < 16) return (start, end) => inValue(values, start, end);
  const sorted = [...values].sort((a, b) => a.start - b.start);
  const starts = sorted.map((v) => v.start);
  const furthest: number[] = [];
  for (const v of sorted) furthest.push(Math.max(v.end, furthest[furthest.length - 1] ?? -Infinity));
  return (start, end) => {
    // How many values start before `end`; one of them overlaps when the furthest end among them passes `start`.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! < end) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && furthest[lo - 1]! > start;
  };
}

/** Spans of titles in Korean brackets (『구운몽』, 「모나리자」, 《…》, 〈…〉): the words inside are a name. */
function titleSpans(text: string): Array<{ start: number; end: number }> {
  return [...text.matchAll(/[『「《〈][^』」》〉]{1,60}[』」》〉]/gu)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

function koreanTerms(text: string, values: readonly TextValue[]): { terms: Term[]; negations: string[] } {
  const terms: Term[] = [];
  const negations: string[] = [];
  const titles = titleSpans(text);
  for (const m of text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)) {
    const written = m[0];
    const lower = written.toLowerCase();
    const inTitle = titles.some((t) => m.index >= t.start && m.index < t.end);
    if (inValue(values, m.index, m.index + written.length) && !/\p{L}{2,}$/u.test(written.replace(/^\d+/, ""))) continue;
    // A number with its unit ("510km", "510킬로미터입니다") or its counter ("네 개가") is a value:
    // its unit or counter word is not a term of its own.
    if (values.some((v) => m.index < v.end && m.index + written.length > v.start && ((v.dimension !== "number" && v.dimension !== "year" && v.dimension !== "date") || HAS_HANGUL.test(v.text)))) continue;
    if (isNegation(lower)) {
      negations.push(lower);
      continue;
    }
    if (HANGUL_WORD.test(lower)) {
      const key = stripKoreanEnding(lower);
      if (KOREAN_LIGHT.has(key) || KOREAN_LIGHT.has(lower)) continue;
      terms.push({ key: inTitle ? lower : key, form: written, weight: inTitle ? 1.5 : 1, entity: inTitle, role: koreanRole(lower), acronym: false, group: "" });
    } else if (/\p{L}/u.test(lower) && !STOP_WORDS.has(lower)) {
      // A number glued to a Korean word keeps the word's particle as its role ("9단이": the doer).
      const tail = lower.replace(/^\d+/, "");
      terms.push({ key: tail, form: written, weight: 1.5, entity: /^\p{Lu}/u.test(written), role: HANGUL_WORD.test(tail) ? koreanRole(tail) : "", acronym: ACRONYM.test(written), group: "" });
    }
  }
  return { terms, negations };
}

function englishTerms(text: string, values: readonly TextValue[]): { terms: Term[]; negations: string[]; denied: string[] | undefined; lowerWords: string[] } {
  const tokens = englishTokens(text);
  const terms: Term[] = [];
  const negations: string[] = [];
  const denied: string[] = [];
  // Inside a negation's clause; whether a term has come since it; negations that denied no term.
  let denying = false;
  let deniedOne = false;
  let bareNegations = 0;
  const closeDenial = () => {
    if (denying && !deniedOne) bareNegations++;
    denying = false;
  };
  const lowerWords: string[] = [];
  const seenLower = new Set<string>();
  const covered = valueSpans(values);
  let role = "subject";
  let previousWasName = false;
  // The second word of a verb of two words, which is not read on its own.
  let particle = -1;
  for (let i = 0; i < tokens.length; i++) {
    if (i === particle) continue;
    let token = tokens[i]!;
    let form = token.text;
    // A capitalised first word the tagger took for a verb, right before an inflected verb, is the subject's name
    // ("Bach composed …", "Bell invented …"): a sentence does not open with two verbs.
    if (i === 0 && token.pos === "VERB" && /^\p{Lu}\p{Ll}+$/u.test(token.text) && !token.text.endsWith("ing") && tokens[1]?.pos === "VERB" && tokens[1].text.toLowerCase() !== tokens[1].lemma && !tokens[1].text.endsWith("ing")) {
      token = { ...token, pos: "PROPN", lemma: token.text.toLowerCase() };
    }
    // "A" with no noun after it to be the article of is the letter ("vitamins A, D and K", "are A.", "D and A are").
    if (i > 0 && token.pos === "DET" && /^A\.?$/u.test(token.text) && (tokens[i + 1] === undefined || ["PUNCT", "CCONJ", "AUX", "VERB"].includes(tokens[i + 1]!.pos))) {
      token = { ...token, pos: "PROPN", lemma: "a" };
    }
    // A verb of two words ("passed away") is read as the one word it means ("died").
    if (token.pos === "VERB" && i + 1 < tokens.length) {
      const meaning = phrasalVerb(token.lemma, tokens[i + 1]!.text, tokens[i + 2]?.text);
      if (meaning !== undefined) {
        token = { ...token, lemma: meaning };
        form = `${token.text} ${tokens[i + 1]!.text}`;
        particle = i + 1;
      }
    }
    const wasName = previousWasName;
    previousWasName = false;
    // A particle inside a name ("Rembrandt van Rijn", "Leonardo da Vinci") keeps the name going.
    if (wasName && NAME_PARTICLE.test(token.text) && /^\p{Lu}/u.test(tokens[i + 1]?.text ?? "")) {
      previousWasName = true;
      continue;
    }
    const { start, end } = token;
    const lower = token.text.toLowerCase();
    if (/^\p{Ll}/u.test(token.text) && !seenLower.has(lower)) {
      seenLower.add(lower);
      lowerWords.push(lower);
    }
    if (isNegation(lower) || token.lemma === "not") {
      // ", not Y" contrasts a phrase ("Canberra, not Sydney"); it does not deny the clause (", no Y has …" does),
      // and ", not counting the goalkeeper" denies its participle.
      const contrast = lower === "not" && /,\s*$/.test(text.slice(Math.max(0, start - 3), start)) && tokens[i + 1]?.pos !== "VERB";
      // "weren't issued until 2002", "did not become a state until 1959": it happened then (a
      // date or a number follows "until"; "not open until further notice" stays a denial).
      const until = /^\W*(?:\S+\s+){0,4}?(?:until|till)\s+(?:the\s+)?/iu.exec(text.slice(end));
      const notUntil = until !== null && values.some((v) => v.start === end + until[0].length);
      // "… and nobody else", "no one else", "nothing else": only this one, which affirms the clause.
      const onlyThis = /^(?:nobody|nothing|none|no)$/u.test(lower) && /^\s*(?:one\s+)?else\b/iu.test(text.slice(end));
      if (!contrast && !notUntil && !onlyThis) {
        negations.push(lower);
        closeDenial();
        denying = true;
        deniedOne = false;
        // "It is not true that …", "not the case that …" deny the whole of what follows; so do "no",
        // "nobody", "nothing", "none" ("There is no fixed limit" denies any limit said).
        const verbal = lower === "not" || lower === "never" || lower.endsWith("n't") || lower === "cannot";
        if (!verbal || /^\s+(?:true|the\s+case|correct|so)\s+that\b/iu.test(text.slice(end))) bareNegations++;
      }
      continue;
    }
    // A clause of its own ends a denial: "doesn't need to be set up when it is declared" denies no declaring.
    if (token.pos === "SCONJ" || /^(?:when|while|whereas|because|if|unless|although|though|since|until|before|after)$/i.test(token.text)) closeDenial();
    if (token.pos === "ADP" || token.pos === "AUX" || (token.pos === "VERB" && !LIGHT_LEMMAS.has(token.lemma))) {
      role = token.pos === "AUX" ? (token.lemma === "be" ? "be" : role) : token.lemma;
      // "away from" is one relation, the opposite of "toward".
      if (token.lemma === "from" && /\baway\s+$/iu.test(text.slice(Math.max(0, start - 6), start))) role = "away from";
      if (token.lemma === "towards") role = "toward";
      if (token.pos !== "VERB") continue;
    }
    if (token.pos === "PUNCT" && /[,;:()]/.test(token.text)) {
      role = "";
      closeDenial();
    }
    if (covered(start, end)) continue;
    const weight = POS_WEIGHT[token.pos];
    if (weight === undefined) continue;
    let key = token.lemma.replace(/['’]s$/, "");
    // wink lower-cases lemmas of names; keep a name's own spelling as its key.
    if (token.pos === "PROPN") key = lower.replace(/['’]s$/, "").replace(/\.$/, "");
    // "US", "IT" in capitals are names, not the pronouns their lower case spells.
    const capitals = ACRONYM.test(token.text) && token.pos !== "PRON";
    // A single capital letter tagged as a name is one ("vitamin C", "the language C", "D, E and K").
    const letter = /^\p{Lu}\.?$/u.test(token.text) && token.pos === "PROPN" && token.text !== "I" && !/[-‐–]/.test(text.charAt(start - 1) + text.charAt(end));
    if (letter) key = token.text.charAt(0).toLowerCase();
    // A number right after a capitalised word names which one ("Apollo 11", "Boeing 747", "Python 3.8",
    // "Chapter 11", "Type 2"): it is part of the name, not a count, and another number is another thing.
    const designation = /\p{Lu}/u.test(token.text) ? designationAfter(text, end, values) : token.pos === "NOUN" ? designationAfter(text, end, values, true) : undefined;
    if (!/[\p{L}\p{N}]/u.test(key) || (key.length < 2 && !letter) || (!capitals && !letter && designation === undefined && (STOP_WORDS.has(key) || LIGHT_LEMMAS.has(key)))) continue;
    // A title before a name ("Dr. Barnard") and "No." before a number ("Symphony No. 9") say nothing.
    if (TITLES.has(lower) || (/^no\.?$/.test(lower) && /^\s*\d/.test(text.slice(end)))) continue;
    // A capitalised noun right after a name is part of it ("Ottawa River", "Hubble Telescope").
    const entity = /^\p{Lu}/u.test(token.text) && (token.pos === "PROPN" || (token.pos === "NOUN" && wasName));
    if (designation !== undefined) {
      key = `${key} ${designation.number}`;
      form = `${form} ${designation.number}`;
    }
    terms.push({ key, form, weight, entity: entity || designation !== undefined, role: token.pos === "VERB" ? "" : role, acronym: ACRONYM.test(token.text), group: "" });
    if (denying) {
      denied.push(key);
      deniedOne = true;
      // A negation governs up to its first noun: "is not a vegetable in the botanical sense" denies "vegetable".
      if (token.pos === "NOUN" || token.pos === "PROPN") closeDenial();
    }
    if (entity || designation !== undefined) {
      // Consecutive names form one name ("William Shakespeare").
      const last = terms[terms.length - 2];
      const run = wasName && last?.entity ? last.group : `${terms.length}`;
      terms[terms.length - 1]!.group = run;
      previousWasName = true;
    }
  }
  // A claim framed as false denies it: "It is false that …", "It is a myth that …", "The claim that … is wrong".
  closeDenial();
  const frame = DENYING_FRAME.test(text);
  if (frame) negations.push("false");
  return { terms, negations, denied: frame || bareNegations > 0 ? undefined : denied, lowerWords };
}

/** Frames that deny the claim inside them. */
const DENYING_FRAME =
  /^\s*(?:it\s+is|it's|it’s)\s+(?:also\s+)?(?:false|untrue|incorrect|wrong|a\s+myth|a\s+misconception|a\s+common\s+misconception)\s+that\b|^\s*the\s+(?:claim|idea|belief|notion|statement|myth)\s+that\b.*\bis\s+(?:false|untrue|incorrect|wrong|a\s+myth)\b/iu;

/** The number of a name that says which one: at most four digits, a version's dotted parts, a letter ("11", "3.8", "4S"). */
export const DESIGNATION_NUMBER = /\d{1,4}(?:\.\d{1,3})*[a-z]?/u;

/** A designation number after a word, that is no amount, date or range. */
const DESIGNATION = new RegExp(`^[\\s-](${DESIGNATION_NUMBER.source})(?![\\d%°]|[,.:/]\\d|\\s*(?:%|°|-\\s*\\d|–|to\\s+\\d|and\\s+\\d))`, "u");
/** A number marked as the one of its kind after a common noun ("reactor No. 4", "gate #12"). */
const MARKED_DESIGNATION = new RegExp(`^(?:\\s+[Nn]o\\.\\s?|\\s*#)(${DESIGNATION_NUMBER.source})(?![\\d%°]|[,.:/]\\d)`, "u");

/**
 * The number right after position `end` that names which thing a word before it is, unless it was
 * read as a value; `marked`, only one written after "No." or "#" (after a common noun).
 */
function designationAfter(text: string, end: number, values: readonly TextValue[], marked = false): { number: string } | undefined {
  const m = (marked ? MARKED_DESIGNATION : DESIGNATION).exec(text.slice(end));
  if (!m) return undefined;
  const stop = end + m[0].length;
  const start = stop - m[1]!.length;
  return values.some((v) => v.start < stop && v.end > start) ? undefined : { number: m[1]! };
}

/** Titles written before a name. */
const TITLES: ReadonlySet<string> = new Set(["dr", "dr.", "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "prof", "prof.", "sir", "dame"]);

/** Common abbreviations whose letters are not the initials of their expansion. */
const ABBREVIATIONS: Readonly<Record<string, string>> = ownKeys<string>({
  co2: "carbon dioxide", h2o: "water", o2: "oxygen", wwii: "second world war", ww2: "second world war",
  wwi: "first world war", ww1: "first world war", uk: "united kingdom", us: "united states", usa: "united states",
  dna: "deoxyribonucleic acid", rna: "ribonucleic acid", ai: "artificial intelligence", eu: "european union",
  un: "united nations", gdp: "gross domestic product", ceo: "chief executive officer", pe: "price earnings",
  ch4: "methane", o3: "ozone", n2: "nitrogen", nacl: "sodium chloride", h2so4: "sulfuric acid", nh3: "ammonia",
});

/** The words a known abbreviation or formula stands for ("ch4" → ["methane"]), if it is one. */
export function expansionOf(key: string): readonly string[] | undefined {
  return ABBREVIATIONS[key.toLowerCase()]?.split(" ");
}

/** Adds the words of a known abbreviation's expansion as terms of the same weight. */
function expandAbbreviations(terms: Term[]): Term[] {
  const out = [...terms];
  for (const t of terms) {
    const expansion = ABBREVIATIONS[t.key.toLowerCase()];
    if (!expansion) continue;
    for (const key of expansion.split(" ")) {
      out.push({ key, form: t.form, weight: t.weight / 2, entity: false, role: t.role, acronym: false, group: "" });
    }
  }
  return out;
}

function distinct(terms: readonly Term[]): Term[] {
  const seen = new Map<string, Term>();
  for (const t of terms) {
    const had = seen.get(t.key);
    if (!had) seen.set(t.key, t);
    else if (t.weight > had.weight) seen.set(t.key, { ...t, form: had.form });
  }
  return [...seen.values()];
}

/** Analyses kept (two generations of 40,000): the claims of a large run between extraction and classification. */
const cache = new Memo<StatementAnalysis>(10_000);

/**
 * Reads one statement (cached: the same text is analysed once).
 *
 * @example
 * const a = analyzeStatement("Einstein was born in Spain in 1879.");
 * a.terms.map((t) => `${t.key}:${t.role}`); // → ["einstein:subject", "bear:", "spain:in"]
 * a.values.map((v) => v.dimension);          // → ["year"]
 */
export function analyzeStatement(text: string): StatementAnalysis {
  return cache.get(text, readStatement);
}

/** Sino-Korean readings of digits, for the names of days written with a middle dot (3·1절 = 삼일절). */
const SINO_KOREAN = ["공", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구"];

/** "3·1절" → "삼일절", "6·25 전쟁" → "육이오 전쟁": Korean names of dates, read digit by digit. */
function readDotNames(text: string): string {
  if (!text.includes("·") || !HAS_HANGUL.test(text)) return text;
  return text.replace(/(?<![\d.,])(\d{1,2})·(\d{1,2})(?![\d.,])/gu, (_, a: string, b: string) => [...a, ...b].map((d) => SINO_KOREAN[Number(d)]).join(""));
}

/** "J. J. Thomson" → "J.J. Thomson": initials are written with and without a space between them. */
function closeInitials(text: string): string {
  return /\p{Lu}\.\s\p{Lu}\./u.test(text) ? text.replace(/(?<![\p{L}.])(\p{Lu}\.)\s(?=\p{Lu}\.)/gu, "$1") : text;
}

/** A known abbreviation written with dots ("U.S.", "U.K.", "E.U.") as the abbreviation ("US"): spelled out like it. */
function closeAbbreviationDots(text: string): string {
  if (!/\p{Lu}\.\p{Lu}\./u.test(text)) return text;
  return text.replace(/(?<![\p{L}.])((?:\p{Lu}\.){2,3})(?!\p{L})/gu, (dotted: string) => {
    const letters = dotted.replace(/\./gu, "");
    return ABBREVIATIONS[letters.toLowerCase()] === undefined ? dotted : letters;
  });
}

/**
 * A copy of a reading with some of its parts replaced (a statement's terms in one role; a
 * statement emptied in its place). Its initials are still read only when first asked for: a
 * spread copy would read them at once, and they cost more than the rest of a reading.
 */
export function withParts(a: StatementAnalysis, parts: Partial<Pick<StatementAnalysis, "terms" | "values" | "negations">>): StatementAnalysis {
  return {
    text: a.text,
    terms: parts.terms ?? a.terms,
    values: parts.values ?? a.values,
    negations: parts.negations ?? a.negations,
    ...(a.denied === undefined ? {} : { denied: a.denied }),
    refusal: a.refusal,
    lowerWords: a.lowerWords,
    get initials(): ReadonlySet<string> {
      return a.initials;
    },
  };
}

function readStatement(written: string): StatementAnalysis {
  const text = closeAbbreviationDots(closeInitials(readDotNames(foldAccents(written))));
  const values = findValues(text);
  const korean = HAS_HANGUL.test(text);
  const read = korean ? { ...koreanTerms(text, values), denied: undefined, lowerWords: [] as string[] } : englishTerms(text, values);
  const terms = distinct(expandAbbreviations(read.terms));
  const denied = read.denied !== undefined && read.denied.some((k) => terms.some((t) => t.key === k)) ? read.denied : undefined;
  const analysis: StatementAnalysis = {
    text,
    terms,
    values,
    negations: read.negations,
    ...(denied === undefined ? {} : { denied }),
    refusal: isRefusal(text),
    lowerWords: read.lowerWords,
    get initials(): ReadonlySet<string> {
      const value = initialsOf(text);
      Object.defineProperty(this, "initials", { value });
      return value;
    },
  };
  return analysis;
}
