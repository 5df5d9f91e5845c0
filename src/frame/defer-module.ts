/**
 * Loading danfojs-node loads mathjs, xlsx and request too (about 1.5 s of its
 * 2.4 s), although danfojs uses them only for a few statistics (mean,
 * median, mode, std, variance), Excel files and CSV/JSON from URLs, reading
 * them when it calls them. So before danfojs loads, their places in Node's
 * module cache get stand-ins that load the real modules on first use.
 */
import Module from "node:module";
import * as path from "node:path";

/** Files of the modules whose stand-ins have not loaded them yet. */
const waiting = new Set<string>();

/**
 * The modules deferred and not loaded yet, as their resolved files.
 *
 * @example
 * toDataFrame({ a: [1] });
 * waitingModules().some((f) => f.includes("mathjs")); // true until danfojs asks mathjs for a statistic
 */
export function waitingModules(): string[] {
  return [...waiting];
}

/** What a stand-in may answer without loading its module. */
export interface DeferOptions {
  /** The module exports a function (the stand-in can be called). */
  callable?: boolean;
  /** The module is CommonJS without `__esModule`: the stand-in says so without loading it (TypeScript's import helpers ask). */
  commonJs?: boolean;
}

/**
 * Puts a stand-in for module `name` (as `from`'s folder resolves it) in
 * Node's module cache, unless it is loaded already or cannot be found: the
 * real module loads the first time a property of it is read (or, with
 * `callable`, when it is called).
 */
export function deferModule(name: string, from: string, options: DeferOptions = {}): void {
  let file: string;
  try {
    file = require.resolve(name, { paths: [path.dirname(from)] });
  } catch {
    return;
  }
  if (require.cache[file] !== undefined) return;
  let real: object | undefined;
  const load = (): object => {
    if (real === undefined) {
      delete require.cache[file];
      real = require(file) as object;
      waiting.delete(file);
    }
    return real;
  };
  // An arrow function when callable: it has no non-configurable own property the traps would have to report.
  const target = options.callable ? (): void => undefined : {};
  const standIn = new Proxy(target, {
    apply: (_target, self, args: unknown[]) => Reflect.apply(load() as (...a: unknown[]) => unknown, self, args),
    get: (_target, key) => (options.commonJs && key === "__esModule" && real === undefined ? undefined : Reflect.get(load(), key)),
    has: (_target, key) => Reflect.has(load(), key),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_target, key) => {
      const found = Reflect.getOwnPropertyDescriptor(load(), key);
      return found === undefined ? undefined : { ...found, configurable: true };
    },
  });
  const cached = new Module(file);
  cached.filename = file;
  cached.loaded = true;
  cached.exports = standIn;
  require.cache[file] = cached;
  waiting.add(file);
}
