/** How label texts are compared with the texts of a table or a judge's task. */

/**
 * The form in which two texts are compared: Unicode NFC, line breaks as
 * `\n`, surrounding white space removed. Anything else (case, inner spaces,
 * punctuation) must match exactly, as docs/labelling.md asks labels to copy
 * the row's text.
 *
 * @example
 * textKey("  Paris\r\n") === textKey("Paris") // true
 */
export function textKey(text: string): string {
  return text.normalize("NFC").replace(/\r\n?/g, "\n").trim();
}

/** A text cut to `max` characters with "…", on one line, for messages. */
export function quote(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return JSON.stringify(chars.length > max ? `${chars.slice(0, max).join("")}…` : flat);
}
