import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync, type Stats } from 'node:fs';
import { join } from 'pathe';
import { splitFrontmatter } from '../../../core/index.ts';
import { OPEN_READ_FLAGS, requireRegular } from '../../host-node/index.ts';
import { specFile, type SpecFile } from './spec-backlog-types.ts';
import { parseFrontmatter } from './spec-frontmatter.ts';
import { openSpecScanCache, statStamp, type SpecScanCache } from './spec-scan-cache.ts';

/** Frontmatter sits at the top; most specs are read with one small read. */
const HEAD_BYTES = 8 * 1024;
/** A spec whose frontmatter does not close within this many bytes is reported, not read further. */
const MAX_SPEC_BYTES = 1024 * 1024;

/**
 * Reads the head of a file, enough to hold its frontmatter. Synchronous on purpose: ten thousand
 * tiny reads finish faster in one loop than as ten thousand promises on the libuv pool.
 */
function readHead(path: string, buffer: Buffer): { text: string; stats: Stats } {
  // Without blocking (a FIFO swapped in after the listing), and only a regular file is read.
  const fd = openSync(path, OPEN_READ_FLAGS);
  try {
    const stats = fstatSync(fd);
    requireRegular(path, stats);
    let n = readSync(fd, buffer, 0, buffer.length, 0);
    let text = buffer.toString('utf8', 0, n);
    if (n < buffer.length || splitFrontmatter(text) !== null) return { text, stats };
    const size = Math.min(stats.size, MAX_SPEC_BYTES);
    const big = Buffer.allocUnsafe(size);
    n = readSync(fd, big, 0, size, 0);
    text = big.toString('utf8', 0, n);
    return { text, stats };
  } finally {
    closeSync(fd);
  }
}

const asText = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
};

/** Reads one spec's frontmatter into a SpecFile (never throws for bad content: the error is recorded). */
export function readSpec(file: string, text: string): SpecFile {
  const parsed = parseFrontmatter(text);
  const base = file.slice(file.lastIndexOf('/') + 1);
  // The reference skips files without frontmatter; one not named like a spec is a README or an index.
  if (!parsed.ok && splitFrontmatter(text) === undefined && !/^\d+-/.test(base)) return { file, notSpec: true };
  if (!parsed.ok) return { file, error: parsed.message };
  const d = parsed.data;
  let spec = asText(d.spec);
  // `spec: 0007` is the integer 7 in YAML; the file name keeps the zero padding the author meant.
  const prefix = /^(\d+)-/.exec(file.slice(file.lastIndexOf('/') + 1))?.[1];
  if (typeof d.spec === 'number' && prefix !== undefined && Number(prefix) === d.spec) spec = prefix;
  return specFile(file, { spec, name: asText(d.name), status: asText(d.status), risk: asText(d.risk) });
}

/**
 * Lists `<repo>/specs/*.md` (regular files only: a symlink could point anywhere), in name order. A
 * repo without specs/ has an empty backlog (`missing`), as in the reference.
 */
export function listSpecFiles(repo: string): { dir: string; names: string[]; missing?: true } {
  const dir = join(repo, 'specs');
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { dir, names: [], missing: true };
    throw error;
  }
  return {
    dir,
    names: entries
      .filter((e) => e.isFile() && e.name.endsWith('.md'))
      .map((e) => e.name)
      .sort(),
  };
}

/**
 * Reads the frontmatter of the named specs, one after another (unreadable content is recorded, never
 * thrown). With a cache, a file whose stamp is unchanged since the last scan costs one stat.
 */
export function readSpecFiles(dir: string, names: readonly string[], cache?: SpecScanCache): SpecFile[] {
  const buffer = Buffer.allocUnsafe(HEAD_BYTES);
  return names.map((name) => {
    const file = `specs/${name}`;
    const path = `${dir}/${name}`; // a name from readdir: no separators to normalise
    try {
      const known = cache?.lookup(name, () => statStamp(statSync(path)));
      if (known) return known;
      const { text, stats } = readHead(path, buffer);
      const spec = readSpec(file, text);
      if (!spec.notSpec) cache?.remember(name, statStamp(stats), spec);
      return spec;
    } catch (error) {
      return { file, error: `cannot read: ${(error as Error).message}` };
    }
  });
}

export interface ScanOptions {
  /** The parse cache folder (see parseCacheDir); without it every spec is read and parsed. */
  cacheDir?: string;
  /** The scan's clock (ms), which decides what is too recently changed to cache; tests move it. */
  now?: number;
}

/** Scans `<repo>/specs/*.md`: every frontmatter through a YAML parser. No `specs/` folder: no specs (`missing`). */
export function scanSpecs(repo: string, options: ScanOptions = {}): SpecFile[] & { missing?: true } {
  const { dir, names, missing } = listSpecFiles(repo);
  if (missing) return Object.assign([] as SpecFile[], { missing } as const);
  const cache = options.cacheDir === undefined ? undefined : openSpecScanCache(options.cacheDir, dir, options.now);
  const specs = readSpecFiles(dir, names, cache);
  cache?.save();
  return specs;
}
