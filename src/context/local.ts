/**
 * Local image files, confined to an image root: paths are resolved against
 * the root, symlinks are followed, and the real path must stay inside the
 * root's real path. `..` escapes and `file://` URLs outside it are refused.
 */
import { constants, type Stats } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ImageRefusedError } from "./download";
import { optionNamed } from "./option-names";

/** Options of {@link readLocalImage}. */
export interface LocalImageOptions {
  /** The folder images must be in (after resolving symlinks). */
  imageRoot: string;
  /** Largest file in bytes. */
  maxBytes: number;
}

/** What a non-regular file is, for messages. */
function kindOf(info: Stats): string {
  if (info.isDirectory()) return "a folder";
  if (info.isFIFO()) return "a named pipe";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return "not a file";
}

/** Whether a path begins with `~` as a shell's home folder (`~`, `~/…`, `~alice/…`): nothing here expands it. */
function startsWithTilde(source: string): boolean {
  return /^~[^/\\]*(?:[/\\]|$)/.test(source);
}

/** Whether a resolved path has a `~` folder in it (`/work/~/images`): a `~` that was not expanded. */
function holdsTilde(file: string): boolean {
  return /(?:^|[/\\])~[^/\\]*(?:[/\\]|$)/.test(file);
}

/**
 * What may have gone wrong with a local image path that names no file: a
 * Windows folder separator (`images\\chart.png`, which is one name here),
 * or a path written relative to the working directory, not to the image
 * root. "" when neither.
 */
async function missingHint(source: string, target: string): Promise<string> {
  if (path.sep === "/" && source.includes("\\") && !/^file:/i.test(source)) {
    return `; "\\" is not a folder separator here: write the path with "/" (${source.replace(/\\/g, "/")})`;
  }
  if (/^file:/i.test(source) || path.isAbsolute(source)) return "";
  const fromWorkingFolder = path.resolve(source);
  if (fromWorkingFolder === target) return "";
  try {
    if ((await stat(fromWorkingFolder)).isFile()) {
      return `; ${source} is there from the working folder ${process.cwd()}: give that folder as the image root (imageRoot, --image-root) if the paths are written from it`;
    }
  } catch {
    // Not there either: nothing to add.
  }
  return "";
}

function inside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  // ".." itself or a path through it leaves the root; a name that merely starts with dots ("..x.png") does not.
  const leaves = relative === ".." || relative.startsWith(`..${path.sep}`);
  return relative !== "" && !leaves && !path.isAbsolute(relative);
}

/**
 * Reads a local image (a path, relative to the image root unless absolute, or
 * a `file://` URL) if it lies inside the image root.
 *
 * @throws {ImageRefusedError} when it is outside the root, missing, not a file, or too big.
 */
export async function readLocalImage(source: string, options: LocalImageOptions): Promise<Buffer> {
  return readInsideRoot(source, options, undefined);
}

/**
 * The first `length` bytes of a local image (enough to tell its type), after
 * the same checks {@link readLocalImage} makes (inside the root, there, a
 * regular file, not too big): what a dry run reads to tell a refused image
 * without loading it.
 *
 * @throws {ImageRefusedError} as {@link readLocalImage} does.
 */
export async function readLocalImageHead(source: string, options: LocalImageOptions, length: number): Promise<Buffer> {
  return readInsideRoot(source, options, length);
}

/** The image's bytes (the first `length` of them, when given) once every rule of {@link readLocalImage} holds. */
async function readInsideRoot(source: string, options: LocalImageOptions, length: number | undefined): Promise<Buffer> {
  let target: string;
  if (/^file:\/\//i.test(source)) {
    try {
      target = fileURLToPath(source);
    } catch (error) {
      throw new ImageRefusedError(`not a usable file URL (${(error as Error).message})`);
    }
  } else {
    target = path.resolve(options.imageRoot, source);
  }
  let root: string;
  try {
    root = await realpath(options.imageRoot);
  } catch {
    const tilde = holdsTilde(options.imageRoot) ? ': "~" is not expanded to your home folder here; give the folder\'s full path (imageRoot, --image-root)' : "";
    throw new ImageRefusedError(`the image root ${options.imageRoot} does not exist${tilde}`);
  }
  // The path as written must point inside the root ("../" escapes are refused
  // before touching the disk); then its real path must too (symlinks).
  if (!inside(path.resolve(options.imageRoot), target) && !inside(root, target)) {
    throw new ImageRefusedError(`${target} is outside the image root ${root}; set imageRoot (--image-root) to the folder that holds your images`);
  }
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    if (startsWithTilde(source)) {
      throw new ImageRefusedError(
        `${source} starts with "~", which is not expanded to your home folder here (no shell reads this path): give the path relative to the image root ${root} (imageRoot, --image-root), or absolute`,
      );
    }
    throw new ImageRefusedError(`no such file: ${target} (image root ${root})${await missingHint(source, target)}`);
  }
  if (!inside(root, real)) {
    throw new ImageRefusedError(`${target} leads to ${real}, outside the image root ${root}; refused`);
  }
  // Only regular files: a FIFO, a device or a folder named like an image would block or mislead the read.
  // Checked before opening, and the open does not block (a FIFO swapped in meanwhile cannot hang it).
  const before = await stat(real);
  if (!before.isFile()) throw new ImageRefusedError(`${target} is not a regular file (${kindOf(before)}); refused`);
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ImageRefusedError(`${target} is not a regular file (${kindOf(stat)}); refused`);
    if (stat.size > options.maxBytes) {
      throw new ImageRefusedError(`${target} is ${stat.size.toLocaleString("en-US")} bytes, more than the ${options.maxBytes.toLocaleString("en-US")} allowed (${optionNamed("maxImageBytes")})`);
    }
    const wanted = length === undefined ? stat.size : Math.min(length, stat.size);
    const buffer = Buffer.alloc(wanted);
    const { bytesRead } = await handle.read(buffer, 0, wanted, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
