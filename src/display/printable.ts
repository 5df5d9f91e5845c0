/**
 * Text made safe for a terminal: control characters (ESC, BEL, NUL, CR, DEL,
 * the C1 range) and Unicode direction overrides in user data (model names,
 * ids, questions, file contents in errors) are shown as visible escapes, so a
 * value can neither retitle the window, clear the screen nor reorder a line.
 * Line breaks and tabs are kept.
 */

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Replaces unsafe characters with `\xNN` / `\uNNNN` escapes.
 *
 * @example
 * printable("model\u001b]0;pwned\u0007"); // → "model\\x1b]0;pwned\\x07"
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
