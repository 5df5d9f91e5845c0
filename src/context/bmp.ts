/**
 * BMP to PNG: vision models take png, jpeg, gif and webp, so BMP images are
 * decoded here (1, 4, 8, 16, 24 and 32 bits per pixel, uncompressed, with
 * bit fields or run-length encoded (RLE8, RLE4), top-down or bottom-up) and
 * re-encoded as PNG. The decoding goes in slices of about
 * {@link SLICE_PIXELS} pixels: {@link bmpToPngAsync} lets the event loop
 * turn between them (a 4000×4000 BMP blocked it for 0.3 to 1.1 s), and
 * {@link bmpToPng} runs them at once; both give the same bytes.
 */
import { encodePng, encodePngSliced } from "./png";
import { runAtOnce, runInSlices, type Sliced } from "./slices";

/** Pixels decoded between two turns of the event loop (a few milliseconds' work). */
export const SLICE_PIXELS = 1 << 19;

/** The largest BMP we decode (pixels), so a forged header cannot exhaust memory. */
export const MAX_BMP_PIXELS = 40_000_000;

/** Raised for a BMP we cannot or will not decode. */
export class BmpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BmpError";
  }
}

function maskShift(mask: number): { shift: number; max: number } {
  if (mask === 0) return { shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift };
}

/** Where RLE decoding stands: the file row (0 = the first stored, the bottom one in a bottom-up BMP) and the column. */
interface RleCursor {
  x: number;
  row: number;
}

/** The RGBA image RLE data is decoded into, with its palette. */
interface RleTarget {
  rgba: Uint8Array;
  palette: Uint8Array;
  width: number;
  height: number;
  topDown: boolean;
}

/** Paints `count` pixels from the cursor on its row (those past the row's end are dropped), the i-th with palette index `indexAt(i)`. */
function putRun(target: RleTarget, cursor: RleCursor, count: number, indexAt: (i: number) => number): void {
  const { rgba, palette, width, height, topDown } = target;
  const written = Math.max(0, Math.min(count, width - cursor.x));
  const y = topDown ? cursor.row : height - 1 - cursor.row;
  for (let i = 0; i < written; i++) {
    const index = indexAt(i);
    if (index * 3 + 2 >= palette.length) throw new BmpError(`BMP pixel uses colour ${index} beyond its palette`);
    const o = (y * width + cursor.x + i) * 4;
    rgba[o] = palette[index * 3]!;
    rgba[o + 1] = palette[index * 3 + 1]!;
    rgba[o + 2] = palette[index * 3 + 2]!;
    rgba[o + 3] = 255;
  }
  cursor.x += count;
}

/**
 * Decodes BI_RLE8 or BI_RLE4 pixel data into `target`, yielding every
 * {@link SLICE_PIXELS} pixels or steps: encoded runs (count,
 * index), absolute runs (0, n, then n indices padded to a 16-bit word), end
 * of line (0, 0), end of bitmap (0, 1) and delta (0, 2, dx, dy). Pixels the
 * data skips stay transparent, as browsers show them. Runs past a row's end
 * are clipped, rows past the last end the decoding, and every step reads at
 * least two bytes, so a hostile file can neither write outside the pixels
 * nor loop forever.
 *
 * @throws {BmpError} when the data ends before the end-of-bitmap marker and the last row.
 */
