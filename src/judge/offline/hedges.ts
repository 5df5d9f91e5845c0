/**
 * What an English sentence of an answer claims, once the words about the
 * speaker's certainty, what others say, and a claim taken back are read for
 * what they are: "I think it's Canberra, but I'm not 100% sure" claims
 * "it's Canberra"; "Some sources say Sydney, but the capital is Canberra"
 * claims the capital is Canberra; "It is Sydney. Actually, no, it is
 * Canberra." claims Canberra only.
 */

/** Filler that makes no claim: "I believe", "I think", "to be honest" (at the start, or a clause of its own). */
const FILLER = /(?:^|,\s*)(?:i\s+(?:believe|think|guess)|if\s+i\s+recall(?:\s+correctly)?|as\s+far\s+as\s+i\s+know|to\s+be\s+honest)(?:\s+that)?\s*(?=[,.!?]|$)|^(?:i\s+(?:believe|think)\s+(?:that\s+)?)/giu;

/** "I'm not 100% sure", "I am quite certain about that": the speaker's certainty. */
const CERTAINTY =
  "(?:i['’]?m|i\\s+am)\\s+(?:not\\s+)?(?:(?:\\d{1,3}\\s?%|a\\s+hundred\\s+percent|completely|entirely|totally|fully|quite|very|pretty|fairly|absolutely|really|that)\\s+)?(?:sure|certain|positive|confident)(?:\\s+(?:about|of)\\s+(?:that|this|it))?";

/** "I could be wrong", "if I remember correctly", "don't quote me on that", "(I think)": doubt, no claim. */
const DOUBT =
  "i\\s+(?:could|may|might)\\s+be\\s+(?:wrong|mistaken)|(?:please\\s+)?don['’]?t\\s+quote\\s+me(?:\\s+on\\s+(?:that|this|it))?|if\\s+i\\s+(?:remember|recall)(?:\\s+(?:correctly|rightly))?|if\\s+memory\\s+serves(?:\\s+me)?(?:\\s+(?:right|correctly))?|as\\s+far\\s+as\\s+i\\s+(?:know|remember|can\\s+tell)|to\\s+the\\s+best\\s+of\\s+my\\s+(?:knowledge|recollection)|i\\s+(?:think|believe|guess|suppose)|i['’]?m\\s+guessing|not\\s+(?:(?:100\\s?%|entirely|completely|totally|quite|really)\\s+)?(?:sure|certain)|you\\s+may\\s+want\\s+to\\s+(?:double[-\\s]?check|verify)(?:\\s+(?:that|this|it))?";

/** A hedge that is a clause of its own: after the start, a comma or bracket, or "but"; before punctuation or the end. */
const HEDGE_CLAUSE = new RegExp(`(?:^|(?<=[,;:(—–])|\\s+(?:but|though|although|and)(?=\\s))\\s*(?:${CERTAINTY}|${DOUBT})\\s*(?=[,.;:!?)—–]|$)`, "giu");

/** What others say, before the answer's own claim: "Some sources say X, but …", "It is often said that X, but …". */
const OTHERS_SAY =
  /^(?:some\s+(?:sources|people|websites|books|textbooks|accounts)|many\s+(?:people|sources)|people\s+often|it\s+is\s+(?:often|commonly|widely|sometimes)\s+(?:said|believed|claimed|thought)|a\s+common\s+(?:misconception|myth|belief)\s+is)\b[^,;]*?,\s*(?:but|however|yet)\b[\s,]*/iu;

/** What people believe, said of a claim, not a claim: "… as people often assume", "as is commonly thought", "Contrary to popular belief, …". */
const POPULAR_BELIEF =
  /(?:,?\s+as\s+(?:(?:many|most|some)\s+)?people\s+(?:often\s+|commonly\s+|usually\s+|sometimes\s+|mistakenly\s+)?(?:assume|think|believe|say|expect)|,?\s+as\s+is\s+(?:often|commonly|widely|sometimes)\s+(?:thought|assumed|believed|said|claimed)|(?:^|,\s*)contrary\s+to\s+(?:popular|common)\s+(?:belief|opinion|myth|assumption))(?=\s*[,.;!?]|$)/giu;

