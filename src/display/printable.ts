/**
 * Text made safe for a terminal: control characters (ESC, BEL, NUL, CR, DEL,
 * the C1 range), Unicode direction controls (overrides, embeddings,
 * isolates and marks), invisible characters that make two different names
 * look alike (zero-width space, word joiner, byte-order mark, invisible
 * operators, tag characters), line and paragraph separators, and lone
 * surrogates in user data (model names, ids, questions, file contents in
 * errors) are shown as visible escapes, so a value can neither retitle the
 * window, clear the screen, reorder a line nor pass for another. Line breaks
 * and tabs are kept; so are the zero-width joiner and non-joiner, which
 * emoji and scripts such as Persian need.
 */

const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]|[\ud800-\udfff]/gu;

/** `\uNNNN` of one UTF-16 code unit. */
function unitEscape(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, "0")}`;
}

/**
 * Replaces unsafe characters with escapes: `\xNN` for the C0 controls (ESC,
 * BEL, CR: `JSON.stringify` never leaves them raw), `\uNNNN` for the others,
 * a character beyond U+FFFF as its two `\uNNNN` halves. Outside the C0 range
 * these are JSON's own escapes, so a command's `--json` output stays valid
 * JSON and reads back as the very text it holds.
 *
 * @example
 * printable("model\u001b]0;pwned\u0007"); // → "model\\x1b]0;pwned\\x07"
 * printable("gpt-4o\u200b");             // → "gpt-4o\\u200b" (not the same name as "gpt-4o")
 * printable("del\u007f");                // → "del\\u007f"
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.codePointAt(0)!;
    if (code <= 0x1f) return `\\x${code.toString(16).padStart(2, "0")}`;
    return c.length === 2 ? unitEscape(c.charCodeAt(0)) + unitEscape(c.charCodeAt(1)) : unitEscape(code);
  });
}
