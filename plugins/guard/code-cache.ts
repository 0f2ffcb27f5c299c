import { createHash } from 'node:crypto';
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
 * starts with the SHA-256 of the source it was made from, and is used only for that source.
 */
export interface CachedModule<T> {
  exports: T;
  /** Whether the bundle ran without a usable cache (then `saveCodeCache` is worth calling). */
  compiled: boolean;
  script: Script;
  sourceHash: Buffer;
}

const HASH_BYTES = 32;

// One wrapper for loading and for making the cache: V8 accepts a cache only for the same source.
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;

export function loadCached<T>(file: string, cacheFile: string, req: NodeJS.Require): CachedModule<T> {
  const source = readFileSync(file);
  const sourceHash = createHash('sha256').update(source).digest();
  const cache = readOptional(cacheFile);
  const cachedData = cache && cache.length > HASH_BYTES && cache.subarray(0, HASH_BYTES).equals(sourceHash) ? cache.subarray(HASH_BYTES) : undefined;
  const script = new Script(wrap(source.toString('utf8')), { filename: file, cachedData });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, req, module, file, file.replace(/[\\/][^\\/]*$/, ''));
  return { exports: module.exports, compiled: cachedData === undefined || script.cachedDataRejected === true, script, sourceHash };
}

/**
 * Writes the cache of everything the script has compiled so far (call it after the bundle did its
 * work, so the functions that work needed are in it). Written whole or not at all; a folder that
 * cannot be written (a read-only install) only leaves the next run as slow as this one.
 */
export function saveCodeCache(loaded: CachedModule<unknown>, cacheFile: string): boolean {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([loaded.sourceHash, loaded.script.createCachedData()]));
    renameSync(tmp, cacheFile);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

function readOptional(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
