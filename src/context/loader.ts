/**
 * Loads image context items (URLs, local files, data URIs) into data URIs
 * the judge can send, once per run per source, under the rules in README
 * ("Multimodal relevance").
 */
import { stat } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { animatedImage } from "./animation";
import { BmpError, bmpToPngAsync } from "./bmp";
import { downloadImage, ImageRefusedError, type ResolvedAddress } from "./download";
import { incompleteImage, SENDABLE_MIME, sniffImageType, type ImageType } from "./image-type";
import type { ContextItem } from "./items";
import { readLocalImage, readLocalImageHead } from "./local";
import { optionNamed } from "./option-names";
import { DEFAULT_CONCURRENT_LOADS, DEFAULT_DOWNLOAD_TIMEOUT_MS, DEFAULT_KEPT_IMAGE_BYTES, DEFAULT_MAX_IMAGE_BYTES } from "./limits";
import { timerDelay } from "../dataset/timer-limit";

export { DEFAULT_CONCURRENT_LOADS, DEFAULT_DOWNLOAD_TIMEOUT_MS, DEFAULT_KEPT_IMAGE_BYTES, DEFAULT_MAX_IMAGE_BYTES } from "./limits";

/** Options for loading image contexts. */
export interface ImageLoadOptions {
  /** Folder local images must be in (after resolving symlinks); default the working directory. */
  imageRoot?: string;
  /** Largest image in bytes, data URIs included; default 10 MiB. */
  maxImageBytes?: number;
  /** Time allowed to fetch one image (a download, or reading a local file); default 10 s. */
  downloadTimeoutMs?: number;
  /** Allow image URLs on loopback, private and other non-public addresses; default false. */
  allowPrivateNetwork?: boolean;
  /** Resolves host names (default: the system resolver). For tests and custom DNS. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Why an address is refused, or undefined (default: public unicast only). For tests. */
  addressPolicy?: (address: string) => string | undefined;
  /**
   * Images read or downloaded at once, default 16; the others wait their
   * turn, and `downloadTimeoutMs` counts from when an image's turn comes.
   */
  maxConcurrentLoads?: number;
  /**
   * Bytes of loaded images kept for reuse by later rows that name the same
   * source, default 64 MiB; past it the least recently used are let go (and
   * loaded again if named again). Refusals are always remembered.
   */
  keptImageBytes?: number;
}

/** An image ready to send. */
export interface LoadedImage {
  /** The context item it came from. */
  source: string;
  /** Type decided by the bytes. */
  type: "png" | "jpeg" | "gif" | "webp";
  mime: string;
  dataUri: string;
  /** Size of the image sent, in bytes. */
  bytes: number;
  /** Set when the original was converted (BMP → PNG). */
  convertedFrom: "bmp" | undefined;
}

/**
 * What a local image file is now, to tell whether it changed since it was
 * loaded: its device, inode, size and modification times (after symlinks),
 * or the error code that says why it cannot be looked at ("ENOENT"). Nothing of it is read.
 */
async function fileStamp(source: string, imageRoot: string): Promise<string> {
  let target: string;
  try {
    target = /^file:\/\//i.test(source) ? fileURLToPath(source) : path.resolve(imageRoot, source);
  } catch {
    return "not a file URL";
  }
  try {
    const info = await stat(target, { bigint: true });
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? "unreadable";
  }
}

/** An image context item. */
export type ImageItem = Extract<ContextItem, { kind: "url" | "file" | "data-uri" }>;

