/**
 * Writing files so that a reader, or a run killed half-way, never sees half
 * a file: the bytes go to a temporary file in the same folder, which is then
 * renamed over the target. Temporary files that a killed run left for the
 * same target are removed by the next write; a run stopped by a signal
 * removes its own first ({@link removeTempFilesNow}).
 *
 * A symbolic link is followed: its real target is written (atomically), the
 * link stays. What is not a regular file (a device such as /dev/null, a
 * FIFO, a socket, an open descriptor such as /dev/stdout) is written in
 * place, as it is: no temporary file, no rename, and a failed write (ENOSPC
 * from /dev/full) is an error.
 */
import { randomBytes } from "node:crypto";
import { close, constants, lstatSync, open, openSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync, writeFile as writeFd } from "node:fs";
import { access, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import * as path from "node:path";

/** The temporary files this process is writing now: removed by {@link removeTempFilesNow} when it is stopped. */
const inProgress = new Set<string>();

/**
 * Records a temporary file another writer (the judge's cache) is making, so
 * that {@link removeTempFilesNow} removes it too; {@link tempFileDone} when
 * it is renamed or removed.
 */
export function tempFileStarted(temp: string): void {
  inProgress.add(temp);
}

/** The temporary file recorded by {@link tempFileStarted} is gone (renamed into place, or removed). */
export function tempFileDone(temp: string): void {
  inProgress.delete(temp);
}

/**
 * Removes, at once and synchronously, the temporary files of the writes in
 * progress (their targets are left as they were): for a process stopped by
 * a signal, which exits before those writes could end or clean up. Call it
 * again right before exiting: a file being opened when the signal came is
 * there only then.
 *
 * @example
 * process.once("SIGINT", () => { removeTempFilesNow(); process.exit(130); });
 */
export function removeTempFilesNow(): void {
  for (const temp of inProgress) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Left for the next write of the same target, which removes it.
    }
  }
  // The list is kept: a write that was opening its file meanwhile is removed by a second call, just before exit.
}

/** `<name>.<pid>.<random>.tmp`: the temporary files of a target, with the writing process's id. */
function tempPattern(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
}

/** Whether a process of this id runs on this machine (one of another user's counts: kill(pid, 0) says EPERM). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the temporary files of `file` left by processes that no longer run. */
async function removeLeftovers(file: string): Promise<void> {
  const dir = path.dirname(file);
  const pattern = tempPattern(path.basename(file));
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = pattern.exec(name);
    if (match && !processAlive(Number(match[1]))) await rm(path.join(dir, name), { force: true });
  }
}

/**
 * Where and how a write to a path goes: `replace`, a temporary file renamed
 * over `path` (a regular file, or nothing yet; through symbolic links, their
 * real target); `in-place`, `path` opened and written as it is (a device, a
 * FIFO, a socket, another process's or descriptor's file); `stdout` or
 * `stderr`, this process's own stream (`/dev/stdout`, `/proc/self/fd/2`),
 * written where it stands, so that it is neither truncated nor replaced.
 */
export interface WriteTarget {
  /** The file written: for `replace`, the real path (links followed). */
  path: string;
  how: "replace" | "in-place" | "stdout" | "stderr";
}

/** `/proc/self/fd/1`, `/proc/<pid>/fd/N`, `/dev/fd/N`: the name of an open descriptor. */
const DESCRIPTOR = /^\/(?:proc\/(self|thread-self|\d+)(?:\/task\/\d+)?|dev)\/fd\/(\d+)$/;

/** The open descriptor a path names (itself or through links, as /dev/stdout does), and whether it is this process's. */
function descriptorNamed(file: string): { own: boolean; fd: number } | undefined {
  let at = file;
  for (let hop = 0; hop < 40; hop++) {
    const match = DESCRIPTOR.exec(at);
    if (match) {
      const pid = match[1];
      return { own: pid === undefined || pid === "self" || pid === "thread-self" || Number(pid) === process.pid, fd: Number(match[2]) };
    }
    let link: string;
    try {
      link = readlinkSync(at);
    } catch {
      return undefined; // not a link, or nothing there
    }
    at = path.resolve(path.dirname(at), link);
  }
  return undefined;
}