function* decodeRle(buf: Buffer, offset: number, bits: 4 | 8, target: RleTarget): Sliced<void> {
  const cursor: RleCursor = { x: 0, row: 0 };
  const nibble = (byte: number, i: number): number => (i & 1 ? byte & 0x0f : byte >> 4);
  let at = offset;
  let work = 0;
  while (cursor.row < target.height) {
    if (at + 1 >= buf.length) throw new BmpError("BMP run-length data ends before its end-of-bitmap marker: the file is cut short");
    const count = buf[at]!;
    const value = buf[at + 1]!;
    at += 2;
    // Each step counts (a delta paints nothing), and so does each pixel a run paints.
    work += 1 + (count > 0 ? count : value > 2 ? value : 0);
    if (work >= SLICE_PIXELS) {
      work = 0;
      yield;
    }
    if (count > 0) {
      putRun(target, cursor, count, bits === 8 ? () => value : (i) => nibble(value, i));
    } else if (value === 0) {
      cursor.x = 0;
      cursor.row++;
    } else if (value === 1) {
      return;
    } else if (value === 2) {
      if (at + 1 >= buf.length) throw new BmpError("BMP run-length delta is cut short");
      cursor.x += buf[at]!;
      cursor.row += buf[at + 1]!;
      at += 2;
    } else {
      const bytes = bits === 8 ? value : Math.ceil(value / 2);
      if (at + bytes > buf.length) throw new BmpError("BMP run-length data ends inside an absolute run: the file is cut short");
      const from = at;
      putRun(target, cursor, value, bits === 8 ? (i) => buf[from + i]! : (i) => nibble(buf[from + (i >> 1)]!, i));
      at += bytes + (bytes & 1); // absolute runs are padded to a 16-bit word
    }
  }
}

