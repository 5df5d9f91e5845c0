/**
 * Text as a chart may write it: every string made safe for SVG/XML (no
 * control characters, no lone surrogates), and labels cut in the middle,
 * distinct from one another, when they are longer than an axis or legend
 * has room for.
 */

/** Characters XML 1.0 forbids or that a label should not hold raw: C0 controls, DEL, C1 controls, lone surrogates, U+FFFE and U+FFFF. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The visible stand-in of one unsafe character (see {@link chartText}). */
function standIn(char: string): string {
  if (char === "\t" || char === "\n" || char === "\r") return " ";
  const code = char.charCodeAt(0);
  if (code <= 0x9f) return `\\x${code.toString(16).padStart(2, "0")}`;
  return "\ufffd";
}

/**
 * A string as every chart writes it (titles, subtitles, axis and legend
 * labels, data values, tooltips): a tab, line feed or carriage return
 * becomes a space (Vega draws a title on one line anyway); any other control
 * character (C0, DEL, C1) becomes a visible escape, `\x1b` for ESC, so that
 * an ANSI-coloured model name reads `\x1b[31mname\x1b[0m`; a lone surrogate,
 * U+FFFE and U+FFFF become U+FFFD (�). Raw, these make an SVG that is not
 * well-formed XML, which PNG rendering rejects. Other text is returned as
 * it is (the same string). Two names that differ only in such characters
 * may read the same ("a\tb" and "a b").
 *
 * @example
 * chartText("\x1b[31mred\x1b[0m") // "\\x1b[31mred\\x1b[0m"
 * chartText("two\nlines")         // "two lines"
 * chartText("gpt-4o")             // "gpt-4o"
 */
export function chartText(value: string): string {
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(value)) return value;
  UNSAFE.lastIndex = 0;
  return value.replace(UNSAFE, standIn);
}

/** The ellipsis that marks where a label was cut. */
export const ELLIPSIS = "…";

/**
 * A label of at most `max` characters (code points): longer ones keep
 * `head` characters of their start and the rest of `max` from their end,
 * joined by "…" (default: as many from the start as from the end), so that
 * names that share a long prefix still differ on the chart.
 *
 * @example
 * cutMiddle("organisation/very-long-model-name-2024-preview", 21) // "organisati…24-preview"
 */
export function cutMiddle(text: string, max: number, head?: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const room = Math.max(0, max - 1);
  const start = Math.min(room, Math.max(0, head ?? Math.ceil(room / 2)));
  return `${chars.slice(0, start).join("")}${ELLIPSIS}${chars.slice(chars.length - (room - start)).join("")}`;
}

/**
 * A label of at most `max` characters that keeps the part of `text` around
 * character `at` (where it differs from a similar name): a little of the
 * start, "…", the part around `at`, "…", a little of the end.
 *
 * @example
 * cutAround("org/very-long-model-name-alpha-2024-06-01-preview-x", 24, 25) // "org/v…-name-alpha-…iew-x"
 */
export function cutAround(text: string, max: number, at: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const room = max - 2;
  const head = Math.floor(room / 4);
  const tail = Math.floor(room / 4);
  const width = room - head - tail;
  const from = Math.min(Math.max(at - Math.floor(width / 2), head), chars.length - tail - width);
  // The part around `at` runs into the start or the end: one cut is enough.
  if (from <= head + 1) return cutMiddle(text, max, Math.min(max - 1, from + width + 1));
  if (from + width >= chars.length - tail - 1) return cutMiddle(text, max, Math.max(0, max - 1 - (chars.length - from)));
  const part = (a: number, b: number) => chars.slice(a, b).join("");
  return `${part(0, head)}${ELLIPSIS}${part(from, from + width)}${ELLIPSIS}${part(chars.length - tail, chars.length)}`;
}

/** The first character (code point) at which `text` differs from any of `others`. */
function firstDifference(text: string, others: readonly string[]): number {
  const chars = Array.from(text);
  let at = chars.length;
  for (const other of others) {
    const o = Array.from(other);
    let i = 0;
    while (i < chars.length && i < o.length && chars[i] === o[i]) i++;
    at = Math.min(at, i);
  }
  return at;
}