/**
 * The open descriptor of this process that a path names (`/dev/stdin`,
 * `/dev/fd/3`, `/proc/self/fd/0`), if it names one: read or written through
 * the descriptor, it works whatever is behind it (a socket cannot be opened
 * again by its name).
 *
 * @example
 * ownDescriptor("/dev/stdin"); // 0
 */
export function ownDescriptor(file: string): number | undefined {
  const descriptor = descriptorNamed(path.resolve(file));
  return descriptor?.own ? descriptor.fd : undefined;
}

/** Where a path's symbolic links lead when there is nothing at the end of them (yet): the file to create. */
function linkEnd(file: string): string {
  let at = file;
  for (let hop = 0; hop < 40; hop++) {
    let isLink = false;
    try {
      isLink = lstatSync(at).isSymbolicLink();
    } catch {
      return at;
    }
    if (!isLink) return at;
    at = path.resolve(path.dirname(at), readlinkSync(at));
  }
  return at;
}

/**
 * How a write to `file` is done (see {@link WriteTarget}); nothing is written.
 *
 * @example
 * writeTarget("latest.csv"); // a link to runs/0412.csv: { path: "/…/runs/0412.csv", how: "replace" }
 * writeTarget("/dev/null"); // { path: "/dev/null", how: "in-place" }
 */
export function writeTarget(file: string): WriteTarget {
  const absolute = path.resolve(file);
  const descriptor = descriptorNamed(absolute);
  if (descriptor !== undefined) {
    if (descriptor.own && descriptor.fd === 1) return { path: absolute, how: "stdout" };
    if (descriptor.own && descriptor.fd === 2) return { path: absolute, how: "stderr" };
    return { path: absolute, how: "in-place" };
  }
  let stats;
  try {
    stats = statSync(absolute, { throwIfNoEntry: false });
  } catch (error) {
    // A file where a folder of the path should be: nothing there to write over (making the folder fails, naming it).
    if ((error as NodeJS.ErrnoException).code !== "ENOTDIR") throw error;
  }
  if (stats === undefined) return { path: linkEnd(absolute), how: "replace" };
  if (!stats.isFile() && !stats.isDirectory()) return { path: absolute, how: "in-place" };
  try {
    return { path: realpathSync(absolute), how: "replace" };
  } catch {
    // There, but with no name to put a file beside (a deleted file still open): written as it is.
    return { path: absolute, how: "in-place" };
  }
}

/** The error with the temporary file's name replaced by the target's: a message names the file the user asked for. */
function namedAfter(error: unknown, temp: string, target: string): unknown {
  if (error instanceof Error) {
    error.message = error.message.split(temp).join(target);
    const e = error as NodeJS.ErrnoException;
    if (e.path === temp) e.path = target;
  }
  return error;
}

