/**
 * Loading danfojs-node loads mathjs too (about 1 s of its 2.4 s), although
 * danfojs only calls it for a frame's or series' mean, median, mode, std and
 * variance, reading `mathjs.<function>` when it is called. So before danfojs
 * loads, mathjs's place in Node's module cache gets a stand-in that loads
 * the real module the first time anything of it is read.
 */
import Module from "node:module";
import * as path from "node:path";

/**
 * Puts a stand-in for module `name` (as `from`'s folder resolves it) in
 * Node's module cache, unless it is loaded already or cannot be found: the
 * real module loads the first time a property of it is read.
 */
export function deferModule(name: string, from: string): void {
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
    }
    return real;
  };
  const standIn = new Proxy(
    {},
    {
      get: (_target, key) => Reflect.get(load(), key),
      has: (_target, key) => Reflect.has(load(), key),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_target, key) => {
        const found = Reflect.getOwnPropertyDescriptor(load(), key);
        return found === undefined ? undefined : { ...found, configurable: true };
      },
    },
  );
  const cached = new Module(file);
  cached.filename = file;
  cached.loaded = true;
  cached.exports = standIn;
  require.cache[file] = cached;
}