/** A decoded BMP: RGBA pixels, rows top to bottom. */
export interface DecodedBmp {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/**
 * Decodes a BMP file into RGBA pixels (rows top to bottom).
 *
 * @throws {BmpError} for truncated, oversized or JPEG/PNG-compressed files.
 */
export function decodeBmp(bytes: Uint8Array): DecodedBmp {
  return runAtOnce(decodeBmpSliced(bytes));
}

/** {@link decodeBmp} in slices: yields after about every {@link SLICE_PIXELS} pixels. */
function* decodeBmpSliced(bytes: Uint8Array): Sliced<DecodedBmp> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 26 || buf.toString("ascii", 0, 2) !== "BM") throw new BmpError("not a BMP file");
  const pixelOffset = buf.readUInt32LE(10);
  const headerSize = buf.readUInt32LE(14);
  let width: number;
  let height: number;
  let bpp: number;
  let compression = 0;
  let colorsUsed = 0;
  let paletteEntrySize = 4;
  if (headerSize === 12) {
    width = buf.readUInt16LE(18);
    height = buf.readUInt16LE(20);
    bpp = buf.readUInt16LE(24);
    paletteEntrySize = 3;
  } else if (headerSize >= 40 && buf.length >= 14 + 40) {
    width = buf.readInt32LE(18);
    height = buf.readInt32LE(22);
    bpp = buf.readUInt16LE(28);
    compression = buf.readUInt32LE(30);
    colorsUsed = buf.readUInt32LE(46);
  } else {
    throw new BmpError(`unsupported BMP header of ${headerSize} bytes`);
  }
  const topDown = height < 0;
  height = Math.abs(height);
  if (width <= 0 || height <= 0) throw new BmpError(`BMP has an invalid size ${width}×${height}`);
  if (width * height > MAX_BMP_PIXELS) throw new BmpError(`BMP is ${width}×${height} pixels, more than the ${MAX_BMP_PIXELS.toLocaleString("en-US")} we decode`);
  if (![0, 1, 2, 3, 6].includes(compression)) {
    throw new BmpError(`compressed BMP (compression ${compression}, ${compression === 4 ? "JPEG" : compression === 5 ? "PNG" : "unknown"}) is not supported; save it as PNG`);
  }
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw new BmpError(`BMP with ${bpp} bits per pixel is not supported`);
  const rle = compression === 1 ? 8 : compression === 2 ? 4 : undefined;
  if (rle !== undefined && bpp !== rle) throw new BmpError(`BMP compression ${compression} (RLE${rle}) needs ${rle} bits per pixel, this one has ${bpp}`);

  let masks: [number, number, number, number] | undefined;
  if (bpp === 16 || bpp === 32) {
    if (compression === 3 || compression === 6) {
      const at = headerSize >= 52 ? 14 + 40 : 14 + headerSize;
      if (buf.length < at + 12) throw new BmpError("BMP bit fields are truncated");
      const alpha = headerSize >= 56 || compression === 6 ? buf.readUInt32LE(at + 12) : 0;
      masks = [buf.readUInt32LE(at), buf.readUInt32LE(at + 4), buf.readUInt32LE(at + 8), alpha];
    } else {
      masks = bpp === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0x00ff0000, 0x0000ff00, 0x000000ff, 0];
    }
  }
  let palette: Uint8Array | undefined;
  if (bpp <= 8) {
    const count = colorsUsed > 0 ? colorsUsed : 1 << bpp;
    const at = 14 + headerSize + (compression === 3 ? 12 : 0);
    if (buf.length < at + count * paletteEntrySize) throw new BmpError("BMP palette is truncated");
    palette = new Uint8Array(count * 3);
    for (let i = 0; i < count; i++) {
      palette[i * 3] = buf[at + i * paletteEntrySize + 2]!;
      palette[i * 3 + 1] = buf[at + i * paletteEntrySize + 1]!;
      palette[i * 3 + 2] = buf[at + i * paletteEntrySize]!;
    }
  }
  if (rle !== undefined) {
    const rgba = new Uint8Array(width * height * 4);
    yield* decodeRle(buf, pixelOffset, rle, { rgba, palette: palette!, width, height, topDown });
    return { width, height, rgba };
  }
  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  if (buf.length < pixelOffset + stride * height) throw new BmpError("BMP pixel data is truncated");
  const rgba = new Uint8Array(width * height * 4);
  const fields = masks?.map(maskShift);
  let decoded = 0;
  for (let y = 0; y < height; y++) {
    decoded += width;
    if (decoded >= SLICE_PIXELS) {
      decoded = 0;
      yield;
    }
    const row = pixelOffset + (topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (palette) {
        const index = bpp === 8 ? buf[row + x]! : bpp === 4 ? (buf[row + (x >> 1)]! >> (x & 1 ? 0 : 4)) & 0x0f : (buf[row + (x >> 3)]! >> (7 - (x & 7))) & 1;
        if (index * 3 + 2 >= palette.length) throw new BmpError(`BMP pixel uses colour ${index} beyond its palette`);
        rgba[o] = palette[index * 3]!;
        rgba[o + 1] = palette[index * 3 + 1]!;
        rgba[o + 2] = palette[index * 3 + 2]!;
        rgba[o + 3] = 255;
      } else if (bpp === 24) {
        rgba[o] = buf[row + x * 3 + 2]!;
        rgba[o + 1] = buf[row + x * 3 + 1]!;
        rgba[o + 2] = buf[row + x * 3]!;
        rgba[o + 3] = 255;
      } else {
        const value = bpp === 16 ? buf.readUInt16LE(row + x * 2) : buf.readUInt32LE(row + x * 4);
        for (let c = 0; c < 4; c++) {
          const { shift, max } = fields![c]!;
          rgba[o + c] = max === 0 ? (c === 3 ? 255 : 0) : Math.round((((value & masks![c]!) >>> shift) / max) * 255);
        }
      }
    }
  }
  return { width, height, rgba };
}

/**
 * Converts a BMP file to a PNG file, at once (the event loop waits: a
 * 4000×4000 BMP takes 0.3 to 1.1 s; see {@link bmpToPngAsync}).
 *
 * @throws {BmpError} when the BMP cannot be decoded.
 */
export function bmpToPng(bytes: Uint8Array): Buffer {
  const { width, height, rgba } = decodeBmp(bytes);
  return encodePng(width, height, rgba);
}

/**
 * Converts a BMP file to a PNG file without holding the event loop: the
 * pixels are decoded and laid out in slices with a turn of the event loop
 * between them, and compressed on zlib's thread pool. The bytes are those
 * of {@link bmpToPng}.
 *
 * @throws {BmpError} (a rejection) when the BMP cannot be decoded.
 * @example
 * const png = await bmpToPngAsync(readFileSync("diagram.bmp"));
 */
export async function bmpToPngAsync(bytes: Uint8Array): Promise<Buffer> {
  const { width, height, rgba } = await runInSlices(decodeBmpSliced(bytes));
  return encodePngSliced(width, height, rgba);
}
