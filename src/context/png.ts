/** A minimal PNG encoder (8-bit RGBA, no filtering) on Node's zlib. */
import * as zlib from "node:zlib";
import { promisify } from "node:util";
import { runAtOnce, runInSlices, type Sliced } from "./slices";

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** zlib's own CRC-32 (Node 20.15 and later), tens of times faster than ours; undefined on an older Node. */
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** The CRC-32 of `bytes`, continuing `previous` (the CRC of the bytes before them), as zlib.crc32 computes it. */
function crc32(bytes: Uint8Array, previous = 0): number {
  if (nativeCrc32) return nativeCrc32(bytes, previous);
  let c = (previous ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Bytes checksummed between two turns of the event loop when zlib has no crc32 of its own. */
const CRC_SLICE_BYTES = 4 * 1024 * 1024;

/** A chunk's length, type and data, with room for its CRC (written by the caller). */
function chunkWithoutCrc(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  out.set(data, 8);
  return out;
}

/** @internal One PNG chunk: length, type, data and CRC-32. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const out = chunkWithoutCrc(type, data);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** {@link pngChunk} in slices (the CRC of a large chunk computed a few megabytes at a time, without zlib's own). */
function* pngChunkSliced(type: string, data: Uint8Array): Sliced<Buffer> {
  const out = chunkWithoutCrc(type, data);
  const checked = out.subarray(4, 8 + data.length);
  let crc = 0;
  for (let at = 0; at < checked.length; at += CRC_SLICE_BYTES) {
    crc = crc32(checked.subarray(at, at + CRC_SLICE_BYTES), crc);
    if (!nativeCrc32 && at + CRC_SLICE_BYTES < checked.length) yield;
  }
  out.writeUInt32BE(crc, 8 + data.length);
  return out;
}

/** The IHDR data of an 8-bit RGBA image. */
function header(width: number, height: number): Buffer {
  const out = Buffer.alloc(13);
  out.writeUInt32BE(width, 0);
  out.writeUInt32BE(height, 4);
  out[8] = 8; // bit depth
  out[9] = 6; // colour type RGBA
  return out;
}

/** The rows as PNG stores them before compression: each row after its filter byte (0: none); yields every `rowsPerSlice` rows. */
function* filteredRows(width: number, height: number, rgba: Uint8Array, rowsPerSlice = Infinity): Sliced<Buffer> {
  if (rgba.length !== width * height * 4) throw new RangeError(`encodePng: expected ${width * height * 4} bytes of RGBA, got ${rgba.length}`);
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    if (y > 0 && y % rowsPerSlice === 0) yield;
    raw[y * (width * 4 + 1)] = 0; // filter: none
    raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  }
  return raw;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Encodes RGBA pixels (4 bytes per pixel, rows top to bottom) as a PNG file.
 *
 * @example
 * const png = encodePng(2, 1, new Uint8Array([255, 0, 0, 255, 0, 0, 255, 255])); // a red and a blue pixel
 */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const raw = runAtOnce(filteredRows(width, height, rgba));
  return Buffer.concat([SIGNATURE, pngChunk("IHDR", header(width, height)), pngChunk("IDAT", zlib.deflateSync(raw)), pngChunk("IEND", new Uint8Array(0))]);
}

const deflate = promisify(zlib.deflate);

/**
 * {@link encodePng} without holding the event loop: the rows are laid out a
 * few megabytes at a time with a turn of the event loop between, and
 * compressed on zlib's thread pool (zlib.deflate with deflateSync's
 * settings, so the bytes are the same).
 */
export async function encodePngSliced(width: number, height: number, rgba: Uint8Array): Promise<Buffer> {
  const rowsPerSlice = Math.max(1, Math.floor(CRC_SLICE_BYTES / (width * 4 + 1)));
  const raw = await runInSlices(filteredRows(width, height, rgba, rowsPerSlice));
  const idat = await runInSlices(pngChunkSliced("IDAT", await deflate(raw)));
  return Buffer.concat([SIGNATURE, pngChunk("IHDR", header(width, height)), idat, pngChunk("IEND", new Uint8Array(0))]);
}
