import { closeSync, fsyncSync, mkdirSync, openSync, realpathSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import * as v from 'valibot';
import { checkPrivateFile, isSluiceError, SluiceError, userFolders, type Host, type TrustRecord } from '../../../core/index.ts';
import { readBoundedSync } from '../../host-node/index.ts';

/** One line per trusted project; a store this big (or a FIFO in its place) is not read. */
const MAX_TRUST_STORE_BYTES = 4 * 1024 * 1024;

/**
 * The user's trust store: which workspace content they allowed to run, per project folder. It lives
 * outside every work tree (`trust.json` in `userFolders().config`: $XDG_CONFIG_HOME/sluice, else
 * ~/.config/sluice) and is refused unless it is the user's own, private file: anything the agent or
 * another user could have written must not grant authority.
 */
const SubjectSchema = v.object({ file: v.string(), what: v.string(), shows: v.string(), hash: v.string() });
const RecordSchema = v.object({ hash: v.string(), trustedAt: v.string(), subjects: v.array(SubjectSchema) });
export const TrustStoreSchema = v.object({ version: v.literal(1), projects: v.record(v.string(), RecordSchema) });
type TrustStoreFile = v.InferOutput<typeof TrustStoreSchema>;

export interface TrustStore {
  readonly path: string;
  get(projectRoot: string): Promise<TrustRecord | undefined>;
  set(projectRoot: string, record: TrustRecord): Promise<void>;
  remove(projectRoot: string): Promise<boolean>;
}

/** `trust.json` in sluice's user config folder (`userFolders().config`), which the guard and the sandboxes hide. */
export function trustStorePath(host: Pick<Host, 'env' | 'accountHome'>): string {
  return join(userFolders(host.env, host.accountHome).config, 'trust.json');
}

const unsafe = (path: string, message: string) => new SluiceError('TRUST_STORE_UNSAFE', { file: path, message });
const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Checks the store and its folder: outside the project, and the user's own private file as ssh judges
 * a key (checkPrivateFile). A folder that is there without the store yet is checked too, since the
 * store is about to be written into it.
 */
async function checkPrivate(host: Host, path: string, projectRoot: string): Promise<void> {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  if (isInside(projectRoot, path) || isInside(real(projectRoot), real(dirname(path))))
    throw unsafe(path, 'the trust store is inside the project, where the agent can write it');
  try {
    if (await checkPrivateFile(host, path, { what: 'the trust store', secret: true })) return;
  } catch (error) {
    // One code for the store, whatever was wrong with it: the message names the file and the mode.
    if (isSluiceError(error, 'PRIVATE_FILE_UNSAFE')) throw unsafe(error.file ?? path, error.detail);
    throw error;
  }
  const dir = await host.lstat(dirname(path));
  if (!dir) return;
  const me = host.userId();
  if (dir.kind !== 'dir') throw unsafe(dirname(path), 'the trust store folder is not a folder');
  if (me !== undefined && dir.uid !== undefined && dir.uid !== me) throw unsafe(dirname(path), `the trust store folder belongs to uid ${dir.uid}, not you`);
  if (dir.mode !== undefined && dir.mode & 0o022)
    throw unsafe(dirname(path), `others can write the trust store folder (mode ${(dir.mode & 0o777).toString(8)})`);
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

export function openTrustStore(host: Host, projectRoot: string): TrustStore {
  const path = trustStorePath(host);
  return {
    path,
    async get(root) {
      await checkPrivate(host, path, projectRoot);
      return read(path).projects[root];
    },
    async set(root, record) {
      await checkPrivate(host, path, projectRoot);
      const data = read(path);
      data.projects[root] = record;
      write(path, data);
    },
    async remove(root) {
      await checkPrivate(host, path, projectRoot);
      const data = read(path);
      if (!(root in data.projects)) return false;
      delete data.projects[root];
      write(path, data);
      return true;
    },
  };
}
