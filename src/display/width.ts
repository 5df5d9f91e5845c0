/**
 * How many terminal columns text takes: East Asian wide and fullwidth
 * characters (Hangul, CJK ideographs, kana, fullwidth forms, most emoji)
 * take two, combining marks and zero-width characters none, the rest one.
 * Written for aligning tables in a monospaced terminal, from the Unicode
 * ranges of East Asian Width W/F and of the marks; not a full UAX #11.
 */

/** Code point ranges (inclusive) that take two columns. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], // Hangul Jamo, leading consonants
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f5],
  [0x26fa, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e], // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
  [0x3041, 0x33ff], // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed CJK
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo extended A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms, small form variants
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6], // fullwidth signs
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff], // Tangut
  [0x1b000, 0x1b2ff], // kana supplement and extensions
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f251], // enclosed ideographic supplement
  [0x1f300, 0x1f64f], // pictographs and emoticons
  [0x1f680, 0x1f6ff], // transport and map symbols
  [0x1f7e0, 0x1f7eb],
  [0x1f90c, 0x1f9ff], // supplemental symbols and pictographs
  [0x1fa70, 0x1faff],
  [0x20000, 0x2fffd], // CJK extensions B–F
  [0x30000, 0x3fffd], // CJK extension G and later
];

/** Code point ranges that take no column: combining marks, zero-width characters, variation selectors. */
const ZERO: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f], // combining diacritical marks
  [0x0483, 0x0489],
  [0x0591, 0x05bd],
  [0x0610, 0x061a],
  [0x064b, 0x065f],
  [0x0e31, 0x0e31],
  [0x0e34, 0x0e3a],
  [0x0e47, 0x0e4e],
  [0x1160, 0x11ff], // Hangul Jamo vowels and final consonants (join the leading consonant)
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x200b, 0x200f], // zero-width space, joiners, marks
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0x20d0, 0x20ff], // combining marks for symbols
  [0x302a, 0x302f],
  [0x3099, 0x309a], // combining kana voiced marks
  [0xd7b0, 0xd7ff], // Hangul Jamo extended B
  [0xfe00, 0xfe0f], // variation selectors
  [0xfe20, 0xfe2f],
  [0xfeff, 0xfeff],
  [0xe0100, 0xe01ef],
];

function inRanges(cp: number, ranges: readonly (readonly [number, number])[]): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [from, to] = ranges[mid]!;
    if (cp < from) hi = mid - 1;
    else if (cp > to) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Terminal columns of one character (a code point): 2, 1 or 0.
 *
 * @example
 * charWidth("한".codePointAt(0)!); // 2
 */
export function charWidth(cp: number): number {
  if (cp < 0x300) return 1;
  if (inRanges(cp, ZERO)) return 0;
  if (inRanges(cp, WIDE)) return 2;
  // Marks of every script (Devanagari's vowel signs and virama, Arabic's vowels, …) and format characters (the joiners) take none.
  return NON_SPACING.test(String.fromCodePoint(cp)) ? 0 : 1;
}

/** Non-spacing and enclosing marks and format characters (U+200D, the bidi marks, …): no column of their own. */
const NON_SPACING = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

/** An emoji made of several code points: a ZWJ sequence (👨‍👩‍👧), a skin tone (👍🏽), an emoji presentation (❤️) or a flag (🇯🇵). */
const EMOJI_SEQUENCE = /^(?:\p{Extended_Pictographic}.*[\u200D\uFE0F\u{1F3FB}-\u{1F3FF}]|\p{Regional_Indicator}{2}$)/su;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Terminal columns of one grapheme cluster: an emoji sequence takes two, anything else the sum of its code points. */
function clusterWidth(cluster: string): number {
  const first = cluster.codePointAt(0)!;
  if (cluster.length === (first > 0xffff ? 2 : 1)) return charWidth(first);
  if (EMOJI_SEQUENCE.test(cluster)) return 2;
  let width = 0;
  for (const ch of cluster) width += charWidth(ch.codePointAt(0)!);
  return width;
}

/** Whether every character of the text is one UTF-16 unit below the marks (0x300): measured without segmenting. */
const PLAIN = /^[\u0000-\u02ff]*$/u;

/** Code units a piece of text is segmented in at most (about): the segmenter's time grows faster than its text's length. */
const PIECE = 256;

/** A character that joins the one before it into one cluster: a mark, a joiner, a variation selector or a skin tone. */
const JOINS_BEFORE = /^[\p{Mn}\p{Me}\p{Cf}\u{FE00}-\u{FE0F}\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;

/**
 * The grapheme clusters of text, in order: segmented a piece of about
 * {@link PIECE} code units at a time, each piece ended before a character
 * that could start a new cluster, so that long text costs time in
 * proportion to its length (segmenting 34,000 characters at once took a
 * quarter of a second, 340,000 did not end in ten minutes).
 */
function* clusters(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + PIECE);
    // Move the end forward past what joins the character before it, and off a surrogate pair's middle.
    while (end < text.length && (JOINS_BEFORE.test(text.slice(end, end + 2)) || /[\uDC00-\uDFFF]/.test(text.charAt(end)) || text.charAt(end - 1) === "\u200D" || /\p{Regional_Indicator}/u.test(text.slice(end, end + 2)))) end++;
    for (const { segment } of graphemes.segment(text.slice(start, end))) yield segment;
    start = end;
  }
}

/**
 * Terminal columns of text: wide characters count two, combining marks none.
 *
 * @example
 * displayWidth("한글"); // 4
 * displayWidth("e\u0301"); // 1
 */
export function displayWidth(text: string): number {
  if (PLAIN.test(text)) return text.length;
  let width = 0;
  for (const cluster of clusters(text)) width += clusterWidth(cluster);
  return width;
}

/**
 * Text cut to at most `width` columns, ending in "…" when cut (a wide
 * character is never split, nor a mark parted from its letter).
 *
 * @example
 * cutToWidth("한글을 만든 왕은", 6); // "한글…"
 */
export function cutToWidth(text: string, width: number): string {
  if (PLAIN.test(text)) return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
  let out = "";
  let used = 0;
  let fits = true;
  // By grapheme cluster: a letter is never parted from its marks, nor an emoji sequence cut in two. Read only
  // as far as the width: a long text is not measured whole.
  for (const cluster of clusters(text)) {
    const w = clusterWidth(cluster);
    if (used + w > width) return `${out}…`;
    if (fits && used + w > width - 1) fits = false;
    if (fits) out += cluster;
    used += w;
  }
  return text;
}

/**
 * Text cut to at most `width` columns by leaving out its middle ("…"), so
 * that two long names that share their start ("org/model-2024-…-preview-x",
 * "…-preview-y") stay apart (a wide character is never split, nor a mark
 * parted from its letter).
 *
 * @example
 * cutMiddleToWidth("openai/gpt-4o-mini-preview-x", 12); // "opena…view-x"
 */
export function cutMiddleToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  const head = cutToWidth(text, Math.floor((width - 1) / 2) + 1).slice(0, -1);
  const room = width - 1 - displayWidth(head);
  // By grapheme cluster from the end: an emoji sequence or a letter with its marks is kept whole or left out.
  const all = [...clusters(text)];
  let tail = "";
  let used = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const w = clusterWidth(all[i]!);
    if (used + w > room) break;
    tail = all[i]! + tail;
    used += w;
  }
  return `${head}…${tail}`;
}
