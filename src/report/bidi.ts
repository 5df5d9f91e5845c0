/**
 * Right-to-left model names in the report's running text. A name written in
 * Arabic or Hebrew letters, followed by its numbers in an English sentence
 * ("نموذج 0.64 (0.58–0.69), …"), pulls those numbers into its own direction:
 * the browser shows "(0.69–0.58) 0.64 نموذج", an interval read backwards.
 * Isolating each such name (`<bdi>`) keeps the numbers where they belong.
 */
import { escapeHtml } from "../display/html";

/** A strong right-to-left letter: Hebrew, Arabic, Syriac, Thaana, N'Ko and the other RTL blocks, and their presentation forms. */
const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** Whether text holds a right-to-left letter. */
export function hasRightToLeft(text: string): boolean {
  return RTL_LETTER.test(text);
}

/**
 * An HTML escaper for text that names models: the text escaped, and every
 * name among `names` that holds a right-to-left letter wrapped in `<bdi>`
 * (longest names first, so a name inside a longer one is not split). Names
 * written left to right are left as they are: they cannot reorder the text.
 *
 * @example
 * isolatingEscaper(["نموذج", "atlas"])("نموذج 0.64 (0.58–0.69) & atlas") // "<bdi>نموذج</bdi> 0.64 (0.58–0.69) &amp; atlas"
 */
export function isolatingEscaper(names: readonly string[]): (text: string) => string {
  const rtl = [...new Set(names.filter((n) => n !== "" && hasRightToLeft(n)))].map(escapeHtml).sort((a, b) => b.length - a.length);
  if (rtl.length === 0) return escapeHtml;
  const pattern = new RegExp(rtl.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "gu");
  return (text) => escapeHtml(text).replace(pattern, (name) => `<bdi>${name}</bdi>`);
}
