/**
 * Animated images: a vision endpoint reads one frame of an animated GIF,
 * APNG or WebP (the first) or refuses the image, so the model would judge
 * a picture the user did not mean. They are refused before anything is
 * sent, by their structure: a GIF with more than one image, a PNG whose
 * `acTL` chunk (before IDAT) declares more than one frame, a WebP whose
 * VP8X header has the animation flag or that holds ANIM/ANMF chunks. Every
 * read is bounds checked; the image was found complete before.
 */
import { gifBlocks } from "./image-end";
import type { ImageType } from "./image-type";

/** What an animated image's refusal ends with: why, and what to send instead. */
const SEND_A_STILL = "vision models read only its first frame, or refuse it; send the frame that matters as a still PNG or JPEG";

function uint32BE(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
}

function uint32LE(bytes: Uint8Array, at: number): number {
  return bytes[at]! + (bytes[at + 1]! << 8) + (bytes[at + 2]! << 16) + bytes[at + 3]! * 0x1000000;
}

function fourcc(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
}

/** The frames an APNG's `acTL` chunk declares, or undefined for a PNG without one before its image data (a still PNG). */
export function apngFrames(bytes: Uint8Array): number | undefined {
  let at = 8;
  while (at + 8 <= bytes.length) {
    const length = uint32BE(bytes, at);
    const type = fourcc(bytes, at + 4);
    if (type === "IDAT" || type === "IEND") return undefined;
    if (type === "acTL") return at + 12 <= bytes.length ? uint32BE(bytes, at + 8) : undefined;
    at += 12 + length;
  }
  return undefined;
}

/** A WebP's animation: whether its VP8X header sets the animation flag, and its ANIM and ANMF (frame) chunks. */
export function webpAnimation(bytes: Uint8Array): { flagged: boolean; anim: boolean; frames: number } {
  const found = { flagged: false, anim: false, frames: 0 };
  const end = Math.min(bytes.length, uint32LE(bytes, 4) + 8);
  let at = 12;
  while (at + 8 <= end) {
    const type = fourcc(bytes, at);
    const size = uint32LE(bytes, at + 4);
    if (type === "VP8X" && at + 9 <= end) found.flagged = (bytes[at + 8]! & 0x02) !== 0;
    else if (type === "ANIM") found.anim = true;
    else if (type === "ANMF") found.frames++;
    at += 8 + size + (size & 1); // chunks are padded to an even size
  }
  return found;
}

/**
 * Why an image of `type` is refused as animated, or undefined when it is a
 * still image (or of a type that cannot be animated).
 *
 * @example
 * animatedImage("gif", readFileSync("spinner.gif")) // "the GIF is animated (12 frames): vision models read only its first frame, …"
 * animatedImage("png", readFileSync("chart.png"))   // undefined
 */
export function animatedImage(type: ImageType, bytes: Uint8Array): string | undefined {
  if (type === "gif") {
    const { images, loops } = gifBlocks(bytes);
    return images > 1 ? `the GIF is animated (${images} frames${loops ? ", looping" : ""}): ${SEND_A_STILL}` : undefined;
  }
  if (type === "png") {
    const frames = apngFrames(bytes);
    return frames !== undefined && frames > 1 ? `the PNG is animated (an APNG of ${frames} frames): ${SEND_A_STILL}` : undefined;
  }
  if (type === "webp") {
    const { flagged, anim, frames } = webpAnimation(bytes);
    if (!flagged && !anim && frames === 0) return undefined;
    return `the WebP is animated (${frames > 0 ? `${frames} frame${frames === 1 ? "" : "s"}` : "its header says so"}): ${SEND_A_STILL}`;
  }
  return undefined;
}
