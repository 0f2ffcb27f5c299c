import * as nodeBuffer from 'node:buffer';
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
 * starts with the source's identity and is used only for exactly that source: the build id a bundle
 * ends with (`BUILD_ID_MARK`, a hash of the rest written by the build), else a copy of the whole
 * source (a byte comparison; hashing at run time would load node:crypto, which costs more).
 */
export interface CachedModule<T> {
  exports: T;
  /** Whether the bundle ran without a usable cache (then `saveCodeCache` is worth calling). */
  compiled: boolean;
  script: Script;
  source: Buffer;
}

/**
 * One wrapper for loading and for making the cache (V8 accepts a cache only for the same source). A
 * bundle may be written already wrapped, starting with exactly this (the CLI runner's build does):
 * it is then compiled as read. Wrapping the ~1 MB runner at run time copied it into a new string in
 * the young generation, which was a scavenge's worth of allocation in every command.
 */
export const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';
const wrap = (source: string) => (source.startsWith(WRAPPER_START) ? source : `${WRAPPER_START}${source}\n})`);

/** The last line of a bundle whose build wrote its id: `//# sluice-build=<hex>` (scripts/build-cli-cache.mjs). */
const BUILD_ID_MARK = '\n//# sluice-build=';

/** What a cache file must hold to be used for `source`: the line with its build id, or all of it. */
function identityOf(source: Buffer): Buffer {
  const at = source.lastIndexOf(BUILD_ID_MARK);
  const line = at < 0 ? undefined : source.subarray(at);
  return line && /^\n\/\/# sluice-build=[0-9a-f]{16,64}\n?$/.test(line.toString('latin1')) ? line : source;
}

/**
 * The text of an ASCII-only bundle (the CLI's build writes one) read as Latin-1: the same string, made
 * without UTF-8 decoding and stored one byte a character. `isAscii` is missing in older runtimes (Deno).
 */
const textOf = (source: Buffer): string =>
  typeof nodeBuffer.isAscii === 'function' && nodeBuffer.isAscii(source) ? source.toString('latin1') : source.toString('utf8');

export function loadCached<T>(file: string, cacheFile: string, req: NodeJS.Require): CachedModule<T> {
  const source = readFileSync(file);
  const cachedData = cacheFor(source, readOptional(cacheFile));
  const script = new Script(wrap(textOf(source)), { filename: file, cachedData });
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
    const identity = identityOf(loaded.source);
    const header = Buffer.alloc(8);
    header.writeUInt32LE(loaded.source.length, 0);
    header.writeUInt32LE(identity.length, 4);
    writeFileSync(tmp, Buffer.concat([header, identity, loaded.script.createCachedData()]));
    renameSync(tmp, cacheFile);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** The V8 data of a cache file (source length, identity length, identity, data) when it was made from `source`. */
function cacheFor(source: Buffer, cache: Buffer | undefined): Buffer | undefined {
  if (!cache || cache.length <= 8 || cache.readUInt32LE(0) !== source.length) return undefined;
  const identity = identityOf(source);
  const end = 8 + identity.length;
  if (cache.readUInt32LE(4) !== identity.length || cache.length <= end) return undefined;
  return cache.subarray(8, end).equals(identity) ? cache.subarray(end) : undefined;
}

function readOptional(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
