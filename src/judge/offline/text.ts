/**
 * Tokenising helpers shared by the offline judge's lexical algorithms:
 * content words (lower-cased, stop words dropped, lightly stemmed for English,
 * particles stripped for Korean), number tokens and negation cues.
 *
 * Everything here is pure and deterministic: the segmenters use a fixed locale
 * (not the machine's), so the same text always yields the same tokens.
 */

const wordSegmenter = new Intl.Segmenter("en", { granularity: "word" });

/** English function words that carry no content. Negation words are handled separately. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "an", "the", "is", "are", "was", "were", "am", "be", "been", "being",
  "of", "in", "on", "at", "to", "and", "or", "by", "for", "with", "it", "its",
  "that", "this", "these", "those", "as", "from", "which", "who", "whom", "whose",
  "what", "when", "where", "why", "how", "there", "here", "then", "than", "so",
  "if", "but", "also", "into", "onto", "about", "over", "under", "up", "out",
  "do", "does", "did", "done", "has", "have", "had", "having",
  "will", "would", "shall", "should", "can", "could", "may", "might", "must",
  "i", "me", "my", "mine", "you", "your", "yours", "he", "him", "his", "she", "her", "hers",
  "we", "us", "our", "ours", "they", "them", "their", "theirs", "one", "ones",
  "i'm", "i've", "i'd", "i'll", "it's", "that's", "there's", "what's", "he's", "she's",
  "you're", "we're", "they're", "let's", "very", "just", "some", "any", "such",
  "e.g", "i.e", "etc", "via", "else",
]);

/** English words that negate a claim (besides any word ending in "n't"). */
const ENGLISH_NEGATIONS: ReadonlySet<string> = new Set([
  "not", "no", "never", "none", "cannot", "nothing", "nobody", "neither", "nor",
]);

/**
 * Korean particles and endings stripped from the end of Hangul words, longest
 * first. The usual particles and copulas, plus a few verb endings (되었다, 했고,
 * 었다, ...) so that a clause split off with "-고" still meets its "-다" twin.
 */
const KOREAN_ENDINGS: readonly string[] = [
  "이었다", "입니다", "합니다", "되었다", "하였다", "했으며", "했지만", "에서는",
  "되었고", "되었으며", "에서", "으로", "이다", "였다", "했다", "됐다", "한다", "된다", "했고", "었다", "았다",
  "었고", "았고", "하며", "하고", "되며", "되고", "이며", "이고", "으며", "에는", "까지", "부터", "에게",
  // Polite and formal sentence endings: 인도예요 / 인도입니다, 만들었어요 / 세웠습니다.
  "이에요", "예요", "에요", "했어요", "했습니다", "었습니다", "았습니다", "였습니다", "됐습니다", "었어요", "았어요", "였어요",
  "습니다", "해요", "어요", "아요", "이죠", "네요",
  "은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도", "만",
].slice().sort((a, b) => b.length - a.length);

/** Particles that are also common last syllables of nouns (인도, 온도, 정도): stripped only from a longer word. */
const SHORT_STEM_KEEPS: ReadonlySet<string> = new Set(["도", "만"]);

/** A word written wholly in Hangul syllables. */
export const HANGUL_WORD = /^[\uAC00-\uD7A3]+$/;
/** A text with at least one Hangul syllable: Korean, for the offline judge. */
export const HAS_HANGUL = /[\uAC00-\uD7A3]/;
const LATIN_WORD = /^[a-z]+$/;
const NUMBER_TOKEN = /^\d+(?:[.,]\d+)*$/;
const THOUSANDS = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/** The word-like segments of `text`, as written (no lower-casing). */
export function wordSegments(text: string): string[] {
  const words: string[] = [];
  for (const segment of wordSegmenter.segment(text)) {
    if (segment.isWordLike) words.push(segment.segment);
  }
  return words;
}

/** Whether a (lower-cased) token is a number such as "1928", "1,000" or "1.5". */
export function isNumberToken(token: string): boolean {
  return NUMBER_TOKEN.test(token);
}

/**
 * Canonical form of a number token: thousands separators dropped ("1,000" →
 * "1000"), leading zeros of the integer part and trailing zeros of the
 * fraction dropped ("09" → "9", "1.50" → "1.5").
 */
