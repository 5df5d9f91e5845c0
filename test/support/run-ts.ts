/**
 * The node arguments that run a TypeScript file in a child process: tsx's
 * CommonJS hook, by its path in this repository, so that the child finds it
 * whatever its working directory. It starts in 0.25 s of CPU against 0.6 s
 * for `--import tsx`, which also registers tsx's ES-module loader (nothing
 * here needs it: the package is CommonJS, and the ES-module packages it
 * imports are JavaScript).
 *
 * @example
 * spawn(process.execPath, [...RUN_TS, "test/support/judge-worker.ts", url]);
 */
export const RUN_TS: readonly string[] = ["--require", require.resolve("tsx/cjs")];
