/** Real temporary files for tests. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
