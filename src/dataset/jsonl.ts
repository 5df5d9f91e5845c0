/** JSON Lines reading: one JSON object per line, blank lines skipped. */
import { MalformedFileError } from "./csv";
import { withoutBom } from "./file-text";

/**
 * Parses JSON Lines text into row objects, with the 1-based line of each
 * (`firstLine` is the number of the text's first line, for a piece of a file).
 *
 * @throws {MalformedFileError} naming the line that is not a JSON object.
 * @example
 * parseJsonl('{"question":"2+2?","answer":"4"}\n').records // [{ question: "2+2?", answer: "4" }]
 */
export function parseJsonl(text: string, file = "<text>", firstLine = 1): { records: Record<string, unknown>[]; lines: number[] } {
  const records: Record<string, unknown>[] = [];
  const lines: number[] = [];
  const body = withoutBom(text);
  body.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new MalformedFileError(file, firstLine + i, `not valid JSON (${(error as Error).message}); each line must be one JSON object`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      const got = Array.isArray(value) ? "an array" : value === null ? "null" : typeof value;
      throw new MalformedFileError(file, firstLine + i, `expected a JSON object like {"question": "…"}, got ${got}`);
    }
    records.push(value as Record<string, unknown>);
    lines.push(firstLine + i);
  });
  return { records, lines };
}
