#!/usr/bin/env node
/**
 * `npm run build`: compiles src/ into a fresh folder and puts it in the place
 * of dist/ only when the compiler succeeds, so that dist/ never holds files
 * an older build left (a moved or deleted source's), and a build that fails
 * (a type error) leaves the last good dist/ in place, not an empty one.
 */
import { spawnSync } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const fresh = path.join(root, "dist.building");
const dist = path.join(root, "dist");
rmSync(fresh, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(root, "tsconfig.json"), "--outDir", fresh], { stdio: "inherit" });
if (tsc.status !== 0) {
  rmSync(fresh, { recursive: true, force: true });
  process.exit(tsc.status ?? 1);
}
// The old build is moved aside before the new one takes its name, then removed: dist/ is missing for a rename's time only.
const old = path.join(root, "dist.old");
rmSync(old, { recursive: true, force: true });
if (existsSync(dist)) renameSync(dist, old);
renameSync(fresh, dist);
rmSync(old, { recursive: true, force: true });
