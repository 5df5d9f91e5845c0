/**
 * A data file's text: whole, or 64 KB at a time for files too large to hold
 * whole, read as UTF-8 with bad bytes reported once (naming the line), and
 * the error for a file that cannot be read.
 */
import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { FixableError } from "./fix-hint";

/** What reading a file's text heeds of the load options (`LoadDatasetOptions` has both). */
export interface TextReadOptions {
  /** Refuse a file that is not valid UTF-8 instead of warning. */
  strict?: boolean;
  /** Where the warning goes: a function, or false for silence; default `console.warn`. */
  warn?: false | ((message: string) => void);
}

/** The text without a leading UTF-8 byte-order mark, which every reader skips. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The error for a data file that cannot be opened, saying where it was looked for. */
export function cannotRead(file: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (error as Error).message;
  return new Error(`cannot read "${file}": ${why} (looked in ${path.resolve(file)}; the working directory is ${process.cwd()})`);
}

/** A whole data file as text: a clear error when it cannot be read, bad UTF-8 reported (see decodeUtf8). */
export async function readText(file: string, options: TextReadOptions): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw cannotRead(file, error);
  }
  const utf16 = utf16Refusal(file, bytes);
  if (utf16 !== undefined) throw utf16;
  return decodeUtf8(bytes, file, options);
}

/**
 * The error for a file that starts with a UTF-16 byte-order mark (FF FE or
 * FE FF: Excel's "Unicode Text", PowerShell's default), or undefined: read
 * as UTF-8 it is garbage, every other byte a NUL, so it is named and
 * refused, strict or not.
 */
function utf16Refusal(file: string, bytes: Uint8Array): Error | undefined {
  const mark = bytes[0] === 0xff && bytes[1] === 0xfe ? "FF FE" : bytes[0] === 0xfe && bytes[1] === 0xff ? "FE FF" : undefined;
  if (mark === undefined) return undefined;
  return new Error(
    `${file}: the file is UTF-16 (it starts with the byte-order mark ${mark}), which evalframe does not read; save it as UTF-8 (in Excel: "CSV UTF-8"; in an editor: the encoding UTF-8) and run again`,
  );
}

/**
 * The text of a file read as UTF-8. Bytes that are not UTF-8 become U+FFFD
 * (as Node reads them) with a warning naming the first line that has one, or
 * an error with `strict`.
 */
function decodeUtf8(bytes: Buffer, file: string, options: TextReadOptions): string {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  const text = bytes.toString("utf8");
  notUtf8(file, text.slice(0, text.indexOf("\uFFFD") + 1).split("\n").length, options);
  return text;
}

/** Reports a file's first line that is not UTF-8: a warning, or with `strict` an error. */
export function notUtf8(file: string, line: number, options: TextReadOptions): void {
  const problem = `${file}: line ${line} is not valid UTF-8`;
  if (options.strict) {
    const save = 'save the file as UTF-8 (in Excel: "CSV UTF-8")';
    throw new FixableError(problem, { api: `${save}, or leave strict off to read the bad bytes as \uFFFD`, cli: `${save}, or leave out --strict to read the bad bytes as \uFFFD` });
  }
  warner(options)?.(
    `evalframe: ${problem} (and maybe later lines): its bad bytes were read as \uFFFD; save the file as UTF-8 to keep the text as written, or pass strict (--strict) to refuse such files`,
  );
}

/**
 * Where a read's warnings go: its `warn` option, `console.warn` when it
 * gives none, or nowhere (undefined) when it is `false`.
 *
 * @example
 * warner({ warn: false }); // undefined
 * warner({})?.("evalframe: …"); // printed by console.warn
 */
export function warner(options: { warn?: false | ((message: string) => void) }): ((message: string) => void) | undefined {
  if (options.warn === false) return undefined;
  return options.warn ?? ((message: string) => console.warn(message));
}

/**
 * Bytes read from the file at a time. Under V8's large-object size (128 KB),
 * so a piece's text is young garbage, collected at once: 1 MB pieces went to
 * the old space and stayed there until a full collection, which raised a
 * 342 MB scored file's peak memory by 280 MB and its load time by a third.
 */
const PIECE_BYTES = 64 * 1024;

/**
 * The text of a file, piece by piece: whole UTF-8 characters only (a
 * character cut at a piece's end waits for the next), bytes that are not
 * UTF-8 read as U+FFFD and reported once, naming the line (see `notUtf8`).
 */
export async function* textPieces(file: string, options: TextReadOptions): AsyncGenerator<string> {
  let carry = Buffer.alloc(0);
  let lines = 1;
  let reported = false;
  const decode = (bytes: Buffer): string => {
    const text = bytes.toString("utf8");
    if (!reported && !isUtf8(bytes)) {
      reported = true;
      notUtf8(file, lines + countLines(text.slice(0, text.indexOf("\uFFFD") + 1)), options);
    }
    lines += countLines(text);
    return text;
  };
  const stream = createReadStream(file, { highWaterMark: PIECE_BYTES });
  const chunks = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let first = true;
  try {
    for (;;) {
      // Only the reading is an error of opening the file (cannotRead); one of its text is its own.
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch (error) {
        throw cannotRead(file, error);
      }
      if (next.done === true) break;
      const chunk = next.value;
      if (first) {
        first = false;
        const utf16 = utf16Refusal(file, chunk);
        if (utf16 !== undefined) throw utf16;
      }
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      const cut = wholeCharacters(bytes);
      carry = Buffer.from(bytes.subarray(cut));
      if (cut > 0) yield decode(bytes.subarray(0, cut));
    }
  } finally {
    stream.destroy();
  }
  if (carry.length > 0) yield decode(carry);
}

function countLines(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) n++;
  return n;
}

/** Where the last, possibly unfinished, UTF-8 character of `bytes` starts (bytes.length when it is whole). */
function wholeCharacters(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

