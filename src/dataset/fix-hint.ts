/**
 * Errors whose fix is said twice: in the API's words for a notebook
 * ("pass { format: "csv" }") and in the command line's ("--format csv").
 * The library throws them; the CLI prints the second wording.
 */

/** An error that also carries its message in command-line words. */
export interface CliWorded {
  /** The same problem, its fix named by flags instead of options. */
  readonly cliMessage: string;
}

/**
 * An error stating a problem and how to fix it, with the fix in API words
 * (`message`) and in CLI words (`cliMessage`).
 *
 * @example
 * throw new FixableError(`cannot tell the format of "x.dat"`, { api: 'pass { format: "csv" }', cli: "give --format csv" });
 */
export class FixableError extends Error implements CliWorded {
  declare readonly cliMessage: string;
  /** The problem, without its fix. */
  declare private readonly problem: string;

  constructor(problem: string, fix: { api: string; cli: string }) {
    super(`${problem}; ${fix.api}`);
    this.name = "FixableError";
    // Not enumerable: a notebook prints an error with its own properties, and the same problem
    // in command-line words ("give --format csv") would follow the message there as noise.
    Object.defineProperty(this, "cliMessage", { value: `${problem}; ${fix.cli}`, enumerable: false, writable: true, configurable: true });
    Object.defineProperty(this, "problem", { value: problem, enumerable: false });
  }

  /**
   * The fix in API words said another way, for a caller that takes the
   * options by another path (`score` takes a load's under `load`): the
   * message, and the stack that prints it, say `api` instead.
   */
  withApiFix(api: string): this {
    const message = `${this.problem}; ${api}`;
    if (this.stack?.includes(this.message)) this.stack = this.stack.replace(this.message, message);
    this.message = message;
    return this;
  }
}

/** The message of an error for the command line: its CLI wording when it has one. */
export function cliMessageOf(error: unknown): string {
  if (error instanceof Error) {
    const worded = (error as Partial<CliWorded>).cliMessage;
    return typeof worded === "string" ? worded : error.message;
  }
  return String(error);
}
