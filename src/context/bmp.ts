/**
 * BMP to PNG: vision models take png, jpeg, gif and webp, so BMP images are
 * decoded here (1, 4, 8, 16, 24 and 32 bits per pixel, uncompressed or with
 * bit fields, top-down or bottom-up) and re-encoded as PNG.
 */
import { encodePng } from "./png";

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

/**
 * Decodes a BMP file into RGBA pixels (rows top to bottom).
 *
 * @throws {BmpError} for compressed (RLE), truncated or oversized files.
 */
export function decodeBmp(bytes: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
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
  if (compression !== 0 && compression !== 3 && compression !== 6) {
    throw new BmpError(`compressed BMP (compression ${compression}) is not supported; save it as PNG`);
  }
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw new BmpError(`BMP with ${bpp} bits per pixel is not supported`);

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
  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  if (buf.length < pixelOffset + stride * height) throw new BmpError("BMP pixel data is truncated");
  const rgba = new Uint8Array(width * height * 4);
  const fields = masks?.map(maskShift);
  for (let y = 0; y < height; y++) {
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
 * Converts a BMP file to a PNG file.
 *
 * @throws {BmpError} when the BMP cannot be decoded.
 */
export function bmpToPng(bytes: Uint8Array): Buffer {
  const { width, height, rgba } = decodeBmp(bytes);
  return encodePng(width, height, rgba);
}
