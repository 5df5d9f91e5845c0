/**
 * Pronouns replaced by what they stand for, as a statement of Ragas' must stand alone without
 * pronouns: "That was Epimetheus. Zeus punished him." → "Zeus punished Epimetheus." Then a wrong
 * name carried on by "he", "him" or "his" is wrong in every statement that speaks of that person,
 * and a right one is right in each. "they" that opens a statement stands for a plural subject
 * just before it ("Male mosquitoes do not bite; they feed on nectar"). English only; "it" is left,
 * as what it stands for is too often a clause, or not the subject before it.
 */
import { analyzeStatement } from "./analyze";
import { englishTokens } from "./english";
import { foldAccents, HAS_HANGUL } from "./text";

/** A personal pronoun of one person, as a word (cheap test before tagging). */
const PERSONAL = /\b(?:he|she|him|his|her)\b/iu;
/** Any pronoun this resolves, "they" included (a first test of a whole answer). */
const PRONOUN = /\b(?:[Hh]e|[Ss]he|him|[Hh]is|[Hh]er|[Tt]hey)\b/u;

/** A person named in a statement: the whole name as written, and its key (lower case). */
interface Named {
  /** The name as written, read when first asked for. */
  readonly written: string;
  key: string;
  /** Named as a subject or complement; not only as what an object pronoun stood for. */
  subject: boolean;
}

/** Prepositions before a place or a thing, not a person ("born in Warsaw", "Prime Minister of the UK"). */
const NOT_PERSON_ROLE = new Set(["in", "at", "on", "to", "from", "into", "onto", "near", "across", "through", "around", "within", "inside", "outside", "between", "over", "under", "of", "off", "toward", "towards", "along", "past", "beyond", "about"]);

/**
 * The names a statement gives to people, in order: as its subject, what it is or who did it
 * ("Zeus punished …", "That was Epimetheus", "… was discovered by Alexander Fleming"), or as the
 * object of a verb ("inoculated the boy James Phipps"); not a name after a preposition of place
 * ("in Warsaw").
 */
function peopleNamed(statement: string): Named[] {
  const out: Named[] = [];
  const terms = analyzeStatement(statement).terms;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    if (!t.entity || NOT_PERSON_ROLE.has(t.role)) continue;
    // The name's words: the terms of its group ("margaret thatcher").
    const first = i;
    while (t.group && i + 1 < terms.length && terms[i + 1]!.group === t.group) i++;
    const words = terms.slice(first, i + 1);
    const key = words.map((w) => w.key).join(" ");
    if (out.some((n) => n.key === key)) continue;
    const forms = words.map((w) => w.form);
    let written: string | undefined;
    out.push({
      get written() {
        return (written ??= asWritten(statement, forms));
      },
      key,
      subject: t.role === "subject" || t.role === "be" || t.role === "by",
    });
  }
  return out;
}

/** The words of a name as the statement writes them, accents and all ("René Laennec"; its terms' forms read "Rene"). */
function asWritten(statement: string, forms: readonly string[]): string {
  const words = statement.split(/\s+/).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.]+$/gu, ""));
  for (let i = 0; i + forms.length <= words.length; i++) {
    if (forms.every((f, k) => foldAccents(words[i + k]!) === f)) return words.slice(i, i + forms.length).join(" ");
  }
  return forms.join(" ");
}

/**
 * `statements` (in the order the text says them) with the first "he", "she", "him", "his" or
 * "her" of each replaced by the person last named as a subject or complement before it: "He …"
 * stands for that person; "his" too, where the statement names no subject of its own (else it is
 * the subject's); "him" only where the statement's subject is another named person ("Zeus
 * punished him"). An opening "they" becomes a plural subject just before it. A statement that
 * already names the person, or with no person named before it, is left as it is.
 *
 * @example
 * resolvePronouns(["That was Epimetheus.", "Zeus punished him by chaining him to a rock."]);
 * // → ["That was Epimetheus.", "Zeus punished Epimetheus by chaining him to a rock."]
 */
