/** Real temporary files for tests. */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after } from "node:test";

/** A fresh temporary folder, removed when the test file ends. */
export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "evalframe-test-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `text` to `name` inside `dir` and returns the full path. */
export function writeText(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text, "utf8");
  return file;
}

/** Files under `dir`, recursively (no stat after the listing, so a writer renaming files meanwhile does no harm). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}