export function normalizeNumber(token: string): string {
  let value = THOUSANDS.test(token) ? token.replace(/,/g, "") : token;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (match) {
    const integer = (match[1] ?? "0").replace(/^0+(?=\d)/, "");
    const fraction = (match[2] ?? "").replace(/0+$/, "");
    value = fraction ? `${integer}.${fraction}` : integer;
  }
  return value;
}

/** Whether a lower-cased word negates (English "not", "n't", ...; Korean 않, 못, 안, 아니). */
export function isNegation(word: string): boolean {
  if (ENGLISH_NEGATIONS.has(word) || word.endsWith("n't")) return true;
  if (word === "안" || word === "못" || /^못(?:하|했|한|할|함|해)/.test(word)) return true;
  if (HANGUL_WORD.test(word) && (word.includes("않") || /^아(?:니|닌|님|냐)/.test(word))) return true;
  return false;
}

/**
 * Light English stemming: plural -s/-es/-ies, -ed and -ing, only when at least
 * 3 letters remain; a final silent "e" is dropped too, so that "create",
 * "creates", "created" and "creating" all become "creat".
 *
 * @example
 * stemEnglish("discovered"); // → "discover"
 */
export function stemEnglish(word: string): string {
  const stem = stripEnglishSuffix(word);
  return stem.length >= 4 && stem.endsWith("e") && !stem.endsWith("ee") ? stem.slice(0, -1) : stem;
}

/** Only the plural part of {@link stemEnglish} (for capitalised words). */
function stemPlural(word: string): string {
  if (word.endsWith("ing") || word.endsWith("ed")) return word;
  return stemEnglish(word);
}

