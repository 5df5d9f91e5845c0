/**
 * Writing files so that a reader, or a run killed half-way, never sees half
 * a file: the bytes go to a temporary file in the same folder, which is then
 * renamed over the target. Temporary files that a killed run left for the
 * same target are removed by the next write.
 */
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { mkdir, open, rename, rm, writeFile, type FileHandle } from "node:fs/promises";
import * as path from "node:path";

/** `<name>.<pid>.<random>.tmp`: the temporary files of a target, with the writing process's id. */
function tempPattern(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
}

function alive(pid: number): boolean {
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
    if (match && !alive(Number(match[1]))) await rm(path.join(dir, name), { force: true });
  }
}

/**
 * Writes `data` to `file` atomically, creating the folder if needed.
 *
 * @example
 * await writeFileAtomic("out/summary.json", JSON.stringify(summary));
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const { target, temp } = await prepare(file);
  try {
    await writeFile(temp, data, typeof data === "string" ? "utf8" : undefined);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** The target's full path and a new temporary file beside it (its folder made, leftovers removed). */
async function prepare(file: string): Promise<{ target: string; temp: string }> {
  const target = path.resolve(file);
  await mkdir(path.dirname(target), { recursive: true });
  await removeLeftovers(target);
  return { target, temp: `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp` };
}

/**
 * A file written piece by piece and put in place only at the end, atomically
 * as {@link writeFileAtomic} (a run killed half-way leaves the old file, and
 * a temporary file that the next write removes).
 *
 * @example
 * const out = await AtomicFileWriter.open("scored.csv");
 * await out.write("id,score\n");
 * await out.commit();
 */
export class AtomicFileWriter {
  private constructor(
    private readonly target: string,
    private readonly temp: string,
    private readonly handle: FileHandle,
  ) {}

  /** Starts writing `file`. */
  static async open(file: string): Promise<AtomicFileWriter> {
    const { target, temp } = await prepare(file);
    return new AtomicFileWriter(target, temp, await open(temp, "w"));
  }

  /** Appends text (UTF-8). */
  async write(text: string): Promise<void> {
    await this.handle.writeFile(text, "utf8");
  }

  /** Puts the file in place. */
  async commit(): Promise<void> {
    await this.handle.close();
    await rename(this.temp, this.target);
  }

  /** Gives up: the target is left as it was. */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.temp, { force: true }).catch(() => undefined);
  }
}