/** "not X but Y" with short X and Y, read as "Y, not X" (not "not only X but also Y"). */
const NOT_BUT = /\bnot\s+(?!only\b|just\b|merely\b|simply\b|even\b)((?:[\p{L}\p{N}'’-]+\s+){0,4}?[\p{L}\p{N}'’-]+)\s+but\s+(?:rather\s+|instead\s+)?((?:[\p{L}\p{N}'’-]+\s+){0,4}?[\p{L}\p{N}'’-]+)(?=\s*[.,;!?]|$)/giu;

/** A leading "no" before a clause of its own: "No, …", "Well, no, …", "No, actually, …". */
const LEADING_NO = /^\s*(?:(?:well|so|hmm|oh|um|actually|wait)[,!]?\s+)?no[,!.;:—–]+\s*(?:(?:actually|wait)[,!]?\s+)?(?=[\p{L}\p{N}])/iu;

/** A correction inside a sentence: "…1944 — actually, no, 1945", "…1944; wait, no, 1945". */
const MID_TAKE_BACK = /(?:[,;:—–]\s*|\s+-\s+)(?:but\s+)?(?:actually|wait|sorry|oops)[,!]?\s+no[,!.;:—–]+\s*(?:wait[,!]?\s+)?/iu;

/** A sentence that takes back the one before: "Actually, no, …", "Wait, no — …", "Correction: …", "Sorry, I was wrong: …". */
const TAKE_BACK =
  /^\s*(?:(?:actually|wait|hmm|oh|oops|sorry)[,!.]?\s+(?:no|not\s+quite|that['’]?s\s+(?:wrong|not\s+right|incorrect)|i\s+was\s+wrong|i\s+misspoke|scratch\s+that|let\s+me\s+correct\s+(?:that|myself))|correction|scratch\s+that|i\s+misspoke|i\s+stand\s+corrected)\s*[,:;.!—–-]+\s*/iu;

/**
 * The part of an English sentence that claims something: filler and hedges
 * taken out, what others say before "but" left to them, and "not X but Y"
 * read as "Y, not X". A sentence that is all doubt is returned whole (it is
 * a refusal); Korean and other text as it is, but for its filler.
 *
 * @example
 * claimedPart("I think it's probably Canberra, but I'm not 100% sure."); // "it's probably Canberra."
 * claimedPart("The capital is not Sydney but Canberra."); // "The capital is Canberra, not Sydney."
 */
export function claimedPart(sentence: string): string {
  // "It ended in 1944 — actually, no, 1945.": what comes before a correction is taken back.
  const corrected = MID_TAKE_BACK.exec(sentence);
  if (corrected !== null && /[\p{L}\p{N}]/u.test(sentence.slice(corrected.index + corrected[0].length))) sentence = sentence.slice(corrected.index + corrected[0].length);
  // "No, it ended in 1945." (to a question no yes or no answers): the "no" answers nothing said here.
  for (let m = LEADING_NO.exec(sentence); m !== null; m = LEADING_NO.exec(sentence)) sentence = sentence.slice(m[0].length);
  const unhedged = edges(sentence.replace(HEDGE_CLAUSE, "").replace(/\(\s*\)/gu, ""));
  // A sentence that is all doubt ("I'm not sure about that.") is the answer's refusal: kept whole.
  if (!/[\p{L}\p{N}]/u.test(unhedged)) return sentence;
  return edges(
    unhedged
      .replace(FILLER, "")
      .replace(POPULAR_BELIEF, "")
      .replace(OTHERS_SAY, "")
      .replace(NOT_BUT, (_, denied: string, said: string) => `${said}, not ${denied}`),
  );
}

/** What cuts leave at the edges, tidied: ", but it is …" → "it is …"; "Canberra, ." → "Canberra.". */
function edges(text: string): string {
  return text
    .replace(/^(?:[\s,;:—–]|-(?![\d.]))*(?:(?:but|though|although|and)\b[\s,]*)?/iu, "")
    .replace(/(?:,\s*)+(?=[.!?;]|$)/gu, "")
    .replace(/\s+([.,;!?])/gu, "$1");
}

/**
 * Whether an English sentence is all doubt, no claim: "Not sure.", "I could be wrong, though."
 *
 * @example
 * doubtOnly("Not entirely sure."); // true
 * doubtOnly("It is Canberra, I think."); // false
 */
export function doubtOnly(sentence: string): boolean {
  // Every hedge has one of these words: a sentence without any is no doubt (the full pattern is slow).
  if (!DOUBT_WORD.test(sentence)) return false;
  return /[\p{L}]/u.test(sentence) && !/[\p{L}\p{N}]/u.test(edges(sentence.replace(HEDGE_CLAUSE, "").replace(/\(\s*\)/gu, "")));
}

/** A word that every hedge of {@link CERTAINTY} and {@link DOUBT} has. */
const DOUBT_WORD = /\b(?:sure|certain|positive|confident|wrong|mistaken|quote|remember|recall|serves|know|tell|knowledge|recollection|think|believe|guess|suppose|guessing|check|verify)\b/iu;

/**
 * The sentence without its opening that takes back what was said before
 * ("Actually, no, the capital is Canberra." → "the capital is Canberra."),
 * or undefined when it takes nothing back.
 *
 * @example
 * takesBack("Actually, no, it is Canberra."); // "it is Canberra."
 * takesBack("Actually, it is Canberra."); // undefined: "actually" alone stresses, it does not retract
 */
export function takesBack(sentence: string): string | undefined {
  const m = TAKE_BACK.exec(sentence);
  return m === null ? undefined : sentence.slice(m[0].length);
}
