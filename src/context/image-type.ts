/** Image types decided by the bytes (magic numbers), never by names or headers. */
import { gifEnd, jpegEnd, pngEnd, webpEnd } from "./image-end";

/** Types we recognise. Only png, jpeg, gif and webp are sent; bmp is converted; svg is refused. */
export type ImageType = "png" | "jpeg" | "gif" | "webp" | "bmp" | "svg";

/** MIME types of the images we send. */
export const SENDABLE_MIME: Readonly<Record<"png" | "jpeg" | "gif" | "webp", string>> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
}

/**
 * The image type of some bytes, or undefined when they are not an image we know.
 *
 * @example
 * sniffImageType(readFileSync("chart.png")) // "png"
 * sniffImageType(Buffer.from("hello"))     // undefined
 */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) || startsWith(bytes, [0x47, 0x49, 0x46, 0x38, 0x39, 0x61])) return "gif";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  if (startsWith(bytes, [0x42, 0x4d]) && bytes.length >= 26) return "bmp";
  const head = Buffer.from(bytes.subarray(0, 512)).toString("utf8").replace(/^\uFEFF/, "").trimStart().toLowerCase();
  if (head.startsWith("<svg") || (head.startsWith("<?xml") && head.includes("<svg"))) return "svg";
  return undefined;
}

/**
 * Why the bytes of an image of `type` are cut short (a download or a copy
 * that stopped) or damaged, or undefined when the image is complete: its
 * structure is walked to PNG's IEND chunk, JPEG's end-of-image marker, GIF's
 * trailer, WebP's RIFF length. Bytes after the end (a Motion Photo's video,
 * padding) are allowed; the image is sent as it is. A vision model refuses a
 * cut image with an error only after the call is paid for.
 *
 * @example
 * incompleteImage("png", readFileSync("chart.png"))               // undefined
 * incompleteImage("png", readFileSync("chart.png").subarray(0, 60)) // "the PNG has no end (IEND chunk): the file is cut short"
 */
export function incompleteImage(type: ImageType, bytes: Uint8Array): string | undefined {
  const walk = type === "png" ? pngEnd : type === "jpeg" ? jpegEnd : type === "gif" ? gifEnd : type === "webp" ? webpEnd : undefined;
  const found = walk?.(bytes);
  return found !== undefined && "problem" in found ? found.problem : undefined;
}