/** `work`, or an ImageRefusedError once `ms` have passed without it. */
export async function withDeadline<T>(work: Promise<T>, ms: number, source: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ImageRefusedError(`reading ${source} took more than ${ms} ms (${optionNamed("downloadTimeoutMs")})`)), timerDelay(ms));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function decodeDataUri(source: string, maxBytes: number): Buffer {
  const comma = source.indexOf(",");
  if (comma < 0) throw new ImageRefusedError("the data URI has no comma before its data");
  const meta = source.slice(5, comma).toLowerCase();
  const parts = meta.split(";");
  if (!parts.includes("base64")) throw new ImageRefusedError("only base64 data URIs are loaded (data:image/png;base64,…)");
  const mediaType = parts[0] ?? "";
  if (!mediaType.startsWith("image/")) throw new ImageRefusedError(`the data URI is ${mediaType || "untyped"}, not an image`);
  const data = source.slice(comma + 1).replace(/\s+/g, "");
  const estimated = Math.floor((data.length * 3) / 4);
  if (estimated > maxBytes) {
    throw new ImageRefusedError(`the data URI holds about ${estimated.toLocaleString("en-US")} bytes, more than the ${maxBytes.toLocaleString("en-US")} allowed (${optionNamed("maxImageBytes")})`);
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) && !/^[A-Za-z0-9_-]*={0,2}$/.test(data)) throw new ImageRefusedError("the data URI is not valid base64");
  return Buffer.from(data, "base64");
}

/** Bytes enough to tell an image's type (an SVG's opening tag may follow an XML prolog). */
const TYPE_BYTES = 512;

/** The type of an image's first bytes when it is one that is loaded (PNG, JPEG, GIF, WebP, BMP); else an ImageRefusedError saying why not. */
function loadableType(bytes: Buffer): Exclude<ImageType, "svg"> {
  if (bytes.length === 0) throw new ImageRefusedError("it is empty (0 bytes): an image that was never written, or a download that sent nothing");
  const type = sniffImageType(bytes.subarray(0, TYPE_BYTES));
  if (type === "svg") throw new ImageRefusedError("SVG images are refused (they can carry scripts and links); convert it to PNG");
  if (type === undefined) throw new ImageRefusedError("the bytes are not a PNG, JPEG, GIF, WebP or BMP image, whatever the name says");
  return type;
}

/**
 * Why an image item will be refused, found without loading it (for a dry
 * run), or undefined when nothing refuses it yet: for a local file, every
 * rule of the loader that needs no decoding — inside the image root, there,
 * a regular file, within `maxImageBytes`, and of a loaded type by its first
 * bytes; for a data URI, its header, size and type. A URL is not fetched (a
 * dry run sends nothing): undefined. What only the whole image tells (cut
 * short, animated, a BMP too big once converted) is left to the run.
 *
 * @example
 * await refusalWithoutLoading({ kind: "file", source: "images/missing.png" }, { imageRoot: "data" });
 * // "no such file: /…/data/images/missing.png (image root /…/data)"
 */
