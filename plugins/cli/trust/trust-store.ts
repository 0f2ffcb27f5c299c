import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, realpathSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import * as v from 'valibot';
import { SluiceError, type TrustRecord } from '../../../core/index.ts';
import { readBoundedSync } from '../../host-node/index.ts';

/** One line per trusted project; a store this big (or a FIFO in its place) is not read. */
const MAX_TRUST_STORE_BYTES = 4 * 1024 * 1024;

/**
 * The user's trust store: which workspace content they allowed to run, per project folder. It lives
 * outside every work tree ($XDG_CONFIG_HOME/sluice/trust.json, else ~/.config/sluice/trust.json) and
 * is refused unless it is the user's own, private file: anything the agent or another user could
 * have written must not grant authority.
 */
const SubjectSchema = v.object({ file: v.string(), what: v.string(), shows: v.string(), hash: v.string() });
const RecordSchema = v.object({ hash: v.string(), trustedAt: v.string(), subjects: v.array(SubjectSchema) });
export const TrustStoreSchema = v.object({ version: v.literal(1), projects: v.record(v.string(), RecordSchema) });
type TrustStoreFile = v.InferOutput<typeof TrustStoreSchema>;

export interface TrustStore {
  readonly path: string;
  get(projectRoot: string): TrustRecord | undefined;
  set(projectRoot: string, record: TrustRecord): void;
  remove(projectRoot: string): boolean;
}

export function trustStorePath(env: Record<string, string | undefined>): string {
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec says relative values are invalid and must be ignored.
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'sluice', 'trust.json');
}

const unsafe = (path: string, message: string) => new SluiceError('TRUST_STORE_UNSAFE', { file: path, message });
const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Checks the store's folder and file: the user's own, nobody else can write them, not in the project. */
function checkPrivate(path: string, projectRoot: string): void {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  if (isInside(projectRoot, path) || isInside(real(projectRoot), real(dirname(path))))
    throw unsafe(path, 'the trust store is inside the project, where the agent can write it');
  const uid = process.getuid?.();
  const dir = lstatSync(dirname(path), { throwIfNoEntry: false });
  if (dir) {
    if (!dir.isDirectory()) throw unsafe(dirname(path), 'the trust store folder is not a folder');
    if (uid !== undefined && dir.uid !== uid) throw unsafe(dirname(path), `the trust store folder belongs to uid ${dir.uid}, not you`);
    if (dir.mode & 0o022) throw unsafe(dirname(path), `others can write the trust store folder (mode ${(dir.mode & 0o777).toString(8)})`);
  }
  const file = lstatSync(path, { throwIfNoEntry: false });
  if (!file) return;
  if (!file.isFile()) throw unsafe(path, 'the trust store is not a regular file');
  if (uid !== undefined && file.uid !== uid) throw unsafe(path, `the trust store belongs to uid ${file.uid}, not you`);
  if (file.mode & 0o077) throw unsafe(path, `the trust store is readable or writable by others (mode ${(file.mode & 0o777).toString(8)})`);
}

function read(path: string): TrustStoreFile {
  let text: string;
  try {
    text = readBoundedSync(path, MAX_TRUST_STORE_BYTES).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, projects: {} };
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SluiceError('STATE_CORRUPT', { file: path, message: 'the trust store is not valid JSON' });
  }
  const parsed = v.safeParse(TrustStoreSchema, raw);
  if (!parsed.success)
    throw new SluiceError('STATE_INVALID', {
      file: path,
      field: v.getDotPath(parsed.issues[0]) ?? undefined,
      message: 'the trust store does not match its format',
    });
  return parsed.output;
}

/** Temp file with mode 600 next to the store, fsync, rename: never a half-written or world-readable store. */
function write(path: string, data: TrustStoreFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(data, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

export function openTrustStore(env: Record<string, string | undefined>, projectRoot: string): TrustStore {
  const path = trustStorePath(env);
  return {
    path,
    get(root) {
      checkPrivate(path, projectRoot);
      return read(path).projects[root];
    },
    set(root, record) {
      checkPrivate(path, projectRoot);
      const data = read(path);
      data.projects[root] = record;
      write(path, data);
    },
    remove(root) {
      checkPrivate(path, projectRoot);
      const data = read(path);
      if (!(root in data.projects)) return false;
      delete data.projects[root];
      write(path, data);
      return true;
    },
  };
}
