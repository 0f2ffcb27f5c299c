import type { SandboxKind, SandboxPolicy } from '../sandbox/sandbox-policy.ts';
import type { YamlLibrary } from '../store/yaml-library.ts';

/**
 * The Host port: every piece of I/O the kernel and the workflows need. Core code gets the outside
 * world only through this interface, so it runs under Node and Deno and tests can use an in-memory host.
 * Paths are absolute POSIX-style strings.
 */
export interface FileInfo {
  kind: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  mtimeMs: number;
  /** Permission bits (`0o600`), where the platform has them. */
  mode?: number;
  /** The owner's user id, where the platform has one (compare with `Host.userId()`). */
  uid?: number;
  /** The file's identity (inode) and its status change time, where the platform has them: with size and mtime, a stamp that says it is unchanged. */
  ino?: number;
  ctimeMs?: number;
}

export interface DirEntry {
  name: string;
  kind: FileInfo['kind'];
}

export interface FileWriter {
  write(chunk: string | Uint8Array): void;
  /** Resolves once everything written so far is on disk. */
  close(): Promise<void>;
}

export interface SpawnOptions {
  command: string;
  args: readonly string[];
  cwd?: string;
  /** Extra variables on top of the host's environment (or the whole set with `replaceEnv`). */
  env?: Record<string, string | undefined>;
  replaceEnv?: boolean;
  /** Written to stdin, which is then closed. Without it stdin is empty. */
  input?: string | Uint8Array;
  /** Wall clock limit; the whole process group is killed when it expires. */
  timeoutMs?: number;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  signal?: AbortSignal;
  /** Output is streamed, never buffered by the host. */
  onStdout?(chunk: Uint8Array): void;
  onStderr?(chunk: Uint8Array): void;
  /**
   * Run the program inside the host's OS sandbox with these rules (see core/sandbox). A host that
   * cannot (`sandboxKind()` absent or null) must never be handed one: the caller decides first.
   */
  sandbox?: SandboxPolicy;
}

export interface SpawnResult {
  exitCode: number | null;
  /** Signal that ended the process, if any. */
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  pid?: number;
  /** Set when the process could not be started at all (`ENOENT`, `EACCES`). */
  spawnError?: string;
  /** The process exited but something it started (outside its group) still held its output open; reading stopped. */
  stdioHeld?: boolean;
}

/** A file made by `Host.createHeld`, kept open until released. */
export interface HeldFile {
  /** Removes the path only if it still names this very file (not one another process made since), and closes it. */
  removeIfOwn(): Promise<void>;
  /** Replaces the content if the path still names this file; false if it does not. Optional for hosts. */
  rewrite?(data: string): Promise<boolean>;
}

/** One match of a regular expression: the groups as RegExp.exec gives them, and the named ones. */
export interface RegExpMatchResult {
  groups: (string | undefined)[];
  named: Record<string, string | undefined>;
}

export interface Host {
  readonly name: string;
  readonly pid: number;
  hostname(): string;
  cwd(): string;
  now(): Date;
  /**
   * A monotonic clock in milliseconds, for durations. Optional: without it the kernel uses the web's
   * `performance.now()`, which on Node loads perf_hooks (~1 ms of a short command).
   */
  monotonicMs?(): number;
  env(name: string): string | undefined;
  envAll(): Record<string, string>;
  /**
   * The home folder of the user this process runs as, from the system's account records, not $HOME
   * (whoever starts sluice can point that elsewhere): where the user's own grants and keys are read.
   */
  accountHome(): string;
  /** The user id this process runs as, where the platform has one: private files must be owned by it. */
  userId(): number | undefined;

  readText(path: string, options?: { maxBytes?: number }): Promise<string>;
  readBytes(path: string, options?: { maxBytes?: number }): Promise<Uint8Array>;
  /**
   * The first `maxBytes` bytes of a regular file (all of it when shorter) and its info, taken from the
   * same open file: a header (frontmatter) read from each of many files, without their bodies.
   */
  readHead(path: string, maxBytes: number): Promise<{ data: Uint8Array; info: FileInfo }>;
  /** Temp file in the same folder, fsync, rename over the target, fsync the folder. */
  writeAtomic(path: string, data: string | Uint8Array): Promise<void>;
  /** Creates the file only if it does not exist; returns false if it does. */
  writeExclusive(path: string, data: string): Promise<boolean>;
  /**
   * writeExclusive that keeps the new file open (null if the path exists), so that removing it can
   * check by identity, not by re-reading it, that it is still the same file. Optional: locks fall back
   * to writeExclusive on a host without it. Each held file is an open descriptor until released.
   */
  createHeld?(path: string, data: string): Promise<HeldFile | null>;
  /**
   * Writes a file only its owner may read or write (0600), making missing folders owner-only (0700):
   * for keys and the user's caches. Whole or not at all (temp file + rename), without fsync. With
   * `exclusive`, an existing file is never replaced and the result is false.
   */
  writePrivate(path: string, data: string, options?: { exclusive?: boolean }): Promise<boolean>;
  openWriter(path: string, options?: { append?: boolean }): Promise<FileWriter>;
  stat(path: string): Promise<FileInfo | null>;
  /** Like stat but does not follow a final symlink. */
  lstat(path: string): Promise<FileInfo | null>;
  realpath(path: string): Promise<string>;
  listDir(path: string): Promise<DirEntry[]>;
  mkdir(path: string): Promise<void>;
  /** A new empty folder, private to this user, in the system's temp folder (`<prefix>XXXXXX`); the caller removes it. */
  makeTempDir(prefix: string): Promise<string>;
  /** Whether `path` is a regular file (symlinks followed) this process may execute. */
  isExecutable(path: string): Promise<boolean>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;

