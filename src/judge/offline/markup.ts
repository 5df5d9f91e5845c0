/**
 * The plain text of an answer as LLMs write it, for the offline judge's
 * statement splitter: Markdown markup, HTML entities and invisible
 * characters taken out, answer labels ("Final answer:", "TL;DR:") and chat
 * lines that say nothing of the question ("Sure!", "I hope this helps!")
 * dropped, and lines broken inside a sentence joined again.
 */

/** Characters that show nothing and split words: zero-width space, soft hyphen, word joiner, byte-order mark. */
const INVISIBLE = /[\u200B\u00AD\u2060\uFEFF]/gu;

/** The HTML entities LLM output carries, by name. */
const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
  ["nbsp", " "],
  ["ndash", "–"],
  ["mdash", "—"],
  ["deg", "°"],
]);

/** Full-width forms of ASCII (ＡＢＣ，１２３！) and the ideographic space: as the ASCII they stand for ("Ｐａｒｉｓ" is "Paris"). */
const FULL_WIDTH = /[\uFF01-\uFF5E\u3000]/gu;

/** A full-width character of {@link FULL_WIDTH} as its ASCII one. */
function halfWidth(c: string): string {
  const code = c.charCodeAt(0);
  return code === 0x3000 ? " " : String.fromCharCode(code - 0xfee0);
}

/**
 * Full-width forms of ASCII as ASCII, one UTF-16 unit for one (offsets hold).
 *
 * @example
 * foldFullWidth("Ｐａｒｉｓ　１８８９") // → "Paris 1889"
 */
export function foldFullWidth(text: string): string {
  return text.replace(FULL_WIDTH, halfWidth);
}

/** Subscript digits as digits: "H₂O" is "H2O" (superscripts stay: "10²³" is a power). */
const SUBSCRIPT = /[₀-₉]/gu;

