import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { clearInterval, setInterval } from 'node:timers';
import { resolve } from 'node:path';
import { isatty } from 'node:tty';
import { HostIoError, HostNotFoundError, useYamlOf, type DirEntry, type FileInfo, type FileWriter, type Host } from '../../core/index.ts';
import { writeFileAtomic, writeFileExclusive } from './atomic-write.ts';
import { createHeldFile } from './held-file.ts';
import { infoOf, kindOf } from './file-info.ts';
import { openForWriting, readBounded, readHeadSync } from './read-bounded.ts';
import { importModule, resolveModule } from './import-module.ts';
import { sluiceAsset } from './sluice-assets.ts';
import { ownOutputFiles } from './own-output-files.ts';
import { execRegExpInWorker } from './regexp-in-worker.ts';
import { accountHome, isExecutableFile, makeTempDir, writePrivateFile } from './private-files.ts';
import { spawnProcess } from './spawn-process.ts';
import { findSandbox, type FoundSandbox } from './os-sandbox.ts';
import { readStdin } from './read-stdin.ts';
import { nodeYamlLibrary } from './yaml-library.ts';

const isNotFound = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * Runs a file operation on `path` and names that path in what it throws: a missing file becomes
 * HostNotFoundError, any other system refusal (EACCES, EROFS, ENOSPC...) a HostIoError, so the
 * user sees the file sluice was working on, not a temp file or a stack trace.
 */
async function mapSystemErrors<T>(path: string, op: () => Promise<T>, what = 'cannot access'): Promise<T> {
  try {
    return await op();
  } catch (error) {
    throw systemError(path, error, what);
  }
}

function systemError(path: string, error: unknown, what: string): unknown {
  if (isNotFound(error)) return new HostNotFoundError(path);
  const code = (error as NodeJS.ErrnoException)?.code;
  if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code)) return new HostIoError(path, code, what);
  return error;
}

