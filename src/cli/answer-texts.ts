/**
 * `evalframe diff` on large runs (`--low-memory`): each answer is read as a
 * short digest, which is all the comparison needs to tell whether an answer
 * changed, and the texts of the changed answers it writes out are read again
 * from the files. Answers are most of what a comparison would otherwise hold: a
 * million answers of a few hundred characters are several hundred MB a run.
 */
import { createHash } from "node:crypto";
import type { DatasetFormat } from "../dataset/load";
import { textAt } from "../dataset/column-toolkit";
import type { CellText } from "./command-support";

/**
 * `evalframe diff` reads answers as digests by itself when its two files
 * together are larger than this (1 GiB: two runs of some 300,000 scored rows), or
 * when asked (`--low-memory`): below it the second read costs more time than
 * the memory is worth.
 */
export const LOW_MEMORY_ABOVE_BYTES = 1024 ** 3;

/** Begins every digest, and no answer text a person writes: a digest is never taken for a text. */
const DIGEST_MARK = "\u0001";

/** The digest an answer is read as ("" stays ""). */
function answerDigest(text: string): string {
  return text === "" ? "" : `${DIGEST_MARK}${createHash("sha1").update(text).digest("base64url")}`;
}

/**
 * `cellText` that reads each answer as its digest and every other field as
 * `others` does.
 *
 * @example
 * loadTable(file, { columns, cellText: answersAsDigests(scoringPartsOnly()) });
 */
export function answersAsDigests(others: CellText): CellText {
  return (column, text, row) => (column === "response" ? answerDigest(text) : others(column, text, row));
}

/** Whether a cell holds an answer's digest, not its text. */
export function isAnswerDigest(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(DIGEST_MARK);
}

/**
 * The texts of the answers whose digests are `wanted`, read again from the
 * files: only the answer column, and of it only the wanted texts are kept.
 */
export async function answerTexts(
  files: readonly { file: string; format: DatasetFormat }[],
  wanted: ReadonlySet<string>,
  loadTable: typeof import("../dataset/load").loadTable,
): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const { file, format } of files) {
    if (texts.size === wanted.size) break;
    const found = new Map<number, string>();
    const cellText: CellText = (column, text, row) => {
      if (column !== "response") return text;
      const digest = answerDigest(text);
      if (!wanted.has(digest) || texts.has(digest)) return "";
      found.set(row, digest);
      return text;
    };
    const table = await loadTable(file, { format, required: [], warn: false, columns: ["response"], columnsIfPresent: true, cellText });
    // The text as the table has it: formula escapes taken off, as in the first read.
    for (const [row, digest] of found) texts.set(digest, textAt(table, "response", row));
  }
  return texts;
}
