/**
 * Statement extraction for the offline judge: sentences, then clauses, then
 * atomic claims (see claims.ts); yes/no answers become the question's claim.
 */
import { analyzeStatement, type StatementAnalysis, type Term } from "./analyze";
import { withoutAsides } from "./asides";
import { atomicClaims, KOREAN_SUBJECT } from "./claims";
import { englishTokens } from "./english";
import { claimedPart, doubtOnly, takesBack } from "./hedges";
import { plainText } from "./markup";
import { aliasHeld, holds, pool, type Pool } from "./pool";
import { resolvePronouns } from "./pronouns";
import { HAS_HANGUL } from "./text";
import { findValues, isWordCount } from "./values";

const sentenceSegmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** A bullet or list marker at the start of a line: "- ", "* ", "+ ", "• ", "1. ", "2) ". */
const BULLET = /^\s*(?:[-*+•‣◦▪]|\d{1,3}[.)])\s+/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Title abbreviations after which the sentence segmenter wrongly breaks
 * ("Dr. " | "Fleming ..."); such a piece is glued to the next one.
 */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
  "mr.", "mrs.", "ms.", "dr.", "prof.", "st.", "mt.", "jr.", "sr.", "vs.", "e.g.", "i.e.", "cf.", "approx.",
  "gen.", "col.", "lt.", "sgt.", "capt.", "rev.", "fig.",
  // Months written short: "adopted on Dec. 12, 2015".
  "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.", "oct.", "nov.", "dec.",
]);

/**
 * English coordinators that split a sentence into clauses when both sides have at least 3 words;
 * "and" or "but" without a comma only before a pronoun that opens a new clause ("… tall and it
 * stands in …").
 */
const ENGLISH_BOUNDARY = /\s+[—–]\s+|;\s+|:\s+(?=\S+\s+\S+\s+\S+)|,\s+(?:and|but|while|whereas)\s+|,\s+(?:so|because|since|although|though|after|before|which|who|where|when|meaning|making)\s+|\s+(?:because|although|whereas)\s+|,\s+(?=(?:he|she|it|they|this|that|these|there)\s)|\s+(?:and|but)\s+(?=(?:he|she|it|they)\s+\p{L}+\s)/giu;

/** Cuts before a subordinate clause ("…, which …", "…, because …"): the left side may be a bare answer ("Antarctica, since …"). */
const SUBORDINATE = /^(?:,\s+(?:so|because|since|although|though|after|before|which|who|where|when|meaning|making)|\s+(?:because|although|whereas)|:)\s+$/iu;

interface Cut {
  /** Where the left clause ends. */
  start: number;
  /** Where the right clause begins. */
  end: number;
  /** Which length rule applies to both sides. */
  kind: "english" | "korean";
}

/** Words (whitespace-separated pieces holding a letter or digit) in a piece of text. */
function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => HAS_LETTER_OR_DIGIT.test(w)).length;
}

/** Korean sides are "reasonably long": at least 2 words and 5 letters/digits. */
function longEnoughKorean(text: string): boolean {
  const letters = text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return countWords(text) >= 2 && letters >= 5;
}

/** Syllables before "-고" that mark a verb/adjective stem (하고, 되고, 이고, 있고, 많고, ...). */
const GO_STEMS: ReadonlySet<string> = new Set(["하", "되", "이", "있", "없", "않", "많", "좋", "크", "같", "높", "낮", "작", "적", "길", "넓", "깊"]);

/** Auxiliary verbs that continue a "-고" form instead of starting a new clause. */
const AUXILIARY_AFTER_GO = /^(?:있|계시|계신|계셨|싶|말았|나서|보니)/;

/** Whether a syllable has the final consonant ㅆ (했, 었, 았, 였, 있, 됐): a past-tense stem. */
function hasFinalSsangSios(syllable: string): boolean {
  const code = syllable.charCodeAt(0);
  return code >= 0xac00 && code <= 0xd7a3 && (code - 0xac00) % 28 === 20;
}

/** Whether a Korean word ends a clause: "-고" after a verb stem, "-며"/"-으며", "-지만". */
function endsKoreanClause(word: string): boolean {
  if (!/^[\p{L}\p{N}]*[\uAC00-\uD7A3]$/u.test(word)) return false;
  if (word.length >= 3 && word.endsWith("지만")) return true;
  if (word.length >= 2 && word.endsWith("며")) return true;
  if (word.length >= 2 && word.endsWith("고")) {
    const before = word.charAt(word.length - 2);
    return GO_STEMS.has(before) || hasFinalSsangSios(before);
  }
  return false;
}

