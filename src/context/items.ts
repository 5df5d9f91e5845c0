/**
 * What a retrieved-context item is (docs/architecture.md): an image URL, a local image
 * file, an inline data URI, or text. Decided from the string alone; loading
 * happens elsewhere.
 */

/** A context item, classified. */
export type ContextItem =
  | { kind: "text"; text: string }
  | { kind: "url"; source: string }
  | { kind: "file"; source: string }
  | { kind: "data-uri"; source: string };

/** Extensions of images we can send (BMP is converted to PNG first). */
export const IMAGE_EXTENSIONS: readonly string[] = [".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp"];

/** Image extensions we recognise only to refuse them (never sent as text). */
export const REFUSED_IMAGE_EXTENSIONS: readonly string[] = [".svg", ".svgz", ".tif", ".tiff", ".ico", ".heic", ".heif", ".avif"];

function hasImageExtension(text: string): boolean {
  const lower = text.toLowerCase();
  return [...IMAGE_EXTENSIONS, ...REFUSED_IMAGE_EXTENSIONS].some((ext) => lower.endsWith(ext));
}

/**
 * Classifies one context string:
 * - `http://…` / `https://…` (the whole item) → an image URL (other `scheme://`
 *   items too, so that they are refused by name rather than read as text);
 * - `data:…` → an inline data URI;
 * - `file://…`, or a path ending in an image extension (.jpg .jpeg .png .gif
 *   .webp .bmp, and .svg/.tif/… which are then refused) → a local file: with
 *   no spaces, or with spaces when it names a folder (`images/my chart.png`,
 *   `./my chart.png`: a bare `my chart.png` reads as text);
 * - anything else → text.
 *
 * @example
 * classifyContext("https://example.com/chart.png") // { kind: "url", source: "https://example.com/chart.png" }
 * classifyContext("images/cat.jpg")                 // { kind: "file", source: "images/cat.jpg" }
 * classifyContext("images/my cat.jpg")              // { kind: "file", source: "images/my cat.jpg" }
 * classifyContext("Sales rose 12% in Q3.")          // { kind: "text", text: "Sales rose 12% in Q3." }
 */
export function classifyContext(item: string): ContextItem {
  const trimmed = item.trim();
  if (/^data:/i.test(trimmed)) return { kind: "data-uri", source: trimmed };
  if (/^file:\/\//i.test(trimmed)) return { kind: "file", source: trimmed };
  // Any other scheme:// item is a URL, so that ftp://, gopher:// and the like are refused by name.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) && !/\s/.test(trimmed)) return { kind: "url", source: trimmed };
  if (trimmed !== "" && hasImageExtension(trimmed) && (!/\s/.test(trimmed) || isPathWithSpaces(trimmed))) return { kind: "file", source: trimmed };
  return { kind: "text", text: item };
}

/**
 * A path whose names hold spaces ("images/my chart.png", "./Q3 sales.png"):
 * one line of at most 260 characters with a folder separator, no word
 * ending in a sentence's punctuation, and not begun as a sentence is (a
 * capitalised word, then two lower-case ones), unlike a passage of text that
 * ends with a file name ("The chart is saved as images/chart.png").
 */
function isPathWithSpaces(text: string): boolean {
  return text.length <= 260 && !/[\r\n\t]/.test(text) && /[/\\]/.test(text) && !/[.,;:!?]\s/.test(text) && !/^[A-Z][a-z]+ [a-z]+ /.test(text);
}

/** A short name for a context item in messages: long data URIs are cut. */
export function describeSource(source: string): string {
  if (/^data:/i.test(source)) {
    const head = source.slice(0, source.indexOf(",") + 1 || 40);
    return `${head.length > 60 ? head.slice(0, 60) : head}… (${source.length.toLocaleString("en-US")} characters)`;
  }
  return source.length > 200 ? `${source.slice(0, 200)}…` : source;
}