export function resolvePronouns(statements: readonly string[]): string[] {
  // Most answers have no pronoun of a person: nothing to track.
  if (!statements.some((x) => PRONOUN.test(x))) return [...statements];
  // People named so far, the latest last.
  const named: Named[] = [];
  const mention = (n: Named): void => {
    const at = named.findIndex((m) => m.key === n.key);
    if (at >= 0) named.splice(at, 1);
    named.push(n);
  };
  // The plural subject of the statement before ("Male mosquitoes"), for a "they" that opens the next.
  let plural: string | undefined;
  return statements.map((raw) => {
    if (HAS_HANGUL.test(raw)) return raw;
    const they = plural !== undefined && /^they\s/iu.test(raw) ? `${plural}${raw.slice(4)}` : raw;
    plural = pluralSubject(they);
    const statement = they;
    const own = peopleNamed(statement);
    const resolved = named.length > 0 && PERSONAL.test(statement) ? replaceFirst(statement, own, named) : undefined;
    for (const n of own) mention(n);
    if (!resolved) return statement;
    // What the pronoun stood for is named there now, after the statement's subject.
    mention({ ...resolved.person, subject: resolved.subject || resolved.person.subject });
    return resolved.statement;
  });
}

/** The subject of a statement when it is a plural noun with its adjectives ("Male mosquitoes do not bite" → "Male mosquitoes"). */
function pluralSubject(statement: string): string | undefined {
  const tokens = englishTokens(statement);
  const verb = tokens.findIndex((t) => t.pos === "VERB" || t.pos === "AUX");
  if (verb < 1 || verb > 4) return undefined;
  // (Past a leading "Only" or "Most": "Only female mosquitoes bite".)
  const from = tokens[0]!.pos === "ADV" || /^(?:most|many|some|all)$/iu.test(tokens[0]!.text) ? 1 : 0;
  const subject = tokens.slice(from, verb);
  const head = subject[subject.length - 1];
  const plain = subject.every((t, k) => t.pos === "ADJ" || t.pos === "NOUN" || (k === 0 && t.pos === "DET" && /^(?:the|these|those)$/iu.test(t.text)));
  if (head === undefined || !plain || head.pos !== "NOUN" || !/s$/u.test(head.text) || head.lemma === head.text.toLowerCase()) return undefined;
  return statement.slice(subject[0]!.start, head.end);
}

/** `statement` with its first personal pronoun replaced (see {@link resolvePronouns}), or undefined. */
function replaceFirst(statement: string, own: readonly Named[], named: readonly Named[]): { statement: string; person: Named; subject: boolean } | undefined {
  const tokens = englishTokens(statement);
  const i = tokens.findIndex((t) => t.pos === "PRON" && /^(?:he|she|him|his|her)$/i.test(t.text));
  if (i < 0) return undefined;
  const word = tokens[i]!.text.toLowerCase();
  const next = tokens[i + 1];
  const possessive = word === "his" || (word === "her" && next !== undefined && /^(?:NOUN|PROPN|ADJ|NUM)$/.test(next.pos));
  const subject = word === "he" || word === "she";
  // "He" stands for the last person named as a subject, and so does "his" where the statement names
  // no subject of its own ("Thomson … with his experiment" is Thomson's). "Him" is someone other
  // than the statement's subject: the last person named as a subject before, and only where that
  // subject is a name ("Zeus punished him"; in "this protected him" it may be anyone named).
  const ownSubject = own.find((n) => n.subject)?.key;
  if (possessive && ownSubject !== undefined) return undefined;
  if (!subject && !possessive && ownSubject === undefined) return undefined;
  const person = [...named].reverse().find((n) => n.subject && n.key !== ownSubject);
  if (!person || own.some((n) => n.key === person.key) || statement.toLowerCase().includes(person.key)) return undefined;
  const name = possessive ? `${person.written}'s` : person.written;
  return { statement: statement.slice(0, tokens[i]!.start) + name + statement.slice(tokens[i]!.end), person, subject };
}
