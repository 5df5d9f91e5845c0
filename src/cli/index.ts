/**
 * `evalframe/cli`: the command line as a function, for scripts and tests.
 *
 * @example
 * import { runCli } from "evalframe/cli";
 * const code = await runCli(["summarize", "out/scored.csv"]);
 */
export { runCli } from "./main";
export type { CliIO } from "./main";