/** Candidate clause boundaries in one sentence, in text order. */
function findCuts(sentence: string): Cut[] {
  const cuts: Cut[] = [];
  for (const match of sentence.matchAll(ENGLISH_BOUNDARY)) {
    const start = match.index ?? 0;
    cuts.push({ start, end: start + match[0].length, kind: "english" });
  }
  if (HAS_HANGUL.test(sentence)) {
    const words = [...sentence.matchAll(/\S+/g)];
    for (let i = 0; i + 1 < words.length; i++) {
      const current = words[i];
      const next = words[i + 1];
      if (!current || !next) continue;
      const bare = current[0].replace(/,$/, "");
      // "-고," before a new topic or subject ("…알을 낳고, 수탉은 …") ends a clause whatever the verb.
      const newSubject = current[0].endsWith("고,") && KOREAN_SUBJECT.test(next[0]);
      if (!endsKoreanClause(bare) && !newSubject) continue;
      // "-고 있다", "-고 싶다", "-고 나서": an auxiliary verb follows, the clause goes on.
      if (bare.endsWith("고") && AUXILIARY_AFTER_GO.test(next[0])) continue;
      cuts.push({ start: (current.index ?? 0) + bare.length, end: next.index ?? 0, kind: "korean" });
    }
  }
  return cuts.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** Splits one sentence at coordinated clauses, greedily left to right, keeping every side long enough. */
function splitClauses(sentence: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  let subject = "";
  for (const cut of findCuts(sentence)) {
    if (cut.start < from) continue;
    const left = sentence.slice(from, cut.start);
    const right = sentence.slice(cut.end);
    const joint = sentence.slice(cut.start, cut.end);
    const minLeft = SUBORDINATE.test(joint) ? 1 : 3;
    // After a semicolon a clause of two words stands on its own ("…; they're mammals").
    const minRight = /^;/.test(joint) ? 2 : 3;
    const ok =
      cut.kind === "english"
        ? countWords(left) >= minLeft && countWords(right) >= minRight
        : longEnoughKorean(left) && longEnoughKorean(right);
    if (!ok) continue;
    // "Secondary caregivers: 6 weeks at full pay": after a label, a phrase with no verb says its
    // fact of the label; cut apart, neither half says anything.
    // (A count before the colon is the answer, and what follows lists it: "Four: two atria and …".)
    if (/^:/.test(joint) && countWords(left) <= 3 && findValues(left).length === 0 && !englishTokens(right).some((t) => t.pos === "VERB" || t.pos === "AUX")) continue;
    pieces.push(subject + left);
    from = cut.end;
    // "…was Charles Lindbergh, who took …": the person named last is the next clause's subject.
    subject = /,\s+who\s+$/iu.test(joint) ? `${PERSON_AT_END.exec(left)?.[1] ?? ""} `.trimStart() : "";
  }
  pieces.push(subject + sentence.slice(from));
  return pieces;
}

/** A person's name closing a clause ("… was Charles Lindbergh", "… Leonardo da Vinci"). */
const PERSON_AT_END = /(?:^|\s)((?:\p{Lu}[\p{L}'’.-]*)(?:\s+(?:\p{Lu}[\p{L}'’.-]*|da|de|del|di|van|von|der|la|le))*)\s*$/u;

/** The last run of characters other than spaces (scanned from the end: a pattern anchored at the end is tried from every start). */
function lastWord(text: string): string {
  const end = text.trimEnd().length;
  let start = end;
  while (start > 0 && !/\s/u.test(text.charAt(start - 1))) start--;
  return text.slice(start, end);
}

/**
 * A month's name after a day written with a dot: a German one ("3. März", "1. Mai"), or any
 * with a year after it ("9. November 1989"). An English month alone may start the next
 * sentence ("Mars has 2. May I add …").
 */
const DOTTED_DAY_MONTH = /^(?:(?:Januar|Jänner|Februar|März|Mai|Juni|Juli|Oktober|Dezember)\b|(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}\b)/u;