/** A fenced code block's fence line: ``` or ~~~, with or without a language. */
const FENCE = /^\s*(?:```|~~~)/u;
/** A Markdown heading line: "# …" to "###### …". */
const HEADING = /^\s{0,3}#{1,6}\s+/u;
/** A horizontal rule: "---", "***", "___". */
const RULE = /^\s{0,3}(?:[-*_]\s*){3,}$/u;
/** A table's separator row: "|---|:---:|". */
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/u;
/** A table row: starts and ends with a pipe. */
const TABLE_ROW = /^\s*\|.*\|\s*$/u;

/**
 * Labels an LLM puts before its answer, at the start of a line: "Answer:",
 * "Final answer:", "Short answer:", "TL;DR:", "In short:", "A:".
 */
const ANSWER_LABEL = /^(?:(?:the\s+)?(?:final|short|direct|brief|correct|my)\s+answer|answer|tl;?\s*dr|in\s+short|in\s+summary|summary|result|response|a)\s*[:：]\s*/iu;

/**
 * Whole sentences that make no claim about the question: openers, offers and
 * sign-offs ("Sure!", "Great question.", "Here's the answer:", "I hope this
 * helps!", "Let me know if you have other questions.", "Would you like me to
 * …?"), and restatements of what was asked ("You are asking …", "The
 * question asks …").
 */
const CHAT_SENTENCE = new RegExp(
  [
    String.raw`^(?:great|excellent|happy to help|glad to help|no problem)(?:[,!.]?\s*(?:here(?:'s| is)[^.!?]*)?)?[.!:]*$`,
    String.raw`^(?:that's a |what a |this is a )?(?:great|good|excellent|interesting|fantastic) question[.!]*$`,
    String.raw`^(?:that|this|it)(?:'s|’s| is) an? (?:\w+ )?question\b[^.!?]*[.!]*$`,
    String.raw`^let(?: me|'s|’s) (?:explain|break (?:it|this) down|take a look|look at (?:it|this)|think about (?:it|this))\b[^.!?:]*[.!:]*$`,
    String.raw`^(?:i )?hope (?:this|that|it) helps?\b[^.!?]*[.!]*$`,
    String.raw`^i(?:'d|’d| would|'m|’m| am)(?: be)? (?:happy|glad|delighted) to (?:help|assist|explain)\b[^.!?]*[.!]*$`,
    String.raw`^(?:please )?(?:let me know|feel free to|don't hesitate to)\b[^.!?]*[.!]*$`,
    String.raw`^(?:would you like|do you want|shall i|should i|can i help|is there anything else)\b[^.!?]*[?.!]*$`,
    String.raw`^(?:you(?:'re| are) asking|you asked|you want to know|the question (?:asks|is asking|is)|your question (?:asks|is))\b[^.!?]*[.!]*$`,
  ].join("|"),
  "iu",
);

/**
 * A preface before the answer in the same sentence, taken off: "Here's the
 * answer: …", "As an AI language model, I don't have opinions, but …".
 */
const CHAT_PREFACE = new RegExp(
  [
    String.raw`^here(?:'s|’s| is| are)(?: the| my| a)? (?:answer|response|explanation|summary|breakdown|quick answer|short answer|what you need to know)\b[^.!?:]*(?:[:.!]\s*|$)`,
    String.raw`^as an ai(?: language model| assistant| model)?\b(?:,?\s*i\b[^,.;]*)?(?:[,;]\s*(?:but\s+)?|[.!]\s*|$)`,
  ].join("|"),
  "iu",
);

/**
 * Words of assent that open a chat reply ("Sure! Here's …"): dropped, except
 * where they answer a yes/no question ("Can penguins swim?" "Absolutely.").
 */
const ASSENT = /^(?:sure|certainly|of course|absolutely|okay|ok)(?:[,!.]?\s*(?:here(?:'s| is)[^.!?]*)?)?[.!:]*$/iu;

/** An opener before the answer in the same sentence: "Sure, …", "Certainly! …". */
const CHAT_OPENER = /^(?:sure|certainly|of course|absolutely|okay|ok)\s*[,!—–-]\s*(?=\p{L})/iu;

/** Words a sentence broken by a line end can end in: the line goes on in the next. */
const CONTINUING_WORD = /(?:^|\s)(?:a|an|the|of|in|on|at|to|by|for|from|with|and|or|but|is|are|was|were|be|been|has|have|had|that|which|who|as|than)$/iu;

/** Replaces HTML entities (named ones above, and numeric ones) by their characters. */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]{2,8}));/giu, (whole, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES.get(name.toLowerCase()) ?? whole;
    const code = dec !== undefined ? Number(dec) : Number.parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Inline Markdown and LaTeX taken out of one line: emphasis, code spans, links and images, math delimiters. */
function inlinePlain(line: string): string {
  let s = line
    // Images and links: their text.
    .replace(/!?\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/gu, "$1")
    // Bare links in angle brackets.
    .replace(/<(https?:\/\/[^>\s]+)>/gu, "$1")
    // LaTeX commands that wrap text: \boxed{…}, \text{…}, \textbf{…}, \mathrm{…}.
    .replace(/\\(?:boxed|text|textbf|textit|mathrm|mathbf|emph)\s*\{([^{}]*)\}/gu, "$1");
  // Nested wrappers: \boxed{\text{Ottawa}}.
  for (let before = ""; before !== s; ) {
    before = s;
    s = s.replace(/\\(?:boxed|text|textbf|textit|mathrm|mathbf|emph)\s*\{([^{}]*)\}/gu, "$1");
  }
  return (
    s
      // Math delimiters: \( … \), \[ … \], and $ … $ (not amounts: "$5 and $6", "$5–$10").
      .replace(/\\[()[\]]/gu, " ")
      .replace(/\$(?=[^\s$])([^$\n]*?[^\s$\\])\$(?!\d)/gu, "$1")
      // Code spans.
      .replace(/`+([^`\n]*)`+/gu, "$1")
      // Bold, italics and strike-through markers around words.
      .replace(/(\*\*|__|~~)(?=\S)([^\n]*?\S)\1/gu, "$2")
      .replace(/(^|[\s(])[*_](?=[^\s*_])([^*_\n]*?[^\s*_])[*_](?=$|[\s.,;:!?)])/gu, "$1$2")
  );
}

/** A table row's cells as one line ("France Paris"), or "" for a separator row. */
function tableRowText(line: string): string {
  if (TABLE_SEPARATOR.test(line)) return "";
  const cells = line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim()).filter((c) => c !== "");
  return cells.join(" ");
}

/** Whether a line ends inside a sentence: no end mark, and the next line goes on with it. */
function breaksSentence(line: string, next: string): boolean {
  if (/[.!?。！？:;…)\]"”']\s*$/u.test(line)) return false;
  if (next === "" || /^\s*(?:[-*+•‣◦▪]|\d{1,3}[.)])\s+/u.test(next) || HEADING.test(next) || TABLE_ROW.test(next)) return false;
  return /^\s*\p{Ll}/u.test(next) || /,\s*$/u.test(line) || CONTINUING_WORD.test(line.trimEnd());
}

/**
 * The plain text of an answer or a reference: what the statement splitter
 * reads. Lines stay lines (bullets and line ends still separate
 * statements), except a line broken inside a sentence, which is joined to
 * the next. A heading, a table's header row, a code fence, a horizontal
 * rule, an answer label and a chat sentence that says nothing of the
 * question are dropped; a table's other rows become their cells' words.
 * Given a yes/no question (`yesNoQuestion`), a reply's first "Sure." or
 * "Absolutely!" stays: it is the answer.
 *
 * @example
 * plainText("Sure! Here's the answer:\n\n**Final answer:** The capital is *Ottawa*.\n\nI hope this helps!");
 * // → "The capital is Ottawa."
 * plainText("The Mona Li\u200Bsa was painted by\nLeonardo da Vinci &amp; nobody else.");
 * // → "The Mona Lisa was painted by Leonardo da Vinci & nobody else."
 */
export function plainText(text: string, yesNoQuestion = false): string {
  const lines = decodeEntities(foldFullWidth(text.replace(INVISIBLE, ""))).replace(SUBSCRIPT, (d) => String(d.charCodeAt(0) - 0x2080)).split(/\r\n|[\r\n\u2028\u2029]/u);
  const out: string[] = [];
  let tableHeaderNext = true;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (FENCE.test(raw) || HEADING.test(raw) || RULE.test(raw)) {
      tableHeaderNext = true;
      continue;
    }
    let line: string;
    if (TABLE_ROW.test(raw)) {
      // The first row of a table is its header (when a separator row follows it).
      const header = tableHeaderNext && TABLE_SEPARATOR.test(lines[i + 1] ?? "");
      tableHeaderNext = false;
      if (header) continue;
      line = tableRowText(raw);
    } else {
      tableHeaderNext = true;
      line = raw.replace(/^\s{0,3}>\s?/u, "");
    }
    line = dropChat(inlinePlain(line), yesNoQuestion && !out.some((l) => l.trim() !== ""));
    if (line.trim() === "") {
      out.push("");
      continue;
    }
    const previous = out.length > 0 ? out[out.length - 1]! : "";
    if (previous.trim() !== "" && breaksSentence(previous, line)) out[out.length - 1] = `${previous.trimEnd()} ${line.trimStart()}`;
    else out.push(line);
  }
  return out.join("\n").replace(/\n{3,}/gu, "\n\n").trim();
}

/** The start of a guess, not a question asked back: "Maybe …?", "Probably …?", "I think …?". */
const GUESS = /^(?:maybe|perhaps|probably|possibly|i\s+(?:think|believe|guess))\b/iu;

/**
 * One line without its answer label and without its chat sentences: each
 * sentence (cut at ". ", "! ", "? ") that is an opener, a sign-off, an offer
 * or a restatement of the question is dropped, and a question the answer
 * asks back ("Who wrote it? …") too: a question claims nothing (a guess with a question mark,
 * "Maybe 1945?", is the answer and stays). In the
 * first sentence of a reply to a yes/no question (`answersYesNo`), words of
 * assent stay: they are its answer.
 */
function dropChat(line: string, answersYesNo: boolean): string {
  const bullet = /^\s*(?:[-*+•‣◦▪]|\d{1,3}[.)])\s+/u.exec(line)?.[0] ?? "";
  let body = line.slice(bullet.length).trim().replace(ANSWER_LABEL, "");
  const kept: string[] = [];
  for (const sentence of body.split(/(?<=[.!?])\s+(?=\S)/u)) {
    // The first words of a reply to a yes/no question may be its answer: "Sure." is "yes".
    const first = answersYesNo && kept.length === 0;
    const s = first ? sentence.trim() : sentence.trim().replace(CHAT_OPENER, "").replace(CHAT_PREFACE, "").replace(ANSWER_LABEL, "");
    // A guess with a question mark ("Maybe 1945?", "I think it was Paris?") is the answer, hedged; it is kept.
    const asks = /\?\s*$/u.test(s);
    const guess = asks && GUESS.test(s);
    if (s === "" || CHAT_SENTENCE.test(s) || (!first && ASSENT.test(s)) || (asks && !guess)) continue;
    kept.push(guess ? s.replace(/\?+\s*$/u, ".") : s);
  }
  body = kept.join(" ");
  return body === "" ? "" : bullet + body;
}
