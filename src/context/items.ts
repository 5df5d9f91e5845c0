/**
 * What a retrieved-context item is (docs/architecture.md): an image URL, a local image
 * file, an inline data URI, or text. Decided from the string alone; loading
 * happens elsewhere.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { sniffImageType, type ImageType } from "./image-type";

/** A context item, classified. */
export type ContextItem =
  | { kind: "text"; text: string }
  | { kind: "url"; source: string }
  | { kind: "file"; source: string }
  | { kind: "data-uri"; source: string };

/** Extensions of images we can send (BMP is converted to PNG first); .jfif, .jpe and .jfi are JPEG. */
export const IMAGE_EXTENSIONS: readonly string[] = [".jpg", ".jpeg", ".jpe", ".jfif", ".jfi", ".png", ".gif", ".webp", ".bmp"];

/** Image extensions we recognise only to refuse them (never sent as text). */
export const REFUSED_IMAGE_EXTENSIONS: readonly string[] = [".svg", ".svgz", ".tif", ".tiff", ".ico", ".heic", ".heif", ".avif"];

function hasImageExtension(text: string): boolean {
  const lower = text.toLowerCase();
  return [...IMAGE_EXTENSIONS, ...REFUSED_IMAGE_EXTENSIONS].some((ext) => lower.endsWith(ext));
}

/**
 * Classifies one context string:
 * - `http://…` / `https://…` (the whole item) → an image URL (other `scheme://`
 *   items too, so that they are refused by name rather than read as text; one
 *   with spaces when it ends in an image extension, as a path with spaces does);
 * - `data:…` → an inline data URI;
 * - `file://…`, or a path ending in an image extension (.jpg .jpeg .jpe .jfif
 *   .jfi .png .gif .webp .bmp, and .svg/.tif/… which are then refused) → a local file: with
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
  // Any other scheme:// item is a URL, so that ftp://, gopher:// and the like are refused by name;
  // one with spaces too when it names an image as a path does ("https://x.org/a b.png"), never as a local path.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    if (!/\s/.test(trimmed) || (hasImageExtension(trimmed) && isPathWithSpaces(trimmed))) return { kind: "url", source: trimmed };
    return { kind: "text", text: item };
  }
  if (trimmed !== "" && hasImageExtension(trimmed) && (!/\s/.test(trimmed) || isPathWithSpaces(trimmed))) return { kind: "file", source: trimmed };
  return { kind: "text", text: item };
}

/** Whether the last piece of `text` (after its last separator or space, a URL's query and fragment left out) ends in an image extension, read from the end. */
function lastPieceNamesImage(text: string): boolean {
  const separator = (c: string): boolean => /[\s,;|]/.test(c);
  let end = text.length;
  while (end > 0 && separator(text[end - 1]!)) end--;
  let start = end;
  while (start > 0 && !separator(text[start - 1]!)) start--;
  return hasImageExtension(text.slice(start, end).replace(/[?#][\s\S]*$/, ""));
}

/**
 * The image sources a text item holds when it is nothing but a list of
 * them in one string — two or more image paths or URLs separated by line
 * breaks, commas, semicolons or `|` ("images/a.png\nimages/b.png",
 * "a.png; b.png"; a URL counts when its path ends in an image extension)
 * — or undefined for any other text. Such an item is not a
 * passage: judged as text, its images would never be sent.
 *
 * @example
 * packedImageSources("images/a.png\nimages/b.jpg") // ["images/a.png", "images/b.jpg"]
 * packedImageSources("The chart is images/a.png") // undefined
 */
export function packedImageSources(text: string): string[] | undefined {
  // A list of image sources is short (a passage is not split for nothing): at most a few hundred characters a source.
  if (text.length > 16_384 || !lastPieceNamesImage(text)) return undefined;
  const pieces = text
    .split(/[\r\n;,|]+/)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== "");
  if (pieces.length < 2) return undefined;
  // A URL counts when its path names an image: a list of links to pages is left as the text it is.
  const isImage = (piece: string): boolean => {
    const kind = classifyContext(piece).kind;
    return kind === "url" ? hasImageExtension(piece.replace(/[?#][\s\S]*$/, "")) : kind !== "text";
  };
  return pieces.every((piece) => !/\s/.test(piece) && isImage(piece)) ? pieces : undefined;
}

/**
 * The type of the image a text item holds as bare base64 — an image's bytes
 * in base64 without the `data:image/…;base64,` in front, which makes it
 * text: sent as tens of thousands of tokens of letters, never as a picture
 * — or undefined for any other text (or base64 of something else).
 *
 * @example
 * bareBase64Image(readFileSync("chart.png").toString("base64")) // "png"
 * bareBase64Image("Sales rose 12% in Q3.")                     // undefined
 */
export function bareBase64Image(text: string): Exclude<ImageType, "svg"> | undefined {
  // Most passages are told apart at their first characters (a space, punctuation) without copying them.
  if (!/^[A-Za-z0-9+/_-]{16}/.test(text.trimStart().slice(0, 16))) return undefined;
  const data = text.replace(/\s+/g, "");
  if (data.length < 64 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(data)) return undefined;
  const type = sniffImageType(Buffer.from(data.slice(0, 700), "base64"));
  return type === "svg" ? undefined : type;
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

/** A `scheme://…` URL split into what may be shown (scheme, host, path) and whether a query or fragment followed. */
function splitUrl(source: string): { shown: string; dropped: boolean } | undefined {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(?:[^/?#]*@)?([^?#]*)([?#][\s\S]*)?$/i.exec(source);
  return match ? { shown: `${match[1]}${match[2]}`, dropped: match[3] !== undefined } : undefined;
}

function shortDataUri(source: string): string {
  const head = source.slice(0, source.indexOf(",") + 1 || 40);
  return `${head.length > 60 ? head.slice(0, 60) : head}… (${source.length.toLocaleString("en-US")} characters)`;
}

function cut(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * A short name for a context item in messages and table cells: long data
 * URIs are cut; a URL loses its user info, query and fragment (they may
 * hold a signature or a token), shown as `?…`; a path is kept as written.
 *
 * @example
 * describeSource("https://cdn.example/a.png?X-Amz-Signature=abc") // "https://cdn.example/a.png?…"
 */
export function describeSource(source: string): string {
  if (/^data:/i.test(source)) return shortDataUri(source);
  const url = splitUrl(source);
  if (url) return cut(url.dropped ? `${url.shown}?…` : url.shown);
  return cut(source);
}

/**
 * The name of an image source in the prompt sent to the model, which must
 * carry no secret and no local folder layout: a URL's scheme, host and path
 * (no user info, query or fragment); a local file's path relative to
 * `imageRoot` when inside it, else its base name; a data URI's short form.
 *
 * @example
 * promptSourceLabel("https://cdn.example/a.png?token=abc", "/data")  // "https://cdn.example/a.png"
 * promptSourceLabel("/home/alice/data/images/cat.png", "/home/alice/data") // "images/cat.png"
 */
export function promptSourceLabel(source: string, imageRoot: string): string {
  if (/^data:/i.test(source)) return shortDataUri(source);
  let file: string;
  if (/^file:\/\//i.test(source)) {
    try {
      file = fileURLToPath(source);
    } catch {
      return cut(path.posix.basename(splitUrl(source)?.shown ?? source));
    }
  } else {
    const url = splitUrl(source);
    if (url) return cut(url.shown);
    file = source;
  }
  const root = path.resolve(imageRoot);
  const relative = path.relative(root, path.resolve(root, file));
  const inside = relative !== "" && relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
  return cut(inside ? relative.split(path.sep).join("/") : path.basename(file));
}
