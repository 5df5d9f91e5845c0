/**
 * Where an image's own data ends, found by walking its structure (PNG
 * chunks, JPEG segments and entropy-coded data, GIF blocks, the WebP RIFF
 * chunk), so that bytes after a complete image (a Motion Photo's video,
 * padding) do not make it look cut short, and a cut image that happens to
 * end in its end marker's byte is still seen as cut. Every read is bounds
 * checked; each step moves forward, so the walk ends within the buffer.
 */

/** A walk's outcome: the offset just past the image's end marker, or why the image is incomplete. */
export type ImageEnd = { end: number } | { problem: string };

const cut = (problem: string): ImageEnd => ({ problem });

function uint32BE(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
}

function isChunkLetter(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
}

/**
 * Walks a PNG's chunks (length, type, data, CRC) from the signature to IEND.
 * CRCs are not recomputed: a chunk's length and type place the next one.
 */
export function pngEnd(bytes: Uint8Array): ImageEnd {
  const noEnd = "the PNG has no end (IEND chunk): the file is cut short";
  let at = 8;
  while (at + 8 <= bytes.length) {
    const length = uint32BE(bytes, at);
    const type = bytes.subarray(at + 4, at + 8);
    if (!type.every(isChunkLetter)) return cut(`the PNG is damaged: no chunk at byte ${at.toLocaleString("en-US")} (its type is not 4 letters)`);
    const next = at + 12 + length;
    if (next > bytes.length) return cut(noEnd);
    if (type[0] === 0x49 && type[1] === 0x45 && type[2] === 0x4e && type[3] === 0x44) return { end: next };
    at = next;
  }
  return cut(noEnd);
}

/** Markers that stand alone (no length): TEM, the restart markers RST0–RST7 and SOI. */
function isStandaloneMarker(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);
}

/**
 * The offset of the first marker after entropy-coded data starting at `from`:
 * an 0xFF not followed by 0x00 (a stuffed byte), another 0xFF (fill) or
 * RST0–RST7 (restart markers belong to the data). -1 when there is none.
 */
function endOfEntropyData(bytes: Uint8Array, from: number): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = buffer.indexOf(0xff, from);
  while (at >= 0 && at + 1 < bytes.length) {
    const next = bytes[at + 1]!;
    if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return at;
    at = buffer.indexOf(0xff, next === 0xff ? at + 1 : at + 2);
  }
  return -1;
}

/**
 * Walks a JPEG's segments from SOI: each marker segment is skipped by its
 * length (an EXIF thumbnail inside APP1 is not mistaken for the end), each
 * SOS is followed by entropy-coded data up to the next marker (progressive
 * JPEGs have several scans), until EOI. Stray bytes between segments are
 * skipped, as decoders do.
 */
export function jpegEnd(bytes: Uint8Array): ImageEnd {
  const noEnd = cut("the JPEG has no end-of-image marker: the file is cut short");
  let at = 2;
  while (at + 1 < bytes.length) {
    if (bytes[at] !== 0xff || bytes[at + 1] === 0xff) {
      at++;
      continue;
    }
    const marker = bytes[at + 1]!;
    if (marker === 0xd9) return { end: at + 2 };
    if (isStandaloneMarker(marker) || marker === 0x00) {
      at += 2;
      continue;
    }
    if (at + 4 > bytes.length) return noEnd;
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (length < 2) return cut(`the JPEG is damaged: the segment at byte ${at.toLocaleString("en-US")} has a length of ${length}`);
    const next = at + 2 + length;
    if (next > bytes.length) return noEnd;
    if (marker !== 0xda) {
      at = next;
      continue;
    }
    const marked = endOfEntropyData(bytes, next);
    if (marked < 0) return noEnd;
    at = marked;
  }
  return noEnd;
}

/** The offset past the data sub-blocks starting at `at` (each a length byte then that many bytes, ended by a 0), or -1 when they run past the end. */
function skipSubBlocks(bytes: Uint8Array, at: number): number {
  while (at < bytes.length) {
    const size = bytes[at]!;
    if (size === 0) return at + 1;
    at += 1 + size;
  }
  return -1;
}

/** Size in bytes of a colour table announced by a GIF packed-fields byte (0 when there is none). */
function colourTableSize(packed: number): number {
  return packed & 0x80 ? 3 * (1 << ((packed & 0x07) + 1)) : 0;
}

/** What a walk of a GIF's blocks found: its end (or why it has none), its images, and whether it asks to loop (a NETSCAPE2.0 or ANIMEXTS1.0 extension). */
export type GifBlocks = ImageEnd & { images: number; loops: boolean };

/** Whether the application extension at `at` (0x21 0xFF, then an 11-byte block) is the looping one animations carry. */
function isLoopExtension(bytes: Uint8Array, at: number): boolean {
  if (bytes[at + 1] !== 0xff || bytes[at + 2] !== 11 || at + 14 > bytes.length) return false;
  const name = Buffer.from(bytes.buffer, bytes.byteOffset + at + 3, 11).toString("latin1");
  return name === "NETSCAPE2.0" || name === "ANIMEXTS1.0";
}

/**
 * Walks a GIF's blocks: header, logical screen descriptor, global colour
 * table, then extensions (0x21) and images (0x2C) with their sub-blocks,
 * until the trailer (0x3B); counts the images (an animation's frames) on the way.
 */
export function gifBlocks(bytes: Uint8Array): GifBlocks {
  let images = 0;
  let loops = false;
  const noEnd = (): GifBlocks => ({ problem: "the GIF has no trailer: the file is cut short", images, loops });
  if (bytes.length < 13) return noEnd();
  let at = 13 + colourTableSize(bytes[10]!);
  while (at < bytes.length) {
    const block = bytes[at]!;
    if (block === 0x3b) return { end: at + 1, images, loops };
    if (block === 0x21) {
      if (isLoopExtension(bytes, at)) loops = true;
      at = skipSubBlocks(bytes, at + 2);
    } else if (block === 0x2c) {
      if (at + 10 > bytes.length) return noEnd();
      images++;
      // Descriptor (9 bytes after 0x2C), local colour table, LZW minimum code size, then the data sub-blocks.
      at = skipSubBlocks(bytes, at + 10 + colourTableSize(bytes[at + 9]!) + 1);
    } else {
      return { problem: `the GIF is damaged: byte ${at.toLocaleString("en-US")} (0x${block.toString(16).padStart(2, "0")}) starts no image, extension or trailer`, images, loops };
    }
    if (at < 0) return noEnd();
  }
  return noEnd();
}

/** Where a GIF ends (its trailer), or why it is incomplete: see {@link gifBlocks}. */
export function gifEnd(bytes: Uint8Array): ImageEnd {
  const walked = gifBlocks(bytes);
  return "problem" in walked ? cut(walked.problem) : { end: walked.end };
}

/** Reads a WebP's RIFF length: the file holds the 8-byte RIFF header and that many bytes. */
export function webpEnd(bytes: Uint8Array): ImageEnd {
  if (bytes.length < 12) return cut(`the WebP has ${bytes.length} bytes, fewer than its 12-byte header: the file is cut short`);
  const declared = (bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16)) + bytes[7]! * 0x1000000 + 8;
  if (declared < 12 + 8) return cut(`the WebP is damaged: its RIFF length (${declared - 8}) leaves no room for an image chunk`);
  if (bytes.length < declared) {
    return cut(`the WebP declares ${declared.toLocaleString("en-US")} bytes and has ${bytes.length.toLocaleString("en-US")}: the file is cut short`);
  }
  return { end: declared };
}
