/**
 * The offline judge's answers to evalframe's own tasks: a pure function of
 * the task, so that it gives the same answer in the main thread or in a
 * worker thread, whatever was answered before.
 */
import { describeSource } from "../../context/items";
import { JudgeError, type JudgeTask } from "../types";
import { isRefusal } from "./analyze";
import { classifyStatements } from "./classify";
import { judgeRelevanceText } from "./relevance";
import { splitStatements } from "./statements";
import { textLanguage, unreadScript } from "./text";

/**
 * Answers one task as an LLM judge would reply (same shapes), or throws a
 * `JudgeError` for what the offline judge cannot judge (images, custom tasks).
 */
export function answerTask(asked: JudgeTask): unknown {
  const task = composed(asked);
  switch (task.kind) {
    case "extract_statements":
      readable(task.text, "text");
      return { statements: splitStatements(task.text, task.question) };
    case "classify_statements":
      readable(task.response.join(" "), "answer");
      readable(task.reference.join(" "), "reference");
      // A refusal in another language ("I don't know." to a Korean question) is a refusal all the same: it scores 0.
      if (!task.response.every(isRefusal)) sameLanguage(task.response.join(" "), task.reference.join(" "));
      return classifyStatements(task.question, task.response, task.reference);
    case "relevance": {
      const images = task.contexts.flatMap((c, i) => (c.type === "image" ? [`context ${i + 1} (${describeSource(c.source)})`] : []));
      if (images.length > 0) {
        throw new JudgeError(
          `the offline judge cannot see images, and this verdict depends on ${images.join(", ")}; ` +
            "set OPENAI_API_KEY or OPENAI_BASE_URL and a vision model to judge this row",
        );
      }
      const texts = task.contexts.flatMap((c) => (c.type === "text" ? [c.text] : []));
      readable(task.response, "answer");
      readable(texts.join(" "), "contexts");
      return judgeRelevanceText(task.question, task.response, texts);
    }
    case "custom":
      throw new JudgeError(`the offline judge answers only evalframe's own tasks, not "${task.name}"`);
  }
}

/** Text in Unicode's composed form (NFC): "Zu\u0308rich" as "Zürich", Hangul written as jamo as its syllables. */
function nfc(text: string): string {
  return NOT_ASCII.test(text) ? text.normalize("NFC") : text;
}

const NOT_ASCII = /[^\x00-\x7F]/u;

/**
 * A task's texts in composed form: text copied from a Mac or a PDF often comes decomposed (a
 * letter, then its accent; Hangul as jamo), and the same words written the two ways must match.
 */
function composed(task: JudgeTask): JudgeTask {
  switch (task.kind) {
    case "extract_statements":
      return { ...task, question: nfc(task.question), text: nfc(task.text) };
    case "classify_statements":
      return { ...task, question: nfc(task.question), response: task.response.map(nfc), reference: task.reference.map(nfc) };
    case "relevance":
      return { ...task, question: nfc(task.question), response: nfc(task.response), contexts: task.contexts.map((c) => (c.type === "text" ? { ...c, text: nfc(c.text) } : c)) };
    case "custom":
      return task;
  }
}

/**
 * Throws a `JudgeError` when `text` is mostly in a script the offline judge
 * cannot read: a score from words it cannot tell apart would look as sure as any other.
 */
function readable(text: string, what: string): void {
  const script = unreadScript(text);
  if (script === undefined) return;
  throw new JudgeError(
    `the offline judge reads English and Korean, and this row's ${what} is in ${script}; ` +
      "set OPENAI_API_KEY or OPENAI_BASE_URL to judge it with a model",
  );
}

/**
 * Throws a `JudgeError` when the answer and the reference are in different
 * languages (each at least 4 words; one when one is Korean and the other has Latin words): the offline judge matches words, so a
 * right answer in German scored against an English reference would look wrong.
 */
function sameLanguage(answer: string, reference: string): void {
  const words = (text: string) => text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  const said = textLanguage(answer);
  const expected = referenceLanguage(reference);
  if (said === expected) return;
  // Hangul against Latin letters is told by the script, from one word on ("서울." to "Seoul is the capital"), unless the
  // Korean side's only Hangul is a unit after a number ("1945년."): values are compared across languages.
  // Languages of Latin letters are told from four words on.
  if (said === "Korean" || expected === "Korean") {
    const [korean, other] = said === "Korean" ? [answer, reference] : [reference, answer];
    if (!HANGUL_WORD_START.test(korean) || !LATIN_WORD.test(other)) return;
  } else if (words(answer) < 4 || words(reference) < 4) return;
  throw new JudgeError(
    `the answer is in ${said} and the reference in ${expected}, and the offline judge matches words, so it cannot tell whether they say the same; ` +
      "set OPENAI_API_KEY or OPENAI_BASE_URL to judge it with a model",
  );
}

/** A word that starts with a Hangul letter (not "년" after "1945"). */
const HANGUL_WORD_START = /(?<![\p{L}\p{N}])[\uAC00-\uD7A3]/u;
/** A word of two or more Latin letters. */
const LATIN_WORD = /\p{Script=Latin}{2}/u;

/** The reference last read by {@link referenceLanguage}, and its language. */
let lastReference: { text: string; language: string } | undefined;

/** The language of a reference: the answers to one question come one after another, and share it (read once for all of them). */
function referenceLanguage(reference: string): string {
  if (lastReference?.text !== reference) lastReference = { text: reference, language: textLanguage(reference) };
  return lastReference.language;
}
