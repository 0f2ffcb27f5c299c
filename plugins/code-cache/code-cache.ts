import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Script } from 'node:vm';

/**
 * Runs a CommonJS bundle the way `require` would, but through V8's code cache (Node 20 has no
 * compile cache for `require`): with a cache made by the same Node, compiling the guard's shell
 * parser becomes reading its bytecode, which is most of its start-up cost. A cache V8 rejects
 * (another Node version, other V8 flags) or a missing one costs only speed: the source is compiled
 * as usual. The cache sits beside the bundle and is exactly as trusted as the bundle's own code.
 *
 * V8 checks little more than the source's LENGTH before running cached bytecode, so a cache left
 * from another build of the same length would run that build's code. Each cache file therefore
 * starts with a copy of the source it was made from and is used only for exactly that source (a
 * byte comparison; a hash would load node:crypto, which costs more than the comparison).
 */
export interface CachedModule<T> {
  exports: T;
  /** Whether the bundle ran without a usable cache (then `saveCodeCache` is worth calling). */
  compiled: boolean;
  script: Script;
  source: Buffer;
}

// One wrapper for loading and for making the cache: V8 accepts a cache only for the same source.
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;

export function loadCached<T>(file: string, cacheFile: string, req: NodeJS.Require): CachedModule<T> {
  const source = readFileSync(file);
  const cachedData = cacheFor(source, readOptional(cacheFile));
  const script = new Script(wrap(source.toString('utf8')), { filename: file, cachedData });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, req, module, file, file.replace(/[\\/][^\\/]*$/, ''));
  return { exports: module.exports, compiled: cachedData === undefined || script.cachedDataRejected === true, script, source };
}

/**
 * Writes the cache of everything the script has compiled so far (call it after the bundle did its
 * work, so the functions that work needed are in it). Written whole or not at all; a folder that
 * cannot be written (a read-only install) only leaves the next run as slow as this one.
 */
export function saveCodeCache(loaded: CachedModule<unknown>, cacheFile: string): boolean {
  // Deno runs the bundle too (its node:vm), but what it writes is no cache Node accepts: keep Node's.
  if ('Deno' in globalThis) return false;
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    const length = Buffer.alloc(4);
    length.writeUInt32LE(loaded.source.length);
    writeFileSync(tmp, Buffer.concat([length, loaded.source, loaded.script.createCachedData()]));
    renameSync(tmp, cacheFile);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** The V8 data of a cache file (length, source copy, data) when it was made from `source`. */
function cacheFor(source: Buffer, cache: Buffer | undefined): Buffer | undefined {
  if (!cache || cache.length <= 4 + source.length || cache.readUInt32LE(0) !== source.length) return undefined;
  return cache.subarray(4, 4 + source.length).equals(source) ? cache.subarray(4 + source.length) : undefined;
}

function readOptional(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
