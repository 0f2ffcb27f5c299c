import { join, normalize } from 'pathe';
import { cacheFolder, sluiceVersion, type Host } from '../../../core/index.ts';

/**
 * sluice's one disk cache: JSON entries in a private folder (`SLUICE_CACHE_DIR`, else the user's cache
 * folder; `SLUICE_NO_CACHE=1` turns it off). Everything in it is untrusted and optional: a missing,
 * damaged or foreign entry is a miss, and a failed write only costs the next run its work. Entries
 * are Host.writePrivate files: owner-only (0700 folder, 0600 files), without fsync (losing one costs a parse).
 */

/** Entries are parsed files and scan indexes, themselves capped; a FIFO or a huge file is a miss. */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** The entry `name` in the cache folder `dir`, or undefined for anything that is not readable JSON. */
export async function readCacheEntry(host: Host, dir: string, name: string): Promise<unknown> {
  try {
    return JSON.parse(await host.readText(join(dir, name), { maxBytes: MAX_ENTRY_BYTES })) as unknown;
  } catch {
    return undefined;
  }
}

/** Writes an entry whole (temp file + rename: a reader sees all of it or none); false when it could not. */
export async function writeCacheEntry(host: Host, dir: string, name: string, value: unknown): Promise<boolean> {
  try {
    // Private to the user when this creates the folder; an existing folder's permissions are left alone.
    return await host.writePrivate(join(dir, name), JSON.stringify(value));
  } catch {
    return false;
  }
}

/**
 * Parsed YAML data files, for the dashboard commands and the frozen files every command reads. Parsing
 * YAML is most of what `sluice status` costs; the same bytes always parse to the same value, so each
 * file's entry keeps the bytes it was parsed from beside the value, and is used only when the file
 * holds exactly those bytes again (a string comparison). Entries are named by file, not by content: a
 * content hash meant loading node:crypto (~3 ms, a tenth of a repeated `gate`) for nothing the
 * comparison does not already prove. The caller still validates every value it gets back, hit or
 * miss: the cache saves parsing, never checking.
 */
const FORMAT = 2;
/** Entries beyond this many are removed oldest first, so the folder stays small. */
export const MAX_CACHE_ENTRIES = 200;

export function parseCacheDir(host: Pick<Host, 'env' | 'accountHome'>): string | undefined {
  if (host.env('SLUICE_NO_CACHE') === '1') return undefined;
  return normalize(
    cacheFolder(
      (name) => host.env(name),
      () => host.accountHome(),
    ).entries,
  );
}

/** Only plain JSON survives a round trip: `.inf`, `.nan` or exotic values are parsed every time instead. */
function jsonSafe(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(jsonSafe);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value as Record<string, unknown>).every(([k, v]) => k !== '__proto__' && jsonSafe(v));
  }
  return false;
}

async function evictOldest(host: Host, dir: string): Promise<void> {
  const names = (await host.listDir(dir)).map((e) => e.name).filter((n) => n.endsWith('.json'));
  if (names.length <= MAX_CACHE_ENTRIES) return;
  const dated = await Promise.all(names.map(async (n) => ({ n, t: (await host.stat(join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })));
  dated.sort((a, b) => a.t - b.t);
  await Promise.all(dated.slice(0, names.length - MAX_CACHE_ENTRIES).map(({ n }) => host.remove(join(dir, n)).catch(() => {})));
}

const MAX_CACHED_TEXT = 256 * 1024;

export interface CachedParse {
  value: unknown;
  hit: boolean;
}

/**
 * The entry's file name for one file read as `kind`: 64 bits from two 32-bit multiplicative hashes
 * (FNV-1a and one with another prime). Not for security: the entry names its file and bytes and is
 * checked on reading, so a collision is only a miss.
 */
export function cacheEntryName(kind: string, file: string): string {
  const key = `${kind}\0${file}`;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}.json`;
}

interface CacheEntry {
  format: number;
  sluice: string;
  kind: string;
  file: string;
  text: string;
  value: unknown;
}

/** Whether `cached` is this sluice's entry for `file` read as `kind` (its bytes still to be compared). */
function entryFor(cached: unknown, kind: string, file: string): cached is CacheEntry {
  const e = cached as Partial<CacheEntry> | null | undefined;
  return e?.file === file && e.kind === kind && e.format === FORMAT && e.sluice === sluiceVersion && typeof e.text === 'string' && Object.hasOwn(e, 'value');
}

/**
 * The parsed value of `text`, read from `file` as `kind`: from the cache when this file held exactly
 * these bytes the last time it was parsed, else from `parse` (whose errors propagate unchanged), stored
 * for next time.
 */
export async function parseWithCache(
  host: Host,
  dir: string | undefined,
  kind: string,
  file: string,
  text: string,
  parse: (text: string) => unknown,
): Promise<CachedParse> {
  // A long state.yaml is read without a syntax tree (history-block.ts), faster than its entry (the text and the value) is read back.
  if (dir === undefined || text.length > MAX_CACHED_TEXT) return { value: parse(text), hit: false };
  const name = cacheEntryName(kind, file);
  const cached = await readCacheEntry(host, dir, name);
  if (entryFor(cached, kind, file) && cached.text === text) return { value: cached.value, hit: true };
  const value = parse(text);
  const entry: CacheEntry = { format: FORMAT, sluice: sluiceVersion, kind, file, text, value };
  if (jsonSafe(value) && (await writeCacheEntry(host, dir, name, entry))) await evictOldest(host, dir).catch(() => {});
  return { value, hit: false };
}

export interface ForgedEntry {
  /** The file the entry stands for. */
  file: string;
  /** The entry, in the cache folder. */
  entry: string;
}

/**
 * The cache entries that would be used for these files now (same bytes) but hold a value their bytes
 * do not parse to: written by hand or by a program, since sluice only stores what it parsed. `sluice
 * audit` reports them, because gate and next would judge that value instead of the file.
 */
export async function forgedCacheEntries(
  host: Host,
  dir: string | undefined,
  files: readonly { kind: string; file: string; parse: (text: string) => unknown }[],
  readText: (file: string) => Promise<string | undefined>,
): Promise<ForgedEntry[]> {
  if (dir === undefined) return [];
  const forged: ForgedEntry[] = [];
  for (const { kind, file, parse } of files) {
    const name = cacheEntryName(kind, file);
    const cached = await readCacheEntry(host, dir, name);
    if (!entryFor(cached, kind, file)) continue;
    const text = await readText(file);
    if (text === undefined || cached.text !== text) continue;
    let fresh: unknown;
    try {
      fresh = parse(text);
    } catch {
      fresh = undefined;
    }
    if (JSON.stringify(fresh) !== JSON.stringify(cached.value)) forged.push({ file, entry: join(dir, name) });
  }
  return forged;
}
