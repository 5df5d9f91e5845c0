/**
 * Headless Chromium (Debian's `chromium`) for tests: opens an HTML file,
 * lets its scripts run, and returns the DOM they left (and a screenshot).
 * Pages report their own errors into the DOM, see {@link ERROR_PROBE}.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

/** Where Debian installs Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** Flags for a closed network: no background connections, no sandbox (root), no GPU. */
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"];

/**
 * A script for the top of a test page: records uncaught errors, rejected
 * promises, console.error calls and Content-Security-Policy violations in
 * `window.__errors`.
 */
export const ERROR_PROBE = `<script>
window.__errors = [];
document.addEventListener("securitypolicyviolation", (e) => window.__errors.push("csp: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline code")));
window.addEventListener("error", (e) => window.__errors.push("error: " + (e.message || e.type)));
window.addEventListener("unhandledrejection", (e) => window.__errors.push("rejection: " + (e.reason && e.reason.message || e.reason)));
const __consoleError = console.error.bind(console);
console.error = (...args) => { window.__errors.push("console.error: " + args.map(String).join(" ")); __consoleError(...args); };
</script>`;

/** How {@link dumpDom} opens the page. */
export interface DumpOptions {
  /** The window, "width,height" (default Chromium's own; its page area is smaller by the browser's bars). */
  windowSize?: string;
}

/** Runs Chromium on a local HTML file and returns the DOM after its scripts ran. */
export function dumpDom(file: string, budgetMs = 20_000, options: DumpOptions = {}): string {
  const profile = mkdtempSync(path.join(tmpdir(), "evalframe-chromium-"));
  const extra = options.windowSize ? [`--window-size=${options.windowSize}`] : [];
  try {
    const result = spawnSync(CHROMIUM, [...FLAGS, ...extra, `--user-data-dir=${profile}`, `--virtual-time-budget=${budgetMs}`, "--dump-dom", pathToFileURL(file).toString()], {
      encoding: "utf8",
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.status !== 0) throw new Error(`chromium failed (${result.status}): ${result.stderr.slice(-2000)}`);
    return result.stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Takes a screenshot of a local HTML file. */
export function screenshot(file: string, out: string, size = "1280,4000", budgetMs = 20_000): void {
  const profile = mkdtempSync(path.join(tmpdir(), "evalframe-chromium-"));
  try {
    const result = spawnSync(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, `--virtual-time-budget=${budgetMs}`, `--window-size=${size}`, `--screenshot=${out}`, pathToFileURL(file).toString()], {
      encoding: "utf8",
      timeout: 120_000,
    });
    if (result.status !== 0) throw new Error(`chromium screenshot failed (${result.status}): ${result.stderr.slice(-2000)}`);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The JSON a test page wrote into `<pre id="result">`. */
export function pageResult<T>(dom: string): T {
  const match = /<pre id="result">([\s\S]*?)<\/pre>/.exec(dom);
  if (!match) throw new Error(`the page wrote no result; DOM starts: ${dom.slice(0, 500)}`);
  const text = match[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  return JSON.parse(text) as T;
}
