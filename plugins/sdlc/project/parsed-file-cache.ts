import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { sluiceVersion } from '../../../core/index.ts';
import { readBounded } from '../../host-node/index.ts';

/** Entries are parsed state and artifact files, themselves capped; a FIFO or a huge file is a miss. */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/**
 * A content-addressed cache of parsed YAML data files, for the dashboard commands. Parsing YAML is most
 * of what `sluice status` costs; the same bytes always parse to the same value, so the value is kept as
 * JSON under the hash of the bytes (plus the sluice version and this format). The caller still validates
 * every value it gets back, hit or miss: the cache saves parsing, never checking.
 * `SLUICE_CACHE_DIR` moves it, `SLUICE_NO_CACHE=1` turns it off; any cache failure is a miss.
 */
const FORMAT = 1;
/** Entries beyond this many are removed oldest first, so the folder stays small. */
export const MAX_CACHE_ENTRIES = 200;

export function parseCacheDir(env: (name: string) => string | undefined): string | undefined {
  if (env('SLUICE_NO_CACHE') === '1') return undefined;
  const explicit = env('SLUICE_CACHE_DIR');
  if (explicit) return join(explicit, 'parsed');
  const base = env('XDG_CACHE_HOME') || (env('HOME') ? join(env('HOME')!, '.cache') : safeHome());
  return base ? join(base, 'sluice', 'parsed') : undefined;
}

function safeHome(): string | undefined {
  try {
    return join(homedir(), '.cache');
  } catch {
    return undefined;
  }
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

async function evictOldest(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  if (names.length <= MAX_CACHE_ENTRIES) return;
  const dated = await Promise.all(names.map(async (n) => ({ n, t: (await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })));
  dated.sort((a, b) => a.t - b.t);
  await Promise.all(dated.slice(0, names.length - MAX_CACHE_ENTRIES).map(({ n }) => rm(join(dir, n), { force: true })));
}

export interface CachedParse {
  value: unknown;
  hit: boolean;
}

/**
 * The parsed value of `text`: from the cache when these exact bytes were parsed before, else from
 * `parse` (whose errors propagate unchanged), stored for next time.
 */
export async function parseWithCache(dir: string | undefined, kind: string, text: string, parse: (text: string) => unknown): Promise<CachedParse> {
  if (dir === undefined) return { value: parse(text), hit: false };
  const key = createHash('sha256').update(`sluice ${sluiceVersion} cache ${FORMAT} ${kind}\0`).update(text).digest('hex');
  const file = join(dir, `${key}.json`);
  try {
    return { value: JSON.parse((await readBounded(file, MAX_ENTRY_BYTES)).toString()) as unknown, hit: true };
  } catch {
    // A missing or damaged entry is a miss.
  }
  const value = parse(text);
  if (jsonSafe(value)) {
    try {
      // Private to the user when this creates it; an existing folder's permissions are left alone.
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Temp file + rename: a reader sees a whole entry or none. No fsync: losing an entry costs a parse.
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(value), { mode: 0o600 });
      await rename(tmp, file);
      await evictOldest(dir);
    } catch {
      // The cache is an optimisation: a read-only or full disk only costs the next run a parse.
    }
  }
  return { value, hit: false };
}
