/**
 * One string for a text repeated down a column of a large file: a model's
 * name on every row, a question and its reference on each model's row, how
 * each row was scored. Reading a scored file, every field is otherwise a
 * string of its own; a million rows of three models hold each question three
 * times, and each statements cell's scoring part (some 300 characters, the
 * same on every row of a run) a million times.
 */

/** Texts remembered per column before its memory is cleared: a bounded map, not a second index of the file. */
const REMEMBERED_PER_COLUMN = 1 << 17;
/** Fields of a column looked up between two checks of how often its texts repeat. */
const CHECK_EVERY = 4096;
/** Below this many repeats in {@link CHECK_EVERY} fields, a column is taken for one of unique texts (ids, answers) and no longer looked up. */
const FEW_REPEATS = CHECK_EVERY / 64;

/** What one column remembers. */
interface ColumnTexts {
  seen: Map<string, string>;
  looked: number;
  repeats: number;
  /** Unique texts: every field is copied, none looked up. */
  unique: boolean;
}

/**
 * Gives back, for each field, the string kept for the same text earlier in
 * its column when there is one, else the field made by `copy` (which is then
 * remembered). A column whose texts seldom repeat (fewer than 1 in 64 of a
 * stretch of 4,096 fields: ids, answers) stops being looked up, so it costs
 * what it did before; a column's memory is cleared at 131,072 texts.
 * Repeats are found where they come within that many rows of each other: a
 * file in the order of its questions (each model's answer next to the
 * others') shares each question text, not one sorted by model.
 *
 * @example
 * const repeated = new RepeatedFields(2, (s) => s);
 * const a = repeated.field(0, "gpt-4o");
 * repeated.field(0, "gpt-4o") === a; // true: the first string, kept once
 */
export class RepeatedFields {
  private readonly columns: ColumnTexts[];

  constructor(columns: number, private readonly copy: (text: string) => string) {
    this.columns = Array.from({ length: columns }, () => ({ seen: new Map<string, string>(), looked: 0, repeats: 0, unique: false }));
  }

  /** The string for `text` in column `at`: the one kept earlier, or a new copy. */
  field(at: number, text: string): string {
    const column = this.columns[at]!;
    if (column.unique) return this.copy(text);
    if (++column.looked === CHECK_EVERY) {
      if (column.repeats < FEW_REPEATS) {
        column.unique = true;
        column.seen.clear();
      }
      column.looked = 0;
      column.repeats = 0;
    }
    const kept = column.seen.get(text);
    if (kept !== undefined) {
      column.repeats++;
      return kept;
    }
    const copy = this.copy(text);
    if (column.seen.size >= REMEMBERED_PER_COLUMN) column.seen.clear();
    column.seen.set(copy, copy);
    return copy;
  }
}
