import type * as v from 'valibot';
import { SluiceError } from '../errors/sluice-error.ts';
import type { Host } from '../host/host.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { CodecError, codecForPath, type Codec } from './codec.ts';
import { acquireLock } from './file-lock.ts';
import { createJournaledStore, type JournaledStore } from './journaled-store.ts';
import { MAX_DATA_FILE_BYTES, parseDataText, readDataText, validateData } from './read-data-file.ts';

/** A state file: where it is, its schema, and the rules every update must keep. */
export interface StateFile<S extends v.GenericSchema> {
  path: string;
  schema: S;
  codec?: Codec;
  /** Returns a message when going from `before` to `after` breaks a rule (e.g. history shortened). */
  invariant?(before: v.InferOutput<S>, after: v.InferOutput<S>): string | undefined;
}

export interface UpdateOptions<T> {
  /** Value to start from when the file does not exist yet; without it a missing file is an error. */
  initial?: () => T;
  /** Lock purpose shown to a process that has to wait. */
  purpose?: string;
}

export interface UpdateResult<T> {
  before: T | undefined;
  after: T;
  written: boolean;
}

export interface StateStore {
  /** The one write path of records (journal + anchor + cache); see journaled-store.ts. */
  append: JournaledStore['append'];
  loadJournal: JournaledStore['load'];
  anchorJournal: JournaledStore['anchor'];
  extend: JournaledStore['extend'];
  readonly records: JournaledStore['keeper'];
  read<S extends v.GenericSchema>(file: StateFile<S>): Promise<v.InferOutput<S>>;
  /**
   * lock → read → validate → apply `fn` (pure) → validate → invariant → atomic write → unlock.
   * `fn` may throw a SluiceError to refuse; nothing is written then. Returning the same object
   * skips the write.
   */
  update<S extends v.GenericSchema>(
    file: StateFile<S>,
    fn: (current: v.InferOutput<S>) => v.InferOutput<S>,
    options?: UpdateOptions<v.InferOutput<S>>,
  ): Promise<UpdateResult<v.InferOutput<S>>>;
  /** Writes a new state file; refuses to replace an existing one unless `overwrite`. */
  create<S extends v.GenericSchema>(file: StateFile<S>, value: v.InferOutput<S>, options?: { overwrite?: boolean }): Promise<void>;
  exists(path: string): Promise<boolean>;
}

export interface StateStoreOptions {
  host: Host;
  /** In-process serialization per file, so two jobs in one process never race for the file lock. */
  queue?: Pick<JobQueue, 'exclusive'>;
  /** How long to wait for another process's lock before LOCK_BUSY. */
  lockWaitMs?: number;
  /** Turns an absolute path into what errors show (usually relative to the project). */
  display?(path: string): string;
}

export function createStateStore(options: StateStoreOptions): StateStore {
  const { host } = options;
  const display = options.display ?? ((p: string) => p);
  const exclusive = <T>(key: string, fn: () => Promise<T>) => (options.queue ? options.queue.exclusive(key, fn) : fn());

  async function withLock<T>(path: string, shown: string, purpose: string | undefined, fn: () => Promise<T>): Promise<T> {
    return exclusive(`state:${path}`, async () => {
      // keepOpen: held only for one update, and released with one identity check instead of a re-read.
      const lock = await acquireLock(host, `${path}.lock`, { waitMs: options.lockWaitMs, purpose, display: shown, keepOpen: true });
      try {
        return await fn();
      } finally {
        await lock.release();
      }
    });
  }

  /**
   * The file's validated value, or undefined when it does not exist. No stat first: the read itself
   * says whether the file is there, one thread-pool round trip fewer on every update.
   */
  async function readCurrent<S extends v.GenericSchema>(file: StateFile<S>, shown: string): Promise<v.InferOutput<S> | undefined> {
    let text: string;
    try {
      text = await readDataText(host, file.path, { display: shown });
    } catch (error) {
      if (error instanceof SluiceError && error.code === 'FILE_NOT_FOUND') return undefined;
      throw error;
    }
    return validateData(file.schema, parseDataText(text, file.codec ?? codecForPath(file.path), shown), shown);
  }

  async function write<S extends v.GenericSchema>(file: StateFile<S>, value: unknown, shown: string): Promise<void> {
    let text: string;
    try {
      text = (file.codec ?? codecForPath(file.path)).stringify(value);
    } catch (error) {
      if (!(error instanceof CodecError)) throw error;
      throw new SluiceError('INVARIANT_VIOLATED', { file: shown, message: `update would write a value that does not read back: ${error.message}` });
    }
    // A file sluice could not read back would fail every later command: refuse it before writing.
    const bytes = new TextEncoder().encode(text).byteLength;
    if (bytes > MAX_DATA_FILE_BYTES) {
      throw new SluiceError('INVARIANT_VIOLATED', {
        file: shown,
        message: `update would make the file ${bytes} bytes, over the ${MAX_DATA_FILE_BYTES} byte limit sluice reads; nothing was written`,
      });
    }
    await host.writeAtomic(file.path, text);
  }

  const journals = createJournaledStore(options);
  return {
    append: journals.append,
    loadJournal: journals.load,
    anchorJournal: journals.anchor,
    extend: journals.extend,
    records: journals.keeper,
    async read(file) {
      const shown = display(file.path);
      const value = await readCurrent(file, shown);
      if (value === undefined) throw new SluiceError('FILE_NOT_FOUND', { file: shown, message: 'file does not exist' });
      return value;
    },

    update(file, fn, o = {}) {
      // The shown name is computed once: display() costs a path.relative, and it was called ~6 times per update.
      const shown = display(file.path);
      return withLock(file.path, shown, o.purpose, async () => {
        const before = await readCurrent(file, shown);
        if (before === undefined && o.initial === undefined) {
          throw new SluiceError('STATE_MISSING', { file: shown, message: 'file does not exist' });
        }
        const start = before ?? validateData(file.schema, o.initial!(), shown, 'INVARIANT_VIOLATED');
        const next = fn(start);
        if (next === start && before !== undefined) return { before, after: before, written: false };
        const after = validateData(file.schema, next, shown, 'INVARIANT_VIOLATED');
        const broken = before === undefined ? undefined : file.invariant?.(before, after);
        if (broken) throw new SluiceError('INVARIANT_VIOLATED', { file: shown, message: broken });
        await write(file, after, shown);
        return { before, after, written: true };
      });
    },

    create(file, value, o = {}) {
      const shown = display(file.path);
      return withLock(file.path, shown, 'create', async () => {
        if (!o.overwrite && (await host.stat(file.path)) !== null) {
          throw new SluiceError('STATE_EXISTS', { file: shown, message: 'file already exists' });
        }
        await write(file, validateData(file.schema, value, shown, 'INVARIANT_VIOLATED'), shown);
      });
    },

    async exists(path) {
      return (await host.stat(path)) !== null;
    },
  };
}
