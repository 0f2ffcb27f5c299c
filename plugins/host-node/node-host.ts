import { createWriteStream } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, realpath, rename, rm, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { HostNotFoundError, type DirEntry, type FileInfo, type FileWriter, type Host } from '../../core/index.ts';
import { writeFileAtomic, writeFileExclusive } from './atomic-write.ts';
import { createHeldFile } from './held-file.ts';
import { readBounded } from './read-bounded.ts';
import { importModule, resolveModule } from './import-module.ts';
import { spawnProcess } from './spawn-process.ts';

const isNotFound = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

async function mapNotFound<T>(path: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    if (isNotFound(error)) throw new HostNotFoundError(path);
    throw error;
  }
}

/**
 * `remove` without `recursive`: a plain unlink. `rm` with `force` lstats the path twice before it
 * unlinks, and every lock release removes a file, so that was two extra thread-pool round trips per
 * state update. A missing file is fine (force); anything else (a folder) goes to `rm` for its errors.
 */
async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') return;
    await rm(path, { force: true });
  }
}

const kindOf = (s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileInfo['kind'] =>
  s.isFile() ? 'file' : s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'symlink' : 'other';

/** The Host for Node (and Deno's Node compatibility): node:fs for files, execa for processes. */
export function createNodeHost(options: { cwd?: string } = {}): Host {
  const cwd = resolve(options.cwd ?? process.cwd());
  const abs = (p: string) => resolve(cwd, p);

  const readBytes = (p: string, o?: { maxBytes?: number }): Promise<Uint8Array> => mapNotFound(abs(p), () => readBounded(abs(p), o?.maxBytes));

  return {
    name: 'node',
    pid: process.pid,
    hostname: () => hostname(),
    cwd: () => cwd,
    now: () => new Date(),
    env: (name) => process.env[name],
    envAll: () => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    readBytes,
    async readText(p, o) {
      return new TextDecoder().decode(await readBytes(p, o));
    },
    writeAtomic: (p, data) => mapNotFound(abs(p), () => writeFileAtomic(abs(p), data)),
    writeExclusive: (p, data) => mapNotFound(abs(p), () => writeFileExclusive(abs(p), data)),
    createHeld: (p, data) => mapNotFound(abs(p), () => createHeldFile(abs(p), data)),
    async openWriter(p, o): Promise<FileWriter> {
      const path = abs(p);
      const stream = createWriteStream(path, { flags: o?.append ? 'a' : 'w' });
      await mapNotFound(path, () => new Promise<void>((ok, fail) => stream.once('open', () => ok()).once('error', fail)));
      return {
        write: (chunk) => void stream.write(chunk),
        close: () => new Promise<void>((ok, fail) => stream.end((err?: Error | null) => (err ? fail(err) : ok()))),
      };
    },
    async stat(p) {
      try {
        const s = await stat(abs(p));
        return { kind: kindOf(s), size: s.size, mtimeMs: s.mtimeMs };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async lstat(p) {
      try {
        const s = await lstat(abs(p));
        return { kind: kindOf(s), size: s.size, mtimeMs: s.mtimeMs };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    realpath: (p) => mapNotFound(abs(p), () => realpath(abs(p))),
    listDir: (p) =>
      mapNotFound(abs(p), async (): Promise<DirEntry[]> => {
        const entries = await readdir(abs(p), { withFileTypes: true });
        return entries.map((e) => ({ name: e.name, kind: kindOf(e) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      }),
    mkdir: async (p) => void (await mkdir(abs(p), { recursive: true })),
    remove: (p, o) => (o?.recursive ? rm(abs(p), { recursive: true, force: true }) : removeFile(abs(p))),
    rename: (from, to) => mapNotFound(abs(from), () => rename(abs(from), abs(to))),
    copyFile: (from, to) => mapNotFound(abs(from), () => copyFile(abs(from), abs(to))),
    processAlive(pid) {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    },
    spawn: (o) => spawnProcess({ ...o, cwd: o.cwd === undefined ? cwd : abs(o.cwd) }),
    isInteractive: () => Boolean(process.stdin.isTTY && process.stdout.isTTY),
    sleep: (ms) => new Promise((ok) => setTimeout(ok, ms)),
    importModule: (specifier, fromDir) => importModule(specifier, fromDir),
    resolveModule: (specifier, fromDir) => resolveModule(specifier, fromDir),
  };
}