function stripEnglishSuffix(word: string): string {
  const strip = (suffix: string, replacement = ""): string | undefined => {
    if (!word.endsWith(suffix)) return undefined;
    const stem = word.slice(0, word.length - suffix.length) + replacement;
    return stem.length >= 3 ? stem : undefined;
  };
  if (word.endsWith("ing")) return strip("ing") ?? word;
  if (word.endsWith("ied")) return strip("ied", "y") ?? word;
  if (word.endsWith("ed") && !word.endsWith("eed")) return strip("ed") ?? word;
  if (word.endsWith("ies")) return strip("ies", "y") ?? word;
  if (/(?:s|x|z|ch|sh)es$/.test(word)) return strip("es") ?? strip("s") ?? word;
  if (word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return strip("s") ?? word;
  return word;
}

/** Strips Korean particles/endings from the end of a Hangul word (up to 3 times), keeping at least 1 syllable. */
export function stripKoreanEnding(word: string): string {
  if (!HANGUL_WORD.test(word)) return word;
  let current = word;
  for (let round = 0; round < 3; round++) {
    const ending = KOREAN_ENDINGS.find((e) => current.endsWith(e) && current.length - e.length >= (SHORT_STEM_KEEPS.has(e) ? 2 : 1));
    if (!ending) break;
    current = current.slice(0, current.length - ending.length);
  }
  return current;
}

/** Lexical view of a text: content words in order, their distinct set, numbers and negation cues. */
export interface TextAnalysis {
  /** Content words in text order (repeats kept), numbers included. */
  words: string[];
  /** Distinct content words, in order of first appearance. */
  unique: string[];
  /** Distinct normalised numbers, in order of first appearance. */
  numbers: string[];
  /** Distinct negation words found (lower-cased), in order of first appearance. */
  negations: string[];
  /** Each content word's first form as written (lower-cased), for reasons: "discover" → "discovered". */
  forms: ReadonlyMap<string, string>;
  /** Distinct content words written with a capital initial after the first word: likely names ("fleming"). */
  names: string[];
  /** The first word as a content word when it is capitalised (a name or just the start of a sentence). */
  leading: string | undefined;
}

/**
 * Normalises one lower-cased word-like segment into a content word, or
 * undefined when it carries no content. Words written with a capital initial
 * (mostly names: "Fleming", "Reading") lose only a plural -s, never -ing/-ed.
 */
function contentWord(raw: string, capitalised: boolean): string | undefined {
  let word = raw.replace(/[\u2019\u2018\u02BC]/g, "'");
  if (isNumberToken(word)) return normalizeNumber(word);
  word = word.replace(/'s$/, "");
  if (word === "" || STOP_WORDS.has(word) || isNegation(word)) return undefined;
  if (LATIN_WORD.test(word)) return capitalised ? stemPlural(word) : stemEnglish(word);
  if (HANGUL_WORD.test(word)) return stripKoreanEnding(word);
  return word;
}

/**
 * Splits a text into content words, numbers and negation cues.
 *
 * @example
 * analyzeText("Fleming didn't discover 1,000 moulds.");
 * // → { words: ["fleming", "discover", "1000", "mould"], unique: [...same],
 * //     numbers: ["1000"], negations: ["didn't"], forms: Map { "discover" → "discover", "mould" → "moulds", ... } }
 */
export function analyzeText(text: string): TextAnalysis {
  const words: string[] = [];
  const negations: string[] = [];
  const forms = new Map<string, string>();
  const names: string[] = [];
  let leading: string | undefined;
  let first = true;
  for (const written of wordSegments(text)) {
    const atStart = first;
    first = false;
    const capitalised = /^\p{Lu}\p{Ll}/u.test(written);
    const normalised = written.toLowerCase().replace(/[\u2019\u2018\u02BC]/g, "'");
    if (isNegation(normalised)) {
      if (!negations.includes(normalised)) negations.push(normalised);
      continue;
    }
    const word = contentWord(normalised, capitalised);
    if (word === undefined) continue;
    words.push(word);
    if (!forms.has(word)) forms.set(word, isNumberToken(word) ? word : normalised);
    if (capitalised && atStart) leading = word;
    else if (capitalised && !names.includes(word)) names.push(word);
  }
  const unique = [...new Set(words)];
  const numbers = unique.filter(isNumberToken);
  return { words, unique, numbers, negations, forms, names, leading };
}

/**
 * The content words of a text, in order (repeats kept): lower-cased, stop words
 * dropped, English lightly stemmed, Korean particles stripped, numbers normalised.
 *
 * @example
 * contentWords("한글은 1443년에 세종대왕이 창제했다."); // → ["한글", "1443", "년", "세종대왕", "창제"]
 */
export function contentWords(text: string): string[] {
  return analyzeText(text).words;
}

/**
 * The written forms of content words, for reasons (falls back to the word itself).
 *
 * @example
 * writtenForms(analyzeText("It became famous."), ["becam"]); // → ["became"]
 */
export function writtenForms(analysis: TextAnalysis, words: readonly string[]): string[] {
  return words.map((w) => analysis.forms.get(w) ?? w);
}

/**
 * Quotes words for a reason string: `"a", "b"`, cut after `max` words with "and N more".
 *
 * @example
 * quoteWords(["fleming", "1928"]); // → '"fleming", "1928"'
 */
export function quoteWords(words: readonly string[], max = 8): string {
  const shown = words.slice(0, max).map((w) => JSON.stringify(w));
  const rest = words.length - shown.length;
  return rest > 0 ? `${shown.join(", ")} and ${rest} more` : shown.join(", ");
}

const ASCII_ONLY = /^[\x00-\x7F]*$/;
const LETTER = /\p{L}/u;

/** Whether a character (one code point) is a letter: /\p{L}/u, with ASCII told without the pattern. */
function isLetter(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 0x80) return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  return LETTER.test(ch);
}

const GREEK = /\p{Script=Greek}/u;

/** Scripts the offline judge does not read, by the Unicode script of their letters. */
const UNREAD_SCRIPTS: readonly (readonly [string, RegExp])[] = [
  ["Japanese", /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ["Chinese", /\p{Script=Han}/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Thai", /\p{Script=Thai}/u],
  ["Devanagari", /\p{Script=Devanagari}/u],
  ["Bengali", /\p{Script=Bengali}/u],
  ["Tamil", /\p{Script=Tamil}/u],
  ["Telugu", /\p{Script=Telugu}/u],
  ["Gujarati", /\p{Script=Gujarati}/u],
  ["Gurmukhi", /\p{Script=Gurmukhi}/u],
  ["Kannada", /\p{Script=Kannada}/u],
  ["Malayalam", /\p{Script=Malayalam}/u],
  ["Sinhala", /\p{Script=Sinhala}/u],
  ["Georgian", /\p{Script=Georgian}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Ethiopic", /\p{Script=Ethiopic}/u],
  ["Khmer", /\p{Script=Khmer}/u],
  ["Lao", /\p{Script=Lao}/u],
  ["Myanmar", /\p{Script=Myanmar}/u],
  ["Tibetan", /\p{Script=Tibetan}/u],
  // Any other letter that is neither Latin nor Hangul: a script of its own that the judge cannot read either.
  ["a script other than Latin and Hangul", /[^\p{Script=Latin}\p{Script=Hangul}\p{Script=Common}\p{Script=Inherited}]/u],
];

/**
 * The script a text is mostly written in when the offline judge cannot read
 * it: at least a third of its letters (and 4 or more) in a script other than
 * Latin and Hangul, e.g. "Japanese" or "Arabic"; undefined for English,
 * Korean, and text that only quotes a few such letters (μm, π, 漢字 in an
 * English sentence). Japanese is named whenever kana appear among the letters.
 *
 * @example
 * unreadScript("東京です。")            // "Japanese"
 * unreadScript("The wavelength is 5 μm.") // undefined
 */
export function unreadScript(text: string): string | undefined {
  // Text of ASCII alone (most answers) has no letter of these scripts.
  if (ASCII_ONLY.test(text)) return undefined;
  let letters = 0;
  const counts = new Map<string, number>();
  const chars = Array.from(text);
  chars.forEach((ch, i) => {
    if (!isLetter(ch)) return;
    letters++;
    if (ch.charCodeAt(0) < 0x80) return;
    const found = UNREAD_SCRIPTS.find(([, pattern]) => pattern.test(ch));
    if (found === undefined) return;
    // A Greek letter alone is a symbol of mathematics or physics ("Δv = α·t", "5 Ω"), not Greek text: only Greek words count.
    if (found[0] === "Greek" && !GREEK.test(chars[i - 1] ?? "") && !GREEK.test(chars[i + 1] ?? "")) {
      letters--;
      return;
    }
    counts.set(found[0], (counts.get(found[0]) ?? 0) + 1);
  });
  const unread = [...counts.values()].reduce((n, c) => n + c, 0);
  if (unread < 4 || unread * 3 < letters) return undefined;
  if (counts.has("Japanese")) return "Japanese";
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

/**
 * Latin letters with accents as their base letters, one character for one
 * (so offsets into the text still hold): "Zürich" → "Zurich", "Dvořák" →
 * "Dvorak". Other scripts are left as they are.
 *
 * @example
 * foldAccents("São Paulo") // "Sao Paulo"
 */
export function foldAccents(text: string): string {
  if (!ACCENTED.test(text)) return text;
  return text.replace(ACCENTED_ALL, (c) => {
    const base = c.normalize("NFD").replace(/[\u0300-\u036f]/gu, "");
    return base.length === 1 && base !== c ? base : (UNDECOMPOSED[c] ?? c);
  });
}

const ACCENTED = /[\u00C0-\u024F\u1E00-\u1EFF]/u;
/** Letters with a stroke that Unicode does not decompose ("Skłodowska", "Ørsted", "Đorđević"): their base letter. */
const UNDECOMPOSED: Readonly<Record<string, string>> = Object.freeze(Object.assign(Object.create(null) as Record<string, string>, { ł: "l", Ł: "L", ø: "o", Ø: "O", đ: "d", Đ: "D", ħ: "h", Ħ: "H", ı: "i", ŧ: "t", Ŧ: "T", ƀ: "b", ɨ: "i" }));
const ACCENTED_ALL = /[\u00C0-\u024F\u1E00-\u1EFF]/gu;

/**
 * Function words distinctive of languages written in Latin letters that the
 * offline judge does not read (lower case only: "de" in "Charles de Gaulle"
 * is outnumbered by the English around it).
 */
const LATIN_LANGUAGE_WORDS: readonly (readonly [string, ReadonlySet<string>])[] = [
  ["German", new Set(["der", "die", "das", "und", "ist", "nicht", "von", "mit", "ein", "eine", "einen", "sich", "auf", "für", "den", "dem", "des", "wird", "sind", "auch", "wurde", "ich", "zu", "im"])],
  ["French", new Set(["de", "le", "la", "les", "est", "et", "une", "des", "du", "pour", "dans", "avec", "qui", "sont", "pas", "ce", "au", "aux", "été", "il", "elle", "l'", "d'"])],
  ["Spanish", new Set(["de", "el", "la", "los", "las", "es", "del", "y", "por", "para", "una", "con", "que", "está", "como", "más", "fue", "lo"])],
  ["Italian", new Set(["il", "gli", "de", "è", "di", "che", "una", "sono", "della", "del", "con", "non", "la", "le", "nel", "alla"])],
  ["Portuguese", new Set(["de", "os", "é", "da", "dos", "das", "em", "uma", "que", "não", "com", "para", "foi", "na"])],
  ["Dutch", new Set(["het", "een", "en", "niet", "zijn", "met", "voor", "dat", "op", "wordt", "werd", "ook", "van", "de"])],
];

const LOWER_START = /^\p{Ll}/u;

/** Each word of {@link LATIN_LANGUAGE_WORDS} with the indices of the languages that have it (one look-up a word, not one a language). */
const LANGUAGES_OF_WORD: ReadonlyMap<string, readonly number[]> = (() => {
  const out = new Map<string, number[]>();
  LATIN_LANGUAGE_WORDS.forEach(([, words], i) => {
    for (const word of words) out.set(word, [...(out.get(word) ?? []), i]);
  });
  return out;
})();

/** English function words, against which the words above are counted (not "in" or "a", which German and Italian write too). */
const ENGLISH_WORDS: ReadonlySet<string> = new Set(["the", "of", "and", "is", "are", "was", "were", "to", "an", "that", "it", "for", "on", "with", "as", "by", "from", "this", "has", "have", "not", "be"]);

/**
 * The language a text is written in, as far as the offline judge needs to
 * know: "Korean" (mostly Hangul), another language of Latin letters when its
 * function words are at least 3 and more than twice the English ones, or at
 * least 2 with no English one ("German", "French", …), else "English" (also
 * for text too short to tell).
 *
 * @example
 * textLanguage("Berlin ist die Hauptstadt von Deutschland.") // "German"
 * textLanguage("Charles de Gaulle led the Free French.")   // "English"
 */
export function textLanguage(text: string): string {
  // Only a text with a Hangul syllable can be Korean: its letters are counted for that alone.
  if (HAS_HANGUL.test(text)) {
    let letters = 0;
    let hangul = 0;
    for (const ch of text) {
      if (!isLetter(ch)) continue;
      letters++;
      if (HANGUL_WORD.test(ch)) hangul++;
    }
    if (letters > 0 && hangul * 3 >= letters) return "Korean";
  }
  // Words in lower case, and the first word of each sentence ("La capital …", "Il …").
  const opens = (at: number): boolean => at === 0 || /[.!?]\s+$/u.test(text.slice(Math.max(0, at - 3), at));
  let english = 0;
  const counts = LATIN_LANGUAGE_WORDS.map(() => 0);
  for (const m of text.matchAll(/\p{Lu}?\p{Ll}+['’]?/gu)) {
    if (!(LOWER_START.test(m[0]) || opens(m.index))) continue;
    const raw = m[0].toLowerCase();
    const word = raw.includes("’") ? raw.replace(/’/gu, "'") : raw;
    const bare = word.endsWith("'") ? word.slice(0, -1) : word;
    if (ENGLISH_WORDS.has(bare)) english++;
    // A language counts the word once, whether as written or without its apostrophe.
    const languages = LANGUAGES_OF_WORD.get(word);
    if (languages !== undefined) for (const i of languages) counts[i]!++;
    const bareLanguages = bare === word ? undefined : LANGUAGES_OF_WORD.get(bare);
    if (bareLanguages !== undefined) for (const i of bareLanguages) if (languages === undefined || !languages.includes(i)) counts[i]!++;
  }
  const best = counts.reduce((b, c, i) => (c > counts[b]! ? i : b), 0);
  // Three of its words and more than twice the English ones; in a short sentence two and no English one.
  const n = counts[best]!;
  return (n >= 3 && n > 2 * english) || (n >= 2 && english === 0) ? LATIN_LANGUAGE_WORDS[best]![0] : "English";
}
