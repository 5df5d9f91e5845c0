/**
 * Values of `id` or `model` that differ from another only by spaces at their
 * start or end ("m1" and "m1 ", a spreadsheet artefact): they print the same
 * in every table but are separate models or questions. Nothing is changed;
 * the loader warns once, naming the first few rows.
 */
import { cellText, getColumn, rowAndLine, type Table } from "./table";

/** The columns whose values group and pair rows. */
const KEY_COLUMNS = ["id", "model"] as const;

/** Rows named in the warning. */
const SHOWN = 3;

/** Collects `id`/`model` values that print alike, over one table or the parts of a file read in parts. */
export class PaddedKeys {
  private readonly seen = new Map<string, Map<string, string>>(KEY_COLUMNS.map((c) => [c, new Map()]));
  private readonly clashes = new Map<string, Set<string>>(KEY_COLUMNS.map((c) => [c, new Set()]));
  private readonly examples: string[] = [];

  /** Notes a table's values; `firstRow` is the file row of its first row, `lines` the line each row starts on. */
  note(table: Table, firstRow = 0, lines?: readonly (number | undefined)[]): void {
    for (const name of KEY_COLUMNS) {
      const column = getColumn(table, name);
      if (!column) continue;
      const seen = this.seen.get(name)!;
      const clashes = this.clashes.get(name)!;
      column.values.forEach((cell, i) => {
        const value = cellText(cell);
        if (value === null || value === "") return;
        const trimmed = value.trim();
        const before = seen.get(trimmed);
        if (before === undefined) {
          seen.set(trimmed, value);
          return;
        }
        if (before === value || clashes.has(value)) return;
        clashes.add(value);
        if (this.examples.length < SHOWN) {
          // The value with spaces is the one that "prints as" the other: "q5 " prints as "q5", whichever came first.
          const at = rowAndLine(firstRow + i, lines?.[i]);
          this.examples.push(
            value === trimmed && before !== trimmed
              ? `${name} ${JSON.stringify(before)} (an earlier row) prints as ${JSON.stringify(value)} at ${at}`
              : `${name} ${JSON.stringify(value)} at ${at} prints as ${JSON.stringify(before)}`,
          );
        }
      });
    }
  }

  /** The one warning, or undefined when no two values print alike. */
  warning(source: string): string | undefined {
    const counts = KEY_COLUMNS.map((c) => [c, this.clashes.get(c)!.size] as const).filter(([, n]) => n > 0);
    if (counts.length === 0) return undefined;
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    const what = counts.map(([c, n]) => `${n} ${c} value${n === 1 ? "" : "s"}`).join(" and ");
    const more = total > this.examples.length ? `; and ${total - this.examples.length} more` : "";
    return (
      `evalframe: ${source}: ${what} ${total === 1 ? "differs" : "differ"} from another only by spaces at the start or end, so they print the same but count as different ` +
      `(${this.examples.join("; ")}${more}); remove the spaces in the file if they are the same`
    );
  }
}
