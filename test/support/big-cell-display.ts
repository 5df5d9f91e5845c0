/**
 * A separate process for the big-cell display test: shows one row whose
 * answer is a ~28 MB cell as a text table ("text") or a notebook HTML table
 * ("html"), and prints what shows as JSON. Run it with a small heap
 * (--max-old-space-size) to see that a cell is not copied whole to show its start.
 *   node --require tsx/cjs test/support/big-cell-display.ts text|html
 */
import { formatTable } from "../../src/display/text-table";
import { tableHTML } from "../../src/display/table";

const how = process.argv[2];
const big = "The sky is blue.\n ".repeat(1_500_000);
const rows = [{ id: "q1", answer: `${big}the end`, score: 0.5 }];
if (how === "text") console.log(JSON.stringify({ line: formatTable(rows).split("\n")[2] }));
else if (how === "html") console.log(JSON.stringify({ html: tableHTML(rows) }));
else throw new Error("usage: big-cell-display text|html");