/** Sentences of one line, with pieces broken after a title abbreviation ("Dr. ") glued back. */
function sentences(line: string): string[] {
  // A line with no sentence end before its last word is one sentence: no need to segment it.
  if (!INNER_SENTENCE_END.test(line)) return [line];
  const out: string[] = [];
  let pending = "";
  const pieces = [...segments(line)];
  pieces.forEach((segment, i) => {
    pending += segment;
    const word = lastWord(pending);
    // A title ("Dr.") or an initial ("J.", "J.J.", "J.R.R.") does not end a sentence.
    if (ABBREVIATIONS.has(word.toLowerCase()) || /^(?:\p{Lu}\.)+$/u.test(word)) return;
    // "No." before a number marks which one ("platform No. 4"), and ends no sentence.
    if (/^no\.$/i.test(word) && /^\s*\d/.test(pieces[i + 1] ?? "")) return;
    // A date written with dots ("2019. 6. 25.", "1446. 10. 9.") is one piece, not three sentences.
    if (/(?:^|\s)\d{1,4}\.\s*$/.test(pending) && /^\d{1,2}\./.test(pieces[i + 1] ?? "")) return;
    // A day written with a dot before its month ("am 9. November 1989", "1. Mai") is one date.
    if (/(?:^|\s)\d{1,2}\.\s*$/.test(pending) && DOTTED_DAY_MONTH.test(pieces[i + 1] ?? "")) return;
    // ... and so is "9.에": no space after the dot, no sentence end.
    if (/\d\.$/.test(pending) && /^[^\s\d]/.test(pieces[i + 1] ?? " ")) return;
    out.push(pending);
    pending = "";
  });
  if (pending) out.push(pending);
  return out;
}

/**
 * The segmenter's cost grows with the square of the text's length, so a long
 * line is first cut into windows of at most this many characters, each after
 * a sentence end and its spaces (else after a space), and segmented window by
 * window: linear in the length, and the same cuts for the same line.
 */
const SEGMENT_WINDOW = 2_000;

/** Sentence pieces of a line, window by window (see {@link SEGMENT_WINDOW}). */
function* segments(line: string): Generator<string> {
  let from = 0;
  while (from < line.length) {
    let to = line.length;
    if (to - from > SEGMENT_WINDOW) {
      const window = line.slice(from, from + SEGMENT_WINDOW);
      let cut = -1;
      for (const match of window.matchAll(SENTENCE_END_AND_SPACE)) cut = (match.index ?? 0) + match[0].length;
      if (cut <= 0) cut = window.lastIndexOf(" ") + 1;
      to = cut > 0 ? from + cut : from + SEGMENT_WINDOW;
    }
    for (const { segment } of sentenceSegmenter.segment(line.slice(from, to))) yield segment;
    from = to;
  }
}