/**
 * Labels for distinct names, each cut in the middle to at most `max`
 * characters ({@link cutMiddle}) and all distinct: names whose cut labels
 * would read the same are cut elsewhere (more of the start or of the end,
 * or around where they differ: {@link cutAround}), and only if none of those
 * tells them apart, at a larger length. Equal names get equal labels.
 *
 * @example
 * fitLabels(["org/model-2024-06-01-preview-alpha", "org/model-2024-06-01-preview-beta"], 16)
 * // ["org/mode…w-alpha", "org/mode…ew-beta"]
 */
export function fitLabels(names: readonly string[], max: number): string[] {
  const distinct = [...new Set(names)];
  const label = new Map(distinct.map((n) => [n, cutMiddle(n, max)]));
  let size = max;
  for (let pass = 0; pass < 10_000; pass++) {
    const byLabel = new Map<string, string[]>();
    for (const n of distinct) {
      const l = label.get(n)!;
      const list = byLabel.get(l);
      if (list) list.push(n);
      else byLabel.set(l, [n]);
    }
    const clashes = [...byLabel.values()].filter((list) => list.length > 1);
    if (clashes.length === 0) break;
    for (const clash of clashes) {
      // The names whose label was cut (an uncut name keeps its label).
      const cut = clash.filter((n) => label.get(n) !== n);
      const moving = new Set(cut);
      const taken = new Set(distinct.filter((n) => !moving.has(n)).map((n) => label.get(n)!));
      const works = (tried: string[]) => new Set(tried).size === tried.length && !tried.some((t) => taken.has(t));
      const room = size - 1;
      // Every split of the room between start and end, most even first; then around the first difference.
      const splits = Array.from({ length: room + 1 }, (_, k) => k).sort((p, q) => Math.abs(p - room / 2) - Math.abs(q - room / 2) || q - p);
      const tries = [...splits.map((head) => () => cut.map((n) => cutMiddle(n, size, head))), () => cut.map((n) => cutAround(n, size, firstDifference(n, clash.filter((o) => o !== n))))];
      const found = (() => {
        for (const attempt of tries) {
          const tried = attempt();
          if (works(tried)) return tried;
        }
        return undefined;
      })();
      cut.forEach((n, i) => label.set(n, found ? found[i]! : cutMiddle(n, size + 2)));
    }
    size += 2;
  }
  return names.map((n) => label.get(n)!);
}

/** Width of a label character as a share of the font size, as Vega estimates it when rendering without a browser (0.8). */
export const LABEL_CHAR_WIDTH = 0.8;

/**
 * How many characters of a label fit in `limitPx` pixels at `fontPx`, by
 * Vega's estimate without a browser (a label must be narrower than its
 * limit, else Vega cuts it at its end); at least 8.
 *
 * @example
 * labelChars(180) // 22
 */
export function labelChars(limitPx: number, fontPx = 10): number {
  return Math.max(8, Math.floor((limitPx - 1) / (fontPx * LABEL_CHAR_WIDTH)));
}

/**
 * Labels of model pairs ("a vs b") that fit in `max` characters: when a
 * pair's label is longer, each model name is cut in the middle to half the
 * room ({@link fitLabels} over every model name, so that different models
 * keep different names), rather than the label as a whole, which would keep
 * only the first model's start and the second one's end.
 *
 * @example
 * pairLabels([["org/model-2024-alpha", "org/model-2024-beta"]], " vs ", 24) // ["org/mo…alpha vs org/m…-beta"]
 */
export function pairLabels(pairs: readonly (readonly [string, string])[], separator: string, max: number): string[] {
  const half = Math.max(4, Math.floor((max - Array.from(separator).length) / 2));
  const models = [...new Set(pairs.flat())];
  const fitted = fitLabels(models, half);
  const short = new Map(models.map((m, i) => [m, fitted[i]!]));
  return pairs.map(([a, b]) => {
    const full = `${a}${separator}${b}`;
    return Array.from(full).length <= max ? full : `${short.get(a)}${separator}${short.get(b)}`;
  });
}
