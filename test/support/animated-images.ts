/**
 * Small real images, animated and not, built byte by byte for the tests of
 * their refusal: GIFs of several frames (with and without the looping
 * extension), APNGs and WebP animations.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { encodePng, pngChunk } from "../../src/context/png";

const IMAGES = path.join(__dirname, "..", "..", "data", "images");

/** A GIF of `frames` 1×1 frames, each with its graphic control extension; `loop` adds the NETSCAPE2.0 looping extension animations carry. */
export function gifOf(frames: number, loop: boolean): Buffer {
  const frame = Buffer.from("21f904040a0000002c0000000001000100000202440100", "hex");
  return Buffer.concat([
    Buffer.from("47494638396101000100800000ffffff000000", "hex"), // header, screen, 2-colour table
    loop ? Buffer.concat([Buffer.from([0x21, 0xff, 0x0b]), Buffer.from("NETSCAPE2.0", "latin1"), Buffer.from("0301000000", "hex")]) : Buffer.alloc(0),
    ...Array.from({ length: frames }, () => frame),
    Buffer.from([0x3b]),
  ]);
}

/** A 1×1 PNG of `frames` frames (an APNG: acTL before IDAT, fcTL before each frame, fdAT after the first), or a still one for 0. */
export function apngOf(frames: number): Buffer {
  const still = encodePng(1, 1, new Uint8Array([255, 0, 0, 255]));
  const ihdr = still.subarray(8, 33);
  const idatAt = still.indexOf("IDAT") - 4;
  const idatData = still.subarray(idatAt + 8, idatAt + 8 + still.readUInt32BE(idatAt));
  const u32 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));
  const fctl = (sequence: number) => pngChunk("fcTL", Buffer.concat([u32(sequence, 1, 1, 0, 0), Buffer.from([0, 1, 0, 10, 0, 0])]));
  if (frames === 0) return still;
  const rest = Array.from({ length: frames - 1 }, (_, i) => [fctl(1 + 2 * i), pngChunk("fdAT", Buffer.concat([u32(2 + 2 * i), idatData]))]).flat();
  return Buffer.concat([still.subarray(0, 8), ihdr, pngChunk("acTL", u32(frames, 0)), fctl(0), still.subarray(idatAt, idatAt + 12 + idatData.length), ...rest, still.subarray(still.length - 12)]);
}

/** A RIFF chunk: four-character code, little-endian size, data padded to an even size. */
function riffChunk(code: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(code, 0, "latin1");
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, Buffer.alloc(data.length & 1)]);
}

/**
 * A WebP animation (VP8X with the animation flag, ANIM, then `frames` ANMF
 * frames, each holding street-scene.webp's VP8 bitstream); `flag` false
 * leaves the animation flag out, as a careless writer does.
 */
export function animatedWebp(frames: number, flag = true): Buffer {
  const still = readFileSync(path.join(IMAGES, "street-scene.webp"));
  const vp8 = still.subarray(12, 12 + 8 + still.readUInt32LE(16));
  const u24 = (v: number) => Buffer.from([v & 255, (v >> 8) & 255, (v >> 16) & 255]);
  const [width, height] = [360, 240];
  const vp8x = riffChunk("VP8X", Buffer.concat([Buffer.from([flag ? 0x02 : 0, 0, 0, 0]), u24(width - 1), u24(height - 1)]));
  const anim = riffChunk("ANIM", Buffer.from([255, 255, 255, 255, 0, 0]));
  const frame = riffChunk("ANMF", Buffer.concat([u24(0), u24(0), u24(width - 1), u24(height - 1), u24(100), Buffer.from([0]), vp8]));
  const body = Buffer.concat([Buffer.from("WEBP", "latin1"), vp8x, anim, ...Array.from({ length: frames }, () => frame)]);
  const head = Buffer.alloc(8);
  head.write("RIFF", 0, "latin1");
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}
