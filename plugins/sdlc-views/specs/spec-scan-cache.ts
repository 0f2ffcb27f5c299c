import * as v from 'valibot';
import { sha256Hex, sluiceVersion, type FileInfo, type Host } from '../../../core/index.ts';
import { readCacheEntry, writeCacheEntry } from '../../sdlc/index.ts';
import { specFile, type SpecFile } from './spec-backlog-types.ts';

/**
 * What a scan of one `specs/` folder read, per file, keyed by the file's identity and change stamps
 * (inode, size, mtime, ctime), the way git's index and ESLint's cache decide a file is unchanged.
 * A 10,000-spec backlog is then one stat per file instead of a read and a YAML parse. Everything
 * in the cache is untrusted: a damaged or foreign file is a miss, never an error.
 */
const FORMAT = 2;
/**
 * A file changed within this long before the scan could change again inside the same timestamp tick
 * with the same size ("racily clean", in git's words): it is read every time until it is older.
 */
const RACY_MS = 2000;

const Text = v.nullable(v.string());
/** One spec: its stamp `ino:size:mtimeMs:ctimeMs`, then spec, name, status, risk, error and channel (null when absent). Flat, because 10,000 of these are parsed and checked per scan. */
const CachedSpecSchema = v.tuple([v.string(), Text, Text, Text, Text, Text, Text]);
/** The cache file; entries are checked one by one as they are looked up. */
const ScanCacheSchema = v.object({
  format: v.literal(FORMAT),
  sluice: v.literal(sluiceVersion),
  dir: v.string(),
  files: v.record(v.string(), v.unknown()),
});
type CachedSpec = v.InferOutput<typeof CachedSpecSchema>;
type Stamp = string;

/** A host without inodes or change times stamps by size and mtime alone. */
export const statStamp = (s: FileInfo): Stamp => `${s.ino ?? ''}:${s.size}:${s.mtimeMs}:${s.ctimeMs ?? s.mtimeMs}`;
const changedAt = (s: Stamp) => Math.max(...s.split(':').slice(2).map(Number));

const toCached = (stamp: Stamp, f: SpecFile): CachedSpec => [
  stamp,
  f.spec ?? null,
  f.name ?? null,
  f.status ?? null,
  f.risk ?? null,
  f.error ?? null,
  f.channel ?? null,
];
const fromCached = (name: string, [, spec, title, status, risk, error, channel]: CachedSpec): SpecFile =>
  specFile(`specs/${name}`, { spec, name: title, status, risk, channel, error });

export interface SpecScanCache {
  /** Whether the last scan kept an entry for this file (only then is its stamp worth a stat). */
  has(name: string): boolean;
  /** The spec as last read, when the file's stamp is unchanged. */
  lookup(name: string, stamp: Stamp): SpecFile | undefined;
  /** Records what was read now; settled files (not changed within RACY_MS) are kept for next time. */
  remember(name: string, stamp: Stamp, spec: SpecFile): void;
  /** Writes the cache when it changed (temp file + rename; failures only cost the next run its reads). */
  save(): Promise<void>;
}

/** The cache for the spec folder `dir` (absolute): one entry of the disk cache in `cacheDir`. */
export async function openSpecScanCache(host: Host, cacheDir: string, dir: string, now = host.now().getTime()): Promise<SpecScanCache> {
  const entry = `specs-${sha256Hex(dir).slice(0, 32)}.json`;
  const parsed = v.safeParse(ScanCacheSchema, await readCacheEntry(host, cacheDir, entry));
  const before = parsed.success && parsed.output.dir === dir ? parsed.output.files : {};
  const after: Record<string, CachedSpec> = Object.create(null);
  let changed = false;
  return {
    has: (name) => Object.hasOwn(before, name),
    lookup(name, stamp) {
      const hit = Object.hasOwn(before, name) ? before[name] : undefined;
      if (!v.is(CachedSpecSchema, hit) || hit[0] !== stamp) return undefined;
      after[name] = hit;
      return fromCached(name, hit);
    },
    remember(name, stamp, spec) {
      if (now - changedAt(stamp) < RACY_MS) return;
      after[name] = toCached(stamp, spec);
      changed = true;
    },
    async save() {
      // Entries of deleted files go too; a scan that only hit what it had writes nothing.
      if (!changed && Object.keys(after).length === Object.keys(before).length) return;
      // A read-only or full disk: the next scan reads the files again.
      await writeCacheEntry(host, cacheDir, entry, { format: FORMAT, sluice: sluiceVersion, dir, files: after });
    },
  };
}
