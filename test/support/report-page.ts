/** Opening evalframe's HTML report in a test browser: its chart ids, its own status, a probed copy. */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { escapeHtml } from "../../src/display/html";
import { scriptHash } from "../../src/report/page";
import { ERROR_PROBE } from "./browser";

/** Chart container ids in the page. */
export function chartIds(html: string): string[] {
  return [...html.matchAll(/<div class="chart" id="([^"]+)"/g)].map((m) => m[1]!);
}

/** The status the report's own script left: charts drawn and failed. */
export function reportStatus(dom: string): { drawn: string[]; failed: string[] } {
  const match = /<pre id="evalframe-status"[^>]*data-done="true"[^>]*>([^<]*)<\/pre>/.exec(dom);
  assert.ok(match, "the report's script finished");
  return JSON.parse(match[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")) as { drawn: string[]; failed: string[] };
}

/**
 * A copy of the report for the browser, with the error probe (and an alert
 * trap) at the top of <head>, before the page's Content-Security-Policy, and,
 * at the end, a script that copies the recorded errors into
 * <pre id="result"> once the report's script is done. The page lets only its
 * own scripts run (by hash), so the hash of that last script is added to the
 * policy.
 */
export function probedCopy(html: string, file: string): void {
  const trap = `<script>window.alert = (m) => window.__errors.push("alert: " + m);</script>`;
  const code = `
(function wait() {
  const status = document.getElementById("evalframe-status");
  if (status && status.getAttribute("data-done") === "true") document.getElementById("result").textContent = JSON.stringify({ errors: window.__errors });
  else setTimeout(wait, 50);
})();
`;
  const collect = `<pre id="result"></pre><script>${code}</script>`;
  const head = html.indexOf("<head>");
  const end = html.lastIndexOf("</body>");
  assert.ok(head >= 0 && end > head);
  const page = html.slice(0, head + 6) + ERROR_PROBE + trap + html.slice(head + 6, end) + collect + html.slice(end);
  const policy = /(<meta http-equiv="Content-Security-Policy" content="[^"]*?script-src )/;
  assert.match(page, policy, "the report has a script-src policy");
  writeFileSync(file, page.replace(policy, `$1${escapeHtml(scriptHash(code))} `));
}
