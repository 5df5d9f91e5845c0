/**
 * Content-addressed disk cache for judge replies and embeddings. Each entry
 * is one JSON file named by the SHA-256 of its key, written to a temporary
 * file and renamed into place, so a run killed at any moment leaves only whole
 * entries and a rerun pays only for what was not finished. Keys never hold
 * the API key or request headers.
 */
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { processAlive, tempFileDone, tempFileStarted } from "../dataset/atomic-write";

/** JSON text with object keys sorted at every level, so equal values give equal text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v as Record<string, unknown>).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/**
 * The cache key of a request: SHA-256 (hex) of its stable JSON.
 *
 * @example
 * cacheKey({ model: "gpt-4o-mini", temperature: 0 }) === cacheKey({ temperature: 0, model: "gpt-4o-mini" }) // true
 */
export function cacheKey(parts: Readonly<Record<string, unknown>>): string {
  return createHash("sha256").update(stableJson(parts)).digest("hex");
}

/**
 * A temporary file this old, of a process that no longer runs here, was left
 * by a run killed mid-write (SIGKILL, out of memory, power loss): writes take
 * milliseconds, and the age keeps a live writer on another machine sharing
 * the folder safe.
 */
const LEFTOVER_AGE_MS = 60 * 60_000;

/** Where replies are kept between runs. */
export interface ReplyCache {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** A cache that keeps nothing (`cache: false`). */
export class NoCache implements ReplyCache {
  async get(): Promise<unknown> {
    return undefined;
  }
  async set(): Promise<void> {}
}

/** The on-disk cache: `<dir>/v1/<first two hex digits>/<key>.json`. */
export class DiskCache implements ReplyCache {
  private readonly root: string;
  /**
   * Values not (yet) on disk: those being written, and every one once the
   * folder proved unwritable. Values on disk are read from there again, so
   * that a long run's memory does not grow with every reply and vector it
   * has cached (a million rows' embeddings would take gigabytes).
   */
  private readonly unwritten = new Map<string, unknown>();
  private unwritable = false;
  /** Entry folders already swept of leftover temporary files this run. */
  private readonly swept = new Set<string>();

  /**
   * @param dir the cache folder, created when the first entry is written.
   * @param warn where the one warning goes when the folder cannot be written (default `console.warn`).
   */
  constructor(
    dir: string,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {
    this.root = path.join(path.resolve(dir), "v1");
  }

  private file(key: string): string {
    return path.join(this.root, key.slice(0, 2), `${key}.json`);
  }

  /**
   * The stored value, or undefined when there is none, when the entry is not
   * valid JSON, or when it was stored for another key. Entries are small and
   * read synchronously: ten times faster than the promise API for thousands of
   * them, and no burst of open files. An entry that exists but cannot be read
   * (permissions, too many open files) is an error, never a silent miss that
   * would pay for the call again.
   */
  async get(key: string): Promise<unknown> {
    if (this.unwritten.has(key)) return this.unwritten.get(key);
    let text: string;
    try {
      text = readFileSync(this.file(key), "utf8");
    } catch (error) {
      // No entry there: none written yet, or the folder's path runs through a file (then nothing can be written either).
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      const hint = code === "EISDIR" ? "; a folder stands where the entry belongs: remove it, and the reply is fetched again" : "";
      throw new Error(`cannot read the cache entry ${this.file(key)}: ${(error as Error).message}${hint}`);
    }
    try {
      const entry = JSON.parse(text) as { key?: unknown; value: unknown };
      // An entry that holds another key's reply (copied or swapped files) is a miss: it is fetched again and overwritten.
      if (entry.key !== key) return undefined;
      return entry.value;
    } catch {
      return undefined;
    }
  }

  /**
   * Stores a value atomically (temporary file, then rename). A folder that
   * cannot be written (read-only, full, not a folder) never loses a paid
   * reply: the value is kept in memory for this run, and one warning says
   * that a rerun will pay again. A value written is let go from memory.
   */
  async set(key: string, value: unknown): Promise<void> {
    this.unwritten.set(key, value);
    if (this.unwritable) return;
    const file = this.file(key);
    const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    tempFileStarted(temp); // removed if the run is stopped by a signal meanwhile
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await this.sweep(path.dirname(file));
      await writeFile(temp, JSON.stringify({ key, value }), "utf8");
      await rename(temp, file);
      tempFileDone(temp);
      // Let go unless a later set of the same key is still being written (it removes it then).
      if (this.unwritten.get(key) === value) this.unwritten.delete(key);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      tempFileDone(temp);
      if (!this.unwritable) {
        this.unwritable = true;
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        this.warn(`evalframe: cannot write the cache folder ${path.dirname(this.root)} (${code}); replies are kept in memory for this run only, so a rerun will pay for them again. Set cacheDir (--cache-dir) to a writable folder.`);
      }
    }
  }

  /**
   * Removes, once a run per entry folder, the temporary files that killed
   * runs left there (see {@link LEFTOVER_AGE_MS}); they are never read, and
   * would otherwise pile up. Never fails a write.
   */
  private async sweep(dir: string): Promise<void> {
    if (this.swept.has(dir)) return;
    this.swept.add(dir);
    try {
      const now = Date.now();
      for (const name of await readdir(dir)) {
        const pid = /\.json\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name)?.[1];
        if (pid === undefined || processAlive(Number(pid))) continue;
        const file = path.join(dir, name);
        const info = await stat(file).catch(() => undefined);
        if (info && now - info.mtimeMs > LEFTOVER_AGE_MS) await rm(file, { force: true });
      }
    } catch {
      // A sweep is housekeeping: the write goes on.
    }
  }
}