/** A synchronous file call as the port's promise, errors named as mapSystemErrors names them: one promise, not a chain (a spec scan makes ten thousand). */
function settled<T>(path: string, op: () => T, what: string): Promise<T> {
  try {
    return Promise.resolve(op());
  } catch (error) {
    return Promise.reject(systemError(path, error, what));
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

/** A `.` or `..` path segment. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
/** One decoder for every read: `decode` without `stream` keeps no state between calls, and making one costs more than a small file's decoding. */
const utf8 = new TextDecoder();

/**
 * The Host for Node (and Deno's Node compatibility): node:fs for files, node:child_process for processes.
 * Reads, stats, realpaths and listings call node:fs synchronously behind the async port: each takes
 * microseconds on a local disk, while an awaited fs/promises call costs a thread-pool round trip, and
 * a gate run makes a hundred of them. Writes stay asynchronous.
 */
export function createNodeHost(options: { cwd?: string } = {}): Host {
  const cwd = resolve(options.cwd ?? process.cwd());
  // path.resolve costs more than the stat it names (a spec scan stats ten thousand files): a path
  // that is already absolute and normal (no `//`, no `.` or `..` segment, no trailing slash) is used as
  // is, `.sdlc/...` included (a dot that starts a name is no `.` segment).
  const abs = (p: string) => (p.charCodeAt(0) === 47 && !p.includes('//') && !DOT_SEGMENT.test(p) && !p.endsWith('/') ? p : resolve(cwd, p));

  const readBytes = (p: string, o?: { maxBytes?: number }): Promise<Uint8Array> =>
    mapSystemErrors(abs(p), () => readBounded(abs(p), o?.maxBytes), 'cannot read');

  // Found once per host, when a run first asks: a probe start of bwrap is a few milliseconds.
  let sandbox: Promise<FoundSandbox | null> | undefined;
  const osSandbox = () =>
    (sandbox ??= findSandbox(process.env.PATH, async (program, args) => (await spawnProcess({ command: program, args, timeoutMs: 15_000 })).exitCode === 0));

  const host: Host = {
    name: 'node',
    pid: process.pid,
    hostname: () => hostname(),
    asset: sluiceAsset,
    execRegExp: execRegExpInWorker,
    sha256: (data) => createHash('sha256').update(data).digest('hex'),
    yaml: nodeYamlLibrary,
    cwd: () => cwd,
    now: () => new Date(),
    monotonicMs: () => Number(process.hrtime.bigint()) / 1e6,
    env: (name) => process.env[name],
    envAll: () => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    accountHome,
    userId: () => process.getuid?.(),
    readBytes,
    readHead(p, maxBytes) {
      const path = abs(p);
      return settled(path, () => readHeadSync(path, maxBytes), 'cannot read');
    },
    async readText(p, o) {
      return utf8.decode(await readBytes(p, o));
    },
    writeAtomic: (p, data) => mapSystemErrors(abs(p), () => writeFileAtomic(abs(p), data), 'cannot write'),
    writeExclusive: (p, data) => mapSystemErrors(abs(p), () => writeFileExclusive(abs(p), data), 'cannot create'),
    writePrivate: (p, data, o) => mapSystemErrors(abs(p), () => writePrivateFile(abs(p), data, o?.exclusive), 'cannot write'),
    createHeld: (p, data) => mapSystemErrors(abs(p), () => createHeldFile(abs(p), data), 'cannot create'),
    async openWriter(p, o): Promise<FileWriter> {
      const path = abs(p);
      const fh = await mapSystemErrors(path, () => openForWriting(path, o?.append === true), 'cannot write');
      const stream = fh.createWriteStream();
      // A failed write (disk full) is reported by close, naming the file, instead of crashing the process.
      let failure: unknown;
      stream.on('error', (error) => (failure ??= error));
      const failed = () => mapSystemErrors(path, () => Promise.reject(failure), 'cannot write');
      return {
        write: (chunk) => void (failure === undefined && stream.write(chunk)),
        close: () =>
          new Promise<void>((ok, fail) => {
            if (failure !== undefined || stream.destroyed) return void (failure === undefined ? ok() : failed().catch(fail));
            stream.end((err?: Error | null) => ((failure ??= err ?? undefined) === undefined ? ok() : failed().catch(fail)));
          }),
      };
    },
    async stat(p) {
      try {
        const info = statSync(abs(p), { throwIfNoEntry: false });
        return info ? infoOf(info) : null;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async lstat(p) {
      try {
        const info = lstatSync(abs(p), { throwIfNoEntry: false });
        return info ? infoOf(info) : null;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    // The native realpath, as fs/promises uses: one realpath(3), not a readlink per path component.
    realpath: (p) => mapSystemErrors(abs(p), async () => realpathSync.native(abs(p))),
    listDir: (p) =>
      mapSystemErrors(abs(p), async (): Promise<DirEntry[]> => {
        const entries = readdirSync(abs(p), { withFileTypes: true });
        return entries.map((e) => ({ name: e.name, kind: kindOf(e) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      }),
    makeTempDir,
    isExecutable: (p) => isExecutableFile(abs(p)),
    mkdir: (p) => mapSystemErrors(abs(p), async () => void (await mkdir(abs(p), { recursive: true })), 'cannot create folder'),
    remove: (p, o) => mapSystemErrors(abs(p), () => (o?.recursive ? rm(abs(p), { recursive: true, force: true }) : removeFile(abs(p))), 'cannot remove'),
    rename: (from, to) => mapSystemErrors(abs(from), () => rename(abs(from), abs(to)), 'cannot rename'),
    copyFile: (from, to) => mapSystemErrors(abs(from), () => copyFile(abs(from), abs(to)), 'cannot copy'),
    processAlive(pid) {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    },
    spawn: (o) =>
      o.sandbox === undefined
        ? spawnProcess({ ...o, cwd: o.cwd === undefined ? cwd : abs(o.cwd) })
        : osSandbox().then((found) => spawnProcess({ ...o, cwd: o.cwd === undefined ? cwd : abs(o.cwd) }, found)),
    sandboxKind: async () => (await osSandbox())?.kind ?? null,
    // isatty(0), not process.stdin.isTTY: reading process.stdin builds a stream every command would pay for.
    // stdout first: a command whose output goes to a file or a pipe then never loads node:tty (and node:net).
    isInteractive: () => Boolean(process.stdout.isTTY) && isatty(0),
    readStdin,
    outputFiles: ownOutputFiles,
    sleep: (ms) => new Promise((ok) => setTimeout(ok, ms)),
    repeat(ms, fn) {
      const timer = setInterval(fn, ms);
      timer.unref();
      return () => clearInterval(timer);
    },
    importModule: (specifier, fromDir) => importModule(specifier, fromDir),
    resolveModule: (specifier, fromDir) => resolveModule(specifier, fromDir),
  };
  useYamlOf(host);
  return host;
}
