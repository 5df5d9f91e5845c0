/**
 * An `id` given to different questions (`q1` is "What is 2+2?" for one model
 * and "Capital of France?" for another): every row is still scored, but the
 * comparisons pair answers by id, so they would set answers to different
 * questions side by side. Nothing is changed; the loader (and `evalframe
 * score`, `compare`) warns once, naming the first few rows.
 */
import { cellText, getColumn, rowAndLine, type Table } from "./table";
import { shortened } from "../display/words";

/** Rows named in the warning. */
const SHOWN = 3;

/** Characters of a question quoted in the warning. */
const QUOTED = 60;

/** A 32-bit FNV-1a digest of a text: an id's first question is remembered by it, not by its text. */
function digest(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A question as the warning quotes it: at most {@link QUOTED} characters. */
function quoted(text: string): string {
  return JSON.stringify(shortened(text, QUOTED));
}

/** Where an id was first seen (its file row, line and model), and the digest of its question there. */
interface FirstSeen {
  question: number;
  row: number;
  line: number | undefined;
  model: string | null;
}

/** "row 5 (line 7) (model "m1")", for the warning. */
function placeOf(row: number, line: number | undefined, model: string | null): string {
  return `${rowAndLine(row, line)}${model !== null && model !== "" ? ` (model ${JSON.stringify(model)})` : ""}`;
}

/**
 * Collects ids that name more than one question (`user_input`, spaces at its
 * ends and Unicode's composed or decomposed forms aside), over one table or the parts of a file read in parts.
 *
 * @example
 * const ids = new IdQuestions();
 * ids.note(table);
 * ids.warning("data.csv"); // "evalframe: data.csv: 1 id names different questions …", or undefined
 */
export class IdQuestions {
  private readonly first = new Map<string, FirstSeen>();
  private readonly clashing = new Set<string>();
  private readonly examples: string[] = [];

  /**
   * Notes a table's rows; `firstRow` is the file row of its first row, `lines` the line each row
   * starts on (default the table's own; a table of some rows of another names those rows).
   */
  note(table: Table, firstRow = 0, lines: readonly (number | undefined)[] | undefined = table.lines): void {
    const id = getColumn(table, "id");
    const question = getColumn(table, "user_input");
    if (!id || !question) return;
    const model = getColumn(table, "model");
    for (let i = 0; i < table.rowCount; i++) {
      const key = cellText(id.values[i]);
      // In composed form: the same question written decomposed ("Zu\u0308rich", by another tool) is the same question.
      const raw = cellText(question.values[i])?.trim();
      const text = raw !== undefined && /[^\x00-\x7F]/u.test(raw) ? raw.normalize("NFC") : raw;
      if (key === null || key === "" || text === undefined || text === "") continue;
      const row = firstRow + (table.sourceRows?.[i] ?? i);
      const m = model ? cellText(model.values[i]) : null;
      const seen = this.first.get(key);
      if (seen === undefined) {
        this.first.set(key, { question: digest(text), row, line: lines?.[i], model: m });
        continue;
      }
      if (seen.question === digest(text) || this.clashing.has(key)) continue;
      this.clashing.add(key);
      if (this.examples.length < SHOWN) {
        this.examples.push(`id ${JSON.stringify(key)} at ${placeOf(row, lines?.[i], m)} asks ${quoted(text)}, another question than at ${placeOf(seen.row, seen.line, seen.model)}`);
      }
    }
  }

  /** The one warning, or undefined when every id names one question. */
  warning(source: string): string | undefined {
    const n = this.clashing.size;
    if (n === 0) return undefined;
    const more = n > this.examples.length ? `; and ${n - this.examples.length} more` : "";
    return (
      `evalframe: ${source}: ${n} id${n === 1 ? " names" : "s name"} different questions in different rows, so comparisons, which pair answers by id, ` +
      `would set answers to different questions side by side (${this.examples.join("; ")}${more}); give each question its own id, the same for every model's answer to it ` +
      `(or pair by the question's text: --pair-by user_input)`
    );
  }
}