export async function refusalWithoutLoading(item: ImageItem, options: ImageLoadOptions = {}): Promise<string | undefined> {
  if (item.kind === "url") return undefined;
  const max = options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  try {
    const head =
      item.kind === "data-uri"
        ? decodeDataUri(item.source, max)
        : await withDeadline(readLocalImageHead(item.source, { imageRoot: options.imageRoot ?? process.cwd(), maxBytes: max }, TYPE_BYTES), options.downloadTimeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS, item.source);
    loadableType(head);
    return undefined;
  } catch (error) {
    // As in a run, any error of the read refuses the image (a folder that cannot be read, say).
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Turns loaded bytes into an image to send: the bytes decide the type (not
 * the name or Content-Type); still PNG, JPEG, GIF and WebP pass, BMP becomes
 * PNG; an image cut short, an animated GIF, APNG or WebP, SVG and everything
 * else is refused. A BMP is converted without holding the event loop (other
 * rows' downloads and requests go on meanwhile).
 */
export async function toSendableImage(source: string, bytes: Buffer, maxBytes: number): Promise<LoadedImage> {
  const type = loadableType(bytes);
  const cut = incompleteImage(type, bytes);
  if (cut !== undefined) throw new ImageRefusedError(cut);
  const animated = animatedImage(type, bytes);
  if (animated !== undefined) throw new ImageRefusedError(animated);
  let data = bytes;
  let convertedFrom: "bmp" | undefined;
  let sendType: LoadedImage["type"];
  if (type === "bmp") {
    try {
      data = await bmpToPngAsync(bytes);
    } catch (error) {
      throw new ImageRefusedError(error instanceof BmpError ? `cannot convert the BMP to PNG: ${error.message}` : String(error));
    }
    if (data.length > maxBytes) throw new ImageRefusedError(`the BMP converted to PNG is more than the ${maxBytes.toLocaleString("en-US")} bytes allowed`);
    convertedFrom = "bmp";
    sendType = "png";
  } else {
    sendType = type;
  }
  const mime = SENDABLE_MIME[sendType];
  return { source, type: sendType, mime, dataUri: `data:${mime};base64,${data.toString("base64")}`, bytes: data.length, convertedFrom };
}

/**
 * Loads image context items, each source once: later rows that use the same
 * image get the same (memoised) result, success or refusal.
 *
 * @example
 * const loader = new ImageLoader({ imageRoot: "data" });
 * const image = await loader.load({ kind: "file", source: "images/bar-chart.png" });
 * image.mime // "image/png"
 */
export class ImageLoader {
  /** Loads under way, by source: rows asking for the same image at once share one load. */
  private readonly loading = new Map<string, Promise<LoadedImage>>();
  /** Loaded images by source, least recently used first, at most `keptImageBytes` of them. */
  private readonly kept = new Map<string, LoadedImage>();
  private keptBytes = 0;
  /** Why each refused source was refused. */
  private readonly refusals = new Map<string, Error>();
  /** What each local file was (see `fileStamp`) when it was loaded or refused, by source. */
  private readonly stamps = new Map<string, string>();
  /** Loads running now, and the ones waiting for a turn. */
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly options: Required<Pick<ImageLoadOptions, "imageRoot" | "maxImageBytes" | "downloadTimeoutMs" | "allowPrivateNetwork" | "maxConcurrentLoads" | "keptImageBytes">> & ImageLoadOptions;

  constructor(options: ImageLoadOptions = {}) {
    const maxImageBytes = options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES;
    // Node's timers hold at most 2^31 - 1 ms (24.8 days); a longer one fires at once, and every image would time out.
    const downloadTimeoutMs = timerDelay(options.downloadTimeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS);
    const maxConcurrentLoads = options.maxConcurrentLoads ?? DEFAULT_CONCURRENT_LOADS;
    const keptImageBytes = options.keptImageBytes ?? DEFAULT_KEPT_IMAGE_BYTES;
    if (!Number.isInteger(maxImageBytes) || maxImageBytes < 1) throw new RangeError(`maxImageBytes must be a whole number of bytes ≥ 1, got ${options.maxImageBytes}`);
    if (!Number.isFinite(downloadTimeoutMs) || downloadTimeoutMs <= 0) throw new RangeError(`downloadTimeoutMs must be > 0, got ${options.downloadTimeoutMs}`);
    if (!Number.isInteger(maxConcurrentLoads) || maxConcurrentLoads < 1) throw new RangeError(`maxConcurrentLoads must be a whole number ≥ 1, got ${options.maxConcurrentLoads}`);
    if (!Number.isInteger(keptImageBytes) || keptImageBytes < 0) throw new RangeError(`keptImageBytes must be a whole number of bytes ≥ 0, got ${options.keptImageBytes}`);
    this.options = { ...options, imageRoot: options.imageRoot ?? process.cwd(), maxImageBytes, downloadTimeoutMs, allowPrivateNetwork: options.allowPrivateNetwork ?? false, maxConcurrentLoads, keptImageBytes };
  }

  /**
   * Loads one image item; rejects with an `ImageRefusedError` saying why it
   * was refused. A source loaded before is given again while it is kept
   * (see `keptImageBytes`); a refused source is refused again, unread. A
   * local file is looked at (its size, times and inode) each time: one that
   * changed, appeared or went since it was loaded or refused is loaded
   * again, so a loader shared between runs never sends an old picture.
   */
  load(item: ImageItem): Promise<LoadedImage> {
    if (item.kind !== "file") return this.loadKnown(item, undefined);
    return fileStamp(item.source, this.options.imageRoot).then((stamp) => this.loadKnown(item, stamp));
  }

  /** {@link load} once a file's stamp is known (undefined for URLs and data URIs, which do not change). */
  private loadKnown(item: ImageItem, stamp: string | undefined): Promise<LoadedImage> {
    const current = stamp === undefined || this.stamps.get(item.source) === stamp;
    const kept = this.kept.get(item.source);
    if (kept && current) {
      // Most recently used now: last in the map's order.
      this.kept.delete(item.source);
      this.kept.set(item.source, kept);
      return Promise.resolve(kept);
    }
    const refused = this.refusals.get(item.source);
    if (refused && current) return Promise.reject(refused);
    let pending = this.loading.get(item.source);
    if (!pending) {
      // A file that changed since: what was kept or refused of it is let go.
      if (kept) {
        this.kept.delete(item.source);
        this.keptBytes -= kept.dataUri.length;
      }
      this.refusals.delete(item.source);
      pending = this.inTurn(() => this.loadOnce(item)).then(
        (image) => {
          this.loading.delete(item.source);
          if (stamp !== undefined) this.stamps.set(item.source, stamp);
          this.keep(image);
          return image;
        },
        (error: unknown) => {
          this.loading.delete(item.source);
          if (stamp !== undefined) this.stamps.set(item.source, stamp);
          this.refusals.set(item.source, error instanceof Error ? error : new Error(String(error)));
          throw error;
        },
      );
      pending.catch(() => undefined);
      this.loading.set(item.source, pending);
    }
    return pending;
  }

  /** Keeps `image` for later rows, letting the least recently used go past `keptImageBytes`. */
  private keep(image: LoadedImage): void {
    const size = image.dataUri.length;
    if (size > this.options.keptImageBytes) return;
    const before = this.kept.get(image.source);
    if (before) {
      this.kept.delete(image.source);
      this.keptBytes -= before.dataUri.length;
    }
    this.kept.set(image.source, image);
    this.keptBytes += size;
    for (const [source, old] of this.kept) {
      if (this.keptBytes <= this.options.keptImageBytes) break;
      this.kept.delete(source);
      this.keptBytes -= old.dataUri.length;
    }
  }

  /** Runs `work` when fewer than `maxConcurrentLoads` loads run; its time limits start then. */
  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.maxConcurrentLoads) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private async loadOnce(item: ImageItem): Promise<LoadedImage> {
    const max = this.options.maxImageBytes;
    let bytes: Buffer;
    if (item.kind === "data-uri") bytes = decodeDataUri(item.source, max);
    else if (item.kind === "file") {
      // A regular file can still hang (a network drive that stopped answering): the read has a deadline too.
      bytes = await withDeadline(readLocalImage(item.source, { imageRoot: this.options.imageRoot, maxBytes: max }), this.options.downloadTimeoutMs, item.source);
    }
    else {
      const download: Parameters<typeof downloadImage>[1] = { maxBytes: max, timeoutMs: this.options.downloadTimeoutMs, allowPrivateNetwork: this.options.allowPrivateNetwork };
      if (this.options.resolve) download.resolve = this.options.resolve;
      if (this.options.addressPolicy) download.addressPolicy = this.options.addressPolicy;
      const downloaded = await downloadImage(item.source, download);
      bytes = downloaded.bytes;
      const declared = downloaded.contentType;
      // Bytes that are no image, declared as something else: say what the server sent (a sign-in or preview page, often).
      if (declared !== undefined && !declared.startsWith("image/") && bytes.length > 0 && sniffImageType(bytes.subarray(0, TYPE_BYTES)) === undefined) {
        const page = declared.startsWith("text/html") ? ": a web page (a sign-in, preview or error page?), not the image itself; give the image's own URL" : ", not an image";
        throw new ImageRefusedError(`the server sent ${declared.split(";")[0]}${page}`);
      }
    }
    return toSendableImage(item.source, bytes, max);
  }
}
