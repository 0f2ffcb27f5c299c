import { dirname, join, normalize } from 'pathe';
import { sha256Hex } from '../hash/sha256-hex.ts';
import { plainYaml } from '../store/plain-yaml.ts';
import { useYamlOf } from '../store/yaml-library.ts';
import { compareText } from '../text/compare-text.ts';
import { HostNotFoundError, HostTooLargeError, type DirEntry, type FileInfo, type FileWriter, type Host, type SpawnOptions, type SpawnResult } from './host.ts';

export interface MemoryHostOptions {
  cwd?: string;
  pid?: number;
  env?: Record<string, string>;
  files?: Record<string, string>;
  /** A fixed or moving clock; defaults to real time. */
  now?: () => Date;
  spawn?: (options: SpawnOptions) => Promise<SpawnResult>;
  interactive?: boolean;
  /** Modules `importModule` can return, by specifier. */
  modules?: Record<string, Record<string, unknown>>;
  /** Where `asset()` says sluice's shipped files are (seed them with `files`); default `/sluice`. */
  assetRoot?: string;
  /** Permission bits of seeded files (default 0o644): `{ '/bin/tool': 0o755 }` makes an executable. */
  modes?: Record<string, number>;
  /** `accountHome()`; default `/home/user`. */
  home?: string;
  /** `userId()`, the owner of every file; default 1000. */
  uid?: number;
  /** What `readStdin` returns; default empty. */
  stdin?: string;
}