/** Writes to this process's stdout or stderr, resolving once the text is handed over. */
function writeStream(how: "stdout" | "stderr", data: string | Uint8Array): Promise<void> {
  const stream = how === "stdout" ? process.stdout : process.stderr;
  return new Promise((resolve, reject) => {
    stream.write(data, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Writes `data` to `file` atomically, creating the folder if needed. A
 * symbolic link is followed (its target is replaced, the link kept); a
 * device, FIFO or socket is written in place.
 *
 * @example
 * await writeFileAtomic("out/summary.json", JSON.stringify(summary));
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const target = writeTarget(file);
  if (target.how === "stdout" || target.how === "stderr") return writeStream(target.how, data);
  if (target.how === "in-place") {
    await writeFile(target.path, data, typeof data === "string" ? "utf8" : undefined);
    return;
  }
  const temp = await prepare(target.path);
  try {
    // Made synchronously as it is recorded (see AtomicFileWriter.file): a signal's cleanup finds it.
    inProgress.add(temp);
    const fd = openSync(temp, "w");
    try {
      await promisify(writeFd)(fd, data, typeof data === "string" ? "utf8" : undefined);
    } finally {
      await promisify(close)(fd);
    }
    await rename(temp, target.path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw namedAfter(error, temp, target.path);
  } finally {
    inProgress.delete(temp);
  }
}

/** A new temporary file's name beside `target` (its folder made, leftovers removed). */
async function prepare(target: string): Promise<string> {
  await mkdir(path.dirname(target), { recursive: true });
  await removeLeftovers(target);
  return `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
}

/**
 * A file written piece by piece and put in place only at the end, atomically
 * as {@link writeFileAtomic} (a run killed half-way leaves the old file, and
 * a temporary file that the next write removes). The temporary file is made
 * at the first write: a writer opened and then given up, or left when
 * opening another failed, leaves nothing behind.
 *
 * @example
 * const out = await AtomicFileWriter.open("scored.csv");
 * await out.write("id,score\n");
 * await out.commit();
 */
export class AtomicFileWriter {
  /** The open file's descriptor, once the first write opened it. */
  private fd: number | undefined;

  private constructor(
    /** The path as the caller gave it, for messages. */
    private readonly name: string,
    private readonly target: WriteTarget,
    /** The temporary file, when the target is replaced at the end. */
    private readonly temp: string | undefined,
  ) {}

  /** Starts writing `file`: its folder is made and must be writable (checked now, so a bad path fails before any work). */
  static async open(file: string): Promise<AtomicFileWriter> {
    const target = writeTarget(file);
    if (target.how !== "replace") return new AtomicFileWriter(file, target, undefined);
    const temp = await prepare(target.path);
    await access(path.dirname(target.path), constants.W_OK);
    return new AtomicFileWriter(file, target, temp);
  }

  /** An error of writing, its message naming the file asked for (not the temporary file): `cannot write "x.csv": ENOSPC: …`. */
  private failed(error: unknown): unknown {
    if (this.temp !== undefined) namedAfter(error, this.temp, this.target.path);
    if (error instanceof Error) error.message = `cannot write "${this.name}": ${error.message}`;
    return error;
  }

  /** Runs one step of the writing, its error named after the file. */
  private async step<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.failed(error);
    }
  }

  /**
   * The open file the text goes to: the temporary file, or the target itself when it is written in place.
   * The temporary file is made synchronously, as it is recorded: a run stopped by a signal then finds
   * every one there is, and none is made after it removed them (the target, a FIFO perhaps, is opened
   * without blocking).
   */
  private async file(): Promise<number> {
    if (this.fd !== undefined) return this.fd;
    if (this.temp !== undefined) {
      inProgress.add(this.temp);
      this.fd = openSync(this.temp, "w");
    } else {
      this.fd = await promisify(open)(this.target.path, "w");
    }
    return this.fd;
  }

  /** Closes the open file, once. */
  private async closeFile(): Promise<void> {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) await promisify(close)(fd);
  }

  /** Appends text (UTF-8). */
  async write(text: string): Promise<void> {
    const how = this.target.how;
    if (how === "stdout" || how === "stderr") return this.step(() => writeStream(how, text));
    await this.step(async () => promisify(writeFd)(await this.file(), text, "utf8"));
  }

  /** Puts the file in place. */
  async commit(): Promise<void> {
    if (this.target.how === "stdout" || this.target.how === "stderr") return;
    await this.step(async () => {
      await this.file();
      await this.closeFile();
      if (this.temp !== undefined) {
        await rename(this.temp, this.target.path);
        inProgress.delete(this.temp);
      }
    });
  }

  /** Gives up: the target is left as it was (a device or FIFO keeps what was written to it). */
  async abort(): Promise<void> {
    await this.closeFile().catch(() => undefined);
    if (this.temp !== undefined) {
      await rm(this.temp, { force: true }).catch(() => undefined);
      inProgress.delete(this.temp);
    }
  }
}
