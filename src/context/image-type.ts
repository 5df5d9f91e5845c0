/** Image types decided by the bytes (magic numbers), never by names or headers. */

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

/** Whether `marker` occurs within the last `within` bytes (an image may carry a little padding after its end). */
function endsNear(bytes: Uint8Array, marker: readonly number[], within: number): boolean {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - within)));
  return tail.includes(Buffer.from(marker));
}

/**
 * Why the bytes of an image of `type` are cut short (a download or a copy
 * that stopped), or undefined when its end is there: PNG's IEND chunk,
 * JPEG's end-of-image marker, GIF's trailer, WebP's RIFF length. A vision
 * model refuses a cut image with an error only after the call is paid for.
 *
 * @example
 * incompleteImage("png", readFileSync("chart.png"))               // undefined
 * incompleteImage("png", readFileSync("chart.png").subarray(0, 60)) // "the PNG has no end (IEND chunk): the file is cut short"
 */
export function incompleteImage(type: ImageType, bytes: Uint8Array): string | undefined {
  switch (type) {
    case "png":
      return endsNear(bytes, [0x49, 0x45, 0x4e, 0x44], 64) ? undefined : "the PNG has no end (IEND chunk): the file is cut short";
    case "jpeg":
      return endsNear(bytes, [0xff, 0xd9], 1024) ? undefined : "the JPEG has no end-of-image marker: the file is cut short";
    case "gif":
      return endsNear(bytes, [0x3b], 16) ? undefined : "the GIF has no trailer: the file is cut short";
    case "webp": {
      const declared = bytes.length >= 8 ? Buffer.from(bytes.subarray(4, 8)).readUInt32LE(0) + 8 : Number.POSITIVE_INFINITY;
      return bytes.length >= declared ? undefined : `the WebP declares ${declared.toLocaleString("en-US")} bytes and has ${bytes.length.toLocaleString("en-US")}: the file is cut short`;
    }
    default:
      return undefined;
  }
}