export interface MemoryHost extends Host {
  /** Pids that `processAlive` reports as running (the host's own pid is always alive). */
  readonly livePids: Set<number>;
  /** Snapshot of every file, for assertions. */
  files(): Record<string, string>;
  /** Count of writeAtomic calls per path, for asserting that nothing was written. */
  writes(path: string): number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

/** A Host that keeps files in memory: for unit tests of core code, no disk and no processes. */
export function createMemoryHost(options: MemoryHostOptions = {}): MemoryHost {
  const cwd = options.cwd ?? '/project';
  const pid = options.pid ?? 4242;
  const env = { ...options.env };
  const files = new Map<string, { data: Uint8Array; mtimeMs: number; mode: number; ino: number }>();
  let lastIno = 0;
  const uid = options.uid ?? 1000;
  let tempSeq = 0;
  const dirs = new Set<string>(['/']);
  const writeCounts = new Map<string, number>();
  const livePids = new Set<number>([pid]);
  const clock = options.now ?? (() => new Date());

  const abs = (p: string) => normalize(p.startsWith('/') ? p : join(cwd, p));
  const ensureDir = (p: string) => {
    for (let d = p; !dirs.has(d); d = dirname(d)) dirs.add(d);
  };
  const requireParent = (p: string) => {
    if (!dirs.has(dirname(p))) throw new HostNotFoundError(dirname(p));
  };
  // A rewrite keeps the file's mode, as writeAtomic does on disk.
  const put = (p: string, data: string | Uint8Array, mode = files.get(p)?.mode ?? 0o644) => {
    // A new inode per write, as a write through a temp file and a rename gives on disk.
    files.set(p, { data: typeof data === 'string' ? encoder.encode(data) : data, mtimeMs: clock().getTime(), mode, ino: ++lastIno });
  };
  const get = (p: string, maxBytes?: number) => {
    const file = files.get(abs(p));
    if (!file) throw new HostNotFoundError(abs(p));
    if (maxBytes !== undefined && file.data.byteLength > maxBytes) throw new HostTooLargeError(abs(p), file.data.byteLength, maxBytes);
    return file.data;
  };

  for (const [path, text] of Object.entries(options.files ?? {})) {
    ensureDir(dirname(abs(path)));
    put(abs(path), text, options.modes?.[abs(path)]);
  }

  const host: MemoryHost = {
    name: 'memory',
    pid,
    livePids,
    hostname: () => 'memory-host',
    asset: (...parts) => join(options.assetRoot ?? '/sluice', ...parts),
    sha256: sha256Hex,
    yaml: plainYaml,
    async execRegExp(source, flags, text) {
      const m = new RegExp(source, flags.replace(/[gy]/g, '')).exec(text);
      return m ? { groups: [...m], named: { ...m.groups } } : null;
    },
    cwd: () => cwd,
    now: clock,
    env: (name) => env[name],
    envAll: () => ({ ...env }),
    accountHome: () => options.home ?? '/home/user',
    userId: () => uid,
    async readText(p, o) {
      return decoder.decode(get(p, o?.maxBytes));
    },
    async readBytes(p, o) {
      return get(p, o?.maxBytes).slice();
    },
    async readHead(p, maxBytes) {
      const data = get(p).slice(0, maxBytes);
      return { data, info: (await host.stat(p))! };
    },
    async writeAtomic(p, data) {
      const path = abs(p);
      requireParent(path);
      put(path, data);
      writeCounts.set(path, (writeCounts.get(path) ?? 0) + 1);
    },
    async writeExclusive(p, data) {
      const path = abs(p);
      requireParent(path);
      if (files.has(path)) return false;
      put(path, data);
      return true;
    },
    async writePrivate(p, data, o) {
      const path = abs(p);
      if (o?.exclusive && files.has(path)) return false;
      ensureDir(dirname(path));
      put(path, data, 0o600);
      return true;
    },
    async createHeld(p, data) {
      const path = abs(p);
      requireParent(path);
      if (files.has(path)) return null;
      put(path, data);
      const entry = files.get(path)!;
      return {
        async removeIfOwn() {
          if (files.get(path) === entry) files.delete(path);
        },
        async rewrite(data) {
          if (files.get(path) !== entry) return false;
          // The same entry, as the same inode on disk: identity survives the rewrite.
          entry.data = encoder.encode(data);
          entry.mtimeMs = clock().getTime();
          return true;
        },
      };
    },
    async openWriter(p, o): Promise<FileWriter> {
      const path = abs(p);
      requireParent(path);
      if (!o?.append || !files.has(path)) put(path, '');
      return {
        write(chunk) {
          const prev = files.get(path)?.data ?? new Uint8Array();
          const add = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
          const next = new Uint8Array(prev.byteLength + add.byteLength);
          next.set(prev);
          next.set(add, prev.byteLength);
          put(path, next);
        },
        async close() {},
      };
    },
    async stat(p): Promise<FileInfo | null> {
      const path = abs(p);
      const file = files.get(path);
      if (file) return { kind: 'file', size: file.data.byteLength, mtimeMs: file.mtimeMs, ctimeMs: file.mtimeMs, ino: file.ino, mode: file.mode, uid };
      return dirs.has(path) ? { kind: 'dir', size: 0, mtimeMs: 0, mode: 0o755, uid } : null;
    },
    lstat(p) {
      return host.stat(p);
    },
    async realpath(p) {
      const path = abs(p);
      if (!files.has(path) && !dirs.has(path)) throw new HostNotFoundError(path);
      return path;
    },
    async listDir(p): Promise<DirEntry[]> {
      const path = abs(p);
      if (!dirs.has(path)) throw new HostNotFoundError(path);
      const out = new Map<string, DirEntry>();
      const prefix = path === '/' ? '/' : `${path}/`;
      for (const d of dirs)
        if (d.startsWith(prefix) && d !== path && !d.slice(prefix.length).includes('/')) out.set(d, { name: d.slice(prefix.length), kind: 'dir' });
      for (const f of files.keys())
        if (f.startsWith(prefix) && !f.slice(prefix.length).includes('/')) out.set(f, { name: f.slice(prefix.length), kind: 'file' });
      return [...out.values()].sort((a, b) => compareText(a.name, b.name));
    },
    async mkdir(p) {
      ensureDir(abs(p));
    },
    async makeTempDir(prefix) {
      const path = `/tmp/${prefix}${(tempSeq++).toString().padStart(6, '0')}`;
      ensureDir(path);
      return path;
    },
    async isExecutable(p) {
      return ((files.get(abs(p))?.mode ?? 0) & 0o111) !== 0;
    },
    async remove(p, o) {
      const path = abs(p);
      files.delete(path);
      if (o?.recursive) {
        for (const f of [...files.keys()]) if (f.startsWith(`${path}/`)) files.delete(f);
        for (const d of [...dirs]) if (d === path || d.startsWith(`${path}/`)) dirs.delete(d);
      } else {
        dirs.delete(path);
      }
    },
    async rename(from, to) {
      const data = get(from);
      requireParent(abs(to));
      files.delete(abs(from));
      put(abs(to), data);
    },
    async copyFile(from, to) {
      requireParent(abs(to));
      put(abs(to), get(from).slice());
    },
    processAlive: (p) => livePids.has(p),
    spawn: options.spawn ?? (async () => ({ exitCode: null, signal: null, timedOut: false, cancelled: false, durationMs: 0, spawnError: 'ENOENT' })),
    isInteractive: () => options.interactive ?? false,
    async readStdin(maxBytes) {
      const data = encoder.encode(options.stdin ?? '');
      if (data.byteLength > maxBytes) throw new HostTooLargeError('-', data.byteLength, maxBytes);
      return data;
    },
    async importModule(specifier) {
      const mod = options.modules?.[specifier];
      if (!mod) throw new HostNotFoundError(specifier);
      return mod;
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    files() {
      return Object.fromEntries([...files].map(([k, v]) => [k, decoder.decode(v.data)]));
    },
    writes: (p) => writeCounts.get(abs(p)) ?? 0,
  };
  useYamlOf(host);
  return host;
}
