import { join } from 'pathe';
import { sluiceVersion, type Host } from '../../../core/index.ts';

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
 * YAML is most of what `sluice status` costs; the same bytes always parse to the same value, so the
 * value is kept under the hash of the bytes (plus the sluice version and this format). The caller still
 * validates every value it gets back, hit or miss: the cache saves parsing, never checking.
 */
const FORMAT = 1;
/** Entries beyond this many are removed oldest first, so the folder stays small. */
export const MAX_CACHE_ENTRIES = 200;

export function parseCacheDir(host: Pick<Host, 'env' | 'accountHome'>): string | undefined {
  const env = (name: string) => host.env(name);
  if (env('SLUICE_NO_CACHE') === '1') return undefined;
  const explicit = env('SLUICE_CACHE_DIR');
  if (explicit) return join(explicit, 'parsed');
  const base = env('XDG_CACHE_HOME') || join(env('HOME') || host.accountHome(), '.cache');
  return join(base, 'sluice', 'parsed');
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

export interface CachedParse {
  value: unknown;
  hit: boolean;
}

/**
 * The parsed value of `text`: from the cache when these exact bytes were parsed before, else from
 * `parse` (whose errors propagate unchanged), stored for next time. The key is hashed by the host
 * (natively on Node): core's portable sha256Hex runs as plain JavaScript, cold in a short command, and
 * was ~8 ms of a repeated `gate` (state, profile and registry hashed on every run).
 */
export async function parseWithCache(host: Host, dir: string | undefined, kind: string, text: string, parse: (text: string) => unknown): Promise<CachedParse> {
  if (dir === undefined) return { value: parse(text), hit: false };
  const key = host.sha256(`sluice ${sluiceVersion} cache ${FORMAT} ${kind}\0${text}`);
  const name = `${key}.json`;
  const cached = await readCacheEntry(host, dir, name);
  if (cached !== undefined) return { value: cached, hit: true };
  const value = parse(text);
  if (jsonSafe(value) && (await writeCacheEntry(host, dir, name, value))) await evictOldest(host, dir).catch(() => {});
  return { value, hit: false };
}
