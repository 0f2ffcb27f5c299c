import { join } from 'pathe';
import { HostNotFoundError, splitFrontmatter, type FileInfo, type Host } from '../../../core/index.ts';
import { specFile, type SpecFile } from './spec-backlog-types.ts';
import { parseFrontmatter } from './spec-frontmatter.ts';
import { openSpecScanCache, statStamp, type SpecScanCache } from './spec-scan-cache.ts';

/** Frontmatter sits at the top; most specs are read with one small read. */
const HEAD_BYTES = 8 * 1024;
/** A spec whose frontmatter does not close within this many bytes is reported, not read further. */
const MAX_SPEC_BYTES = 1024 * 1024;

const utf8 = new TextDecoder();

async function statOf(host: Host, path: string): Promise<FileInfo> {
  const info = await host.stat(path);
  if (!info) throw new HostNotFoundError(path);
  return info;
}

/**
 * Reads the head of a file, enough to hold its frontmatter: the first HEAD_BYTES, and up to
 * MAX_SPEC_BYTES only when the frontmatter does not close within them. Host.readHead opens without
 * blocking (a FIFO swapped in after the listing) and reads only a regular file.
 */
async function readHead(host: Host, path: string): Promise<{ text: string; info: FileInfo }> {
  const head = await host.readHead(path, HEAD_BYTES);
  const text = utf8.decode(head.data);
  if (head.data.byteLength < HEAD_BYTES || splitFrontmatter(text) !== null) return { text, info: head.info };
  const whole = await host.readHead(path, MAX_SPEC_BYTES);
  return { text: utf8.decode(whole.data), info: whole.info };
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
  return specFile(file, { spec, name: asText(d.name), status: asText(d.status), risk: asText(d.risk), channel: asText(d.channel) });
}

/**
 * Lists `<repo>/specs/*.md` (regular files only: a symlink could point anywhere), in name order. A
 * repo without specs/ has an empty backlog (`missing`), as in the reference.
 */
export async function listSpecFiles(host: Host, repo: string): Promise<{ dir: string; names: string[]; missing?: true }> {
  const dir = join(repo, 'specs');
  let entries;
  try {
    entries = await host.listDir(dir);
  } catch (error) {
    if (error instanceof HostNotFoundError) return { dir, names: [], missing: true };
    throw error;
  }
  return {
    dir,
    names: entries
      .filter((e) => e.kind === 'file' && e.name.endsWith('.md'))
      .map((e) => e.name)
      .sort(),
  };
}

/**
 * Reads the frontmatter of the named specs, one after another (unreadable content is recorded, never
 * thrown). With a cache, a file whose stamp is unchanged since the last scan costs one stat.
 */
export async function readSpecFiles(host: Host, dir: string, names: readonly string[], cache?: SpecScanCache): Promise<SpecFile[]> {
  const specs: SpecFile[] = [];
  // One after another: the Node host reads synchronously behind the port, so ten thousand small reads
  // in one loop beat ten thousand in flight at once.
  for (const name of names) {
    const file = `specs/${name}`;
    const path = `${dir}/${name}`; // a name from the listing: no separators to normalise
    try {
      if (cache?.has(name)) {
        const known = cache.lookup(name, statStamp(await statOf(host, path)));
        if (known) {
          specs.push(known);
          continue;
        }
      }
      const { text, info } = await readHead(host, path);
      const spec = readSpec(file, text);
      if (!spec.notSpec) cache?.remember(name, statStamp(info), spec);
      specs.push(spec);
    } catch (error) {
      specs.push({ file, error: `cannot read: ${(error as Error).message}` });
    }
  }
  return specs;
}

export interface ScanOptions {
  /** The parse cache folder (see parseCacheDir); without it every spec is read and parsed. */
  cacheDir?: string;
  /** The scan's clock (ms), which decides what is too recently changed to cache; tests move it. */
  now?: number;
}

/** Scans `<repo>/specs/*.md`: every frontmatter through a YAML parser. No `specs/` folder: no specs (`missing`). */
export async function scanSpecs(host: Host, repo: string, options: ScanOptions = {}): Promise<SpecFile[] & { missing?: true }> {
  const { dir, names, missing } = await listSpecFiles(host, repo);
  if (missing) return Object.assign([] as SpecFile[], { missing } as const);
  const cache = options.cacheDir === undefined ? undefined : await openSpecScanCache(host, options.cacheDir, dir, options.now);
  const specs = await readSpecFiles(host, dir, names, cache);
  await cache?.save();
  return specs;
}
