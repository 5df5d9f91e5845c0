/**
 * A 28 MB text cell (a runaway answer, a pasted document) is shown in a
 * terminal table and a notebook table by its start: the process does not
 * copy, flatten or split the whole cell to show 48 columns or 300
 * characters of it, and a notebook's output (and saved file) holds a
 * bounded tooltip, not the cell. Real child processes with a 128 MB heap:
 * a display that copies the cell runs out of memory.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, it } from "node:test";
import { formatTable } from "../src/display/text-table";
import { tableHTML } from "../src/display/table";
import { RUN_TS } from "./support/run-ts";

function show(how: "text" | "html"): Record<string, string> {
  const script = path.join(__dirname, "support", "big-cell-display.ts");
  const run = spawnSync(process.execPath, ["--max-old-space-size=128", ...RUN_TS, script, how], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  assert.equal(run.status, 0, `the ${how} display failed with a 128 MB heap: ${run.stderr.slice(-400)}`);
  return JSON.parse(run.stdout) as Record<string, string>;
}

describe("a 28 MB cell on display", () => {
  it("a text table shows its start, cut with …, within a small heap", () => {
    assert.equal(show("text")["line"], "q1  The sky is blue. ⏎  The sky is blue. ⏎  The sky…    0.5");
  });

  it("a notebook table shows its first 300 characters and a tooltip of at most 5,000, within a small heap", () => {
    const html = show("html")["html"]!;
    assert.ok(html.length < 20_000, `${html.length} characters of HTML`);
    const title = /title="([^"]*)"/.exec(html)?.[1] ?? "";
    assert.match(title, /^The sky is blue\.\n The sky/);
    assert.match(title, /… \(first 5,000 characters\)$/);
    assert.match(html, />The sky is blue\.\n[^<]*…<\/td>/);
  });

  it("short and just-too-long cells show as before: the whole text, or its start with the whole text as the tooltip", () => {
    const long = "é".repeat(301);
    const html = tableHTML([{ a: "short", b: long, c: "😀".repeat(400) }]);
    assert.match(html, />short<\/td>/);
    assert.ok(html.includes(`title="${long}">${"é".repeat(300)}…</td>`));
    // Emoji are cut between characters, never inside one.
    assert.ok(html.includes(`>${"😀".repeat(300)}…</td>`));
    const line = formatTable([{ a: `${"😀".repeat(600)}` }], { maxWidth: 10 }).split("\n")[2]!;
    assert.equal(line, `${"😀".repeat(4)}…`);
  });
});