  /** Whether a process with this pid is running on this machine. */
  processAlive(pid: number): boolean;
  spawn(options: SpawnOptions): Promise<SpawnResult>;
  /**
   * The OS sandbox `spawn` can put a program in on this machine (`bubblewrap` where a `bwrap` on PATH
   * can start one, `sandbox-exec` on macOS), or null. Optional: a host without it has none.
   */
  sandboxKind?(): Promise<SandboxKind | null>;
  isInteractive(): boolean;
  /** This process's standard input, read to its end; over `maxBytes` is HostTooLargeError (path `-`). */
  readStdin(maxBytes: number): Promise<Uint8Array>;
  /**
   * Regular files this process's stdout and stderr are redirected to (absolute paths), where the
   * platform can tell: `sluice ... 2> log.txt` inside the project is sluice writing, not an agent.
   */
  outputFiles?(): string[];
  sleep(ms: number): Promise<void>;
  /**
   * Calls `fn` every `ms` until the returned function is called; never keeps the process alive.
   * Optional: without it, long-held locks do not refresh their heartbeat by themselves.
   */
  repeat?(ms: number, fn: () => void): () => void;
  /**
   * Loads a plugin module: a path (relative to `fromDir`) or a package name resolved from `fromDir`.
   * Throws HostNotFoundError when it cannot be resolved.
   */
  importModule(specifier: string, fromDir: string): Promise<Record<string, unknown>>;
  /** The file `importModule` would load for a package name (for hashing it before trusting it). Optional. */
  resolveModule?(specifier: string, fromDir: string): Promise<string>;
  /**
   * Absolute path of a file shipped with sluice (phase registry, profile packs, prompts, demo data),
   * e.g. `asset('skills', 'lifecycle', 'plan.md')`: where sluice is installed is the host's to know.
   */
  asset(...parts: string[]): string;
  /**
   * SHA-256 of text (UTF-8) or bytes, in hex. On the port, not only in core (`sha256Hex`), so that
   * file contents (workspace fingerprints, artifacts, frozen files) are hashed natively where the host can.
   */
  sha256(data: string | Uint8Array): string;
  /**
   * RegExp.exec by JavaScript's own (backtracking) engine, stopped after `limitMs` ('timeout'): a
   * pattern from a file such as `(a+)+$` must not freeze sluice. A host that cannot run it apart
   * (the in-memory one) runs it inline, without the limit.
   */
  execRegExp(source: string, flags: string, text: string, limitMs: number): Promise<RegExpMatchResult | null | 'timeout'>;
  /**
   * The yaml library core's codecs parse and write YAML with, synchronously. On the port so that where
   * it comes from is the host's choice: the Node host's bundle loads its own copy on first use (most
   * short commands read only cached data and never need it), from source it is the plain import.
   */
  yaml(): YamlLibrary;
}

/** Thrown by hosts for a path that does not exist; core maps it to FILE_NOT_FOUND. */
export class HostNotFoundError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`no such file: ${path}`);
    this.name = 'HostNotFoundError';
    this.path = path;
  }
}

/** Thrown by hosts for a path that is there but is not a regular file (a FIFO, a device, a folder). */
export class HostNotRegularError extends Error {
  readonly path: string;
  /** What it is instead, in words: `FIFO`, `character device`, `directory`. */
  readonly kind: string;
  constructor(path: string, kind: string) {
    super(`${path} is a ${kind}, not a regular file`);
    this.name = 'HostNotRegularError';
    this.path = path;
    this.kind = kind;
  }
}

/**
 * Thrown by hosts when the system refuses an operation on a path (permission, read-only file
 * system, disk full). `code` is the system's name for it (`EACCES`, `EROFS`, `ENOSPC`).
 */
export class HostIoError extends Error {
  readonly path: string;
  readonly code: string;
  constructor(path: string, code: string, what: string) {
    super(`${what} ${path}: ${code}`);
    this.name = 'HostIoError';
    this.path = path;
    this.code = code;
  }
}

/** Thrown by hosts when a read is larger than the caller allowed. */
export class HostTooLargeError extends Error {
  readonly path: string;
  readonly size: number;
  constructor(path: string, size: number, limit: number) {
    super(`${path} is ${size} bytes, over the ${limit} byte limit`);
    this.name = 'HostTooLargeError';
    this.path = path;
    this.size = size;
  }
}