const SENTENCE_END_AND_SPACE = /[.!?。！？…]['"”’)\]]*\s+/gu;

/** A sentence end followed by more text (the segmenter's cue, roughly): ". W", "! 1", "。다". */
const INNER_SENTENCE_END = /[.!?;。！？…]['"”’)\]]*\s*\S/u;


/** A yes/no answer at the start of a statement, in English or Korean; "No" before a word is a determiner ("No woman has …"), not an answer. */
const YES_NO = /^(?:(yes|yeah|yep|correct|true|(?:sure|certainly|absolutely|definitely|of course)(?!\s*,?\s*not(?![\p{L}]))|네|예|맞습니다|맞아요)(?![\p{L}\p{N}])|((?:no|nope|false|incorrect|(?:certainly|absolutely|definitely|of course)\s+not)(?=\s*[,.!:;—–-]|\s*$)|(?:아니요|아니오|아뇨)(?![\p{L}\p{N}])))[\s,.!:;—-]*/iu;
/**
 * An English question that asks for something the answer must add (who, what, when …); not one
 * that offers alternatives ("Which is larger, the Sun or the Moon?"), whose answer may only pick.
 */
const OPEN_QUESTION = /\b(?:what|which|who|whom|whose|when|where|why|how)\b/iu;
/** The auxiliary verb that opens a question a yes or no answers. */
const POLAR_QUESTION = /^(?:is|are|was|were|do|does|did|can|could|will|would|has|have|had|should|must|may)\b\s*/i;

/**
 * The question as a claim, affirmed or denied: "Is the Great Wall visible from space?" + no →
 * "It is not true that the Great Wall is visible from space"; a Korean question keeps its words
 * and takes 그렇다 / 그렇지 않다 ("반달가슴곰이 살고 있나요: 그렇지 않다").
 */
function answerAsClaim(question: string, yes: boolean): string {
  const body = question.trim().replace(/[?？]+$/, "").replace(POLAR_QUESTION, "");
  if (HAS_HANGUL.test(body)) return `${body}: ${yes ? "그렇다" : "그렇지 않다"}`;
  const claim = body.charAt(0).toLowerCase() + body.slice(1);
  return `${yes ? "It is true that" : "It is not true that"} ${claim}`;
}

/**
 * Whether the rest of a yes/no answer only repeats the question: no value, and every term one of
 * the question's (for Korean, a word of the same first syllable: 살고 있어요 / 살고 있나요). With
 * `open`, a sentence of an open question's answer: one that denies the question's words does not.
 */
function echoesQuestion(rest: string, asked: AskedWords, otherNames = false, open = false): boolean {
  const said = analyzeStatement(rest);
  // To an open question a denial of its words says something ("Fermat's Last Theorem has never been
  // proved", asked who proved it); after "No," to a yes/no question it is the same denial again.
  if (said.values.length > 0 || (open && said.negations.length > 0)) return false;
  return said.terms.every(
    (t) =>
      asked.keys.some((k) => k === t.key || (HAS_HANGUL.test(k) && HAS_HANGUL.test(t.key) && k.charAt(0) === t.key.charAt(0))) ||
      // Another name of what it asks about: "Britain", or the initials of its words ("UK", "PM").
      (otherNames && (aliasHeld(t, asked.pool()) || (t.acronym && holds(asked.pool(), t)))),
  );
}

/** A question's own words, read once for every sentence and claim of its answer. */
interface AskedWords {
  /** Its terms' keys, not the words an abbreviation in it stands for ("GDP" does not ask "gross domestic product"). */
  keys: string[];
  /** Its terms pooled, built when first asked for (to find another name of a country it names). */
  pool: () => Pool;
}

/** Reads `question` once for {@link echoesQuestion}. */
function askedWords(question: string): AskedWords {
  const read = analyzeStatement(question);
  let pooled: Pool | undefined;
  return { keys: read.terms.filter((t) => !expandedFrom(t)).map((t) => t.key), pool: () => (pooled ??= pool([read])) };
}

/** Whether a term is a word of an abbreviation's expansion, carrying the abbreviation's form ("gross" from "GDP"). */
function expandedFrom(t: Term): boolean {
  return !HAS_HANGUL.test(t.key) && t.form.toLowerCase() !== t.key && !t.form.toLowerCase().startsWith(t.key.slice(0, 2)) && /^\p{Lu}[\p{Lu}\d]+$/u.test(t.form);
}

/** Whether a statement has words outside its values ("Two ways" has "ways"; "Six years" has none). */
function wordsBesideValues(read: StatementAnalysis): boolean {
  let rest = read.text;
  for (const v of [...read.values].sort((a, b) => b.start - a.start)) rest = rest.slice(0, v.start) + rest.slice(v.end);
  return /\p{L}{2,}/u.test(rest);
}

/**
 * Splits a text into standalone statements: lines and bullet items, then
 * sentences (`Intl.Segmenter`, any language), then semicolons and joined
 * clauses (English ", and" / ", but" / ", which" / ", because" / "; " … when
 * both sides have at least 3 words; Korean "-고", "-며", "-으며", "-지만"
 * when both sides are reasonably long), then atomic claims (a clause with
 * several values or names becomes one claim each). Filler such as "I believe"
 * is dropped; a bare "Yes"/"No" to a yes/no `question` becomes that question
 * affirmed or denied. Pieces that name nothing and state no value ("it
 * does.") are dropped.
 *
 * @example
 * splitStatements("Einstein was born in Spain in 1879.");
 * // → ["Einstein was born in Spain.", "Einstein was born in 1879."]
 * splitStatements("- 한글은 세종대왕이 창제했고 훈민정음으로 반포되었다.\n- 1446년이다.");
 * // → ["한글은 세종대왕이 창제했고", "훈민정음으로 반포되었다.", "1446년이다."]
 */
export function splitStatements(text: string, question = ""): string[] {
  // First the sentences, with yes/no answers and filler taken out ...
  const claims: Array<string | { sentence: string }> = [];
  // Where the sentences of doubt alone are in `claims`.
  const doubts = new Set<number>();
  let first = true;
  // Where the last sentence's entries of `claims` begin (a sentence that takes it back removes them).
  let sentenceStart = 0;
  const asked = askedWords(question);
  const yesNoQuestion = POLAR_QUESTION.test(question.trim()) || HAS_HANGUL.test(question);
  const openQuestion = !yesNoQuestion && OPEN_QUESTION.test(question) && !/\bor\b/iu.test(question);
  const whyQuestion = /\bwhy\b/iu.test(question);
  for (const rawLine of plainText(text, yesNoQuestion).split(/\r\n|[\r\n\u2028\u2029]/)) {
    const line = rawLine.replace(BULLET, "").trim();
    if (!line) continue;
    for (const sentence of sentences(line)) {
      let rest = sentence;
      // "It is Sydney. Actually, no, it is Canberra.": the sentence before is taken back.
      const taken = takesBack(rest);
      if (taken !== undefined) {
        claims.length = sentenceStart;
        for (const i of doubts) if (i >= sentenceStart) doubts.delete(i);
        rest = taken;
      }
      sentenceStart = claims.length;
      const polar = first ? YES_NO.exec(rest.trim()) : null;
      first = false;
      if (polar && yesNoQuestion) {
        claims.push(answerAsClaim(question, polar[1] !== undefined));
        rest = rest.trim().slice(polar[0].length);
        // "Yes, correct." / "네, 맞아요.": a second yes or no says no more.
        const again = YES_NO.exec(rest);
        if (again && (again[1] !== undefined) === (polar[1] !== undefined)) rest = rest.slice(again[0].length);
        // "Yes, penguins can swim." / "네, 살고 있어요.": the rest repeats the question, which the claim already says.
        if (echoesQuestion(rest, asked)) continue;
      }
      const said = claimedPart(rest);
      if (doubtOnly(said)) doubts.add(claims.length);
      claims.push({ sentence: said });
    }
  }
  // A sentence of doubt alone beside the answer's claims ("Maybe 1945? Not sure.") is no claim; on
  // its own it is the answer's refusal, and stays.
  if (doubts.size > 0 && doubts.size < claims.length) for (const i of [...doubts].sort((a, b) => b - a)) claims.splice(i, 1);
  // ... then cut into clauses and atomic claims.
  const statements: string[] = [];
  const keep = (claim: string): void => {
    const statement = claim.trim();
    if (!statement || !HAS_LETTER_OR_DIGIT.test(statement)) return;
    // Read it now: classification usually finds it read (a pure function of the text, so a later
    // reading after it was forgotten gives the same analysis).
    const read = analyzeStatement(statement);
    // A piece that names nothing makes no claim: "it does.", or a count of light words that leads
    // into what follows ("Two ways:"). A bare value stays: it may be the whole answer ("Four.", "Six years.").
    if (read.terms.length === 0 && !read.refusal && (read.values.length === 0 || (read.values.every(isWordCount) && wordsBesideValues(read)))) return;
    statements.push(statement);
  };
  for (const c of claims) {
    if (typeof c === "string") {
      keep(c);
      continue;
    }
    // A bracketed note or a closing apposition is a claim of its own, after the sentence's.
    const { main, asides } = HAS_HANGUL.test(c.sentence) ? { main: c.sentence, asides: [] } : withoutAsides(c.sentence);
    const pieces = splitClauses(main).map((piece) => atomicClaims(piece.trim()));
    const clauses = pieces.length;
    // A sentence that only says again what an open question asks makes no claim ("The Berlin Wall fell
    // in a year."): each of its claims says only that. (Read from its claims, which are read anyway.)
    const all = [...pieces.flat(), ...asides];
    if (openQuestion && all.length > 0 && all.every((claim) => HAS_LETTER_OR_DIGIT.test(claim) && echoesQuestion(claim, asked, false, true))) continue;
    // A claim cut from the sentence that only says what an open question asks ("Apollo 11 landed on
    // the Moon." of "… in 1969", asked when) is the question's premise, not a fact of the answer; so
    // is a clause that says again what a why-question asks ("Ice floats" of "Ice floats because …").
    // (To a "which" or "what" question, a clause that restates its words is about the answer it names.)
    for (const atoms of pieces) {
      const premise = openQuestion && (atoms.length > 1 || (clauses > 1 && whyQuestion));
      for (const claim of atoms) if (!(premise && echoesQuestion(claim, asked, true, true))) keep(claim);
    }
    for (const aside of asides) keep(aside);
  }
  return resolvePronouns(statements);
}
