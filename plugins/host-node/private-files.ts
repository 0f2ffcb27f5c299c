import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The user's own files, as the Host port offers them: private writes (keys, caches), temp folders,
 * the account's home and the executable check. Separate from atomic-write.ts, which keeps a file's
 * mode and fsyncs: these files are created owner-only and are cheap to lose.
 */

let tmpSeq = 0;

/** See Host.writePrivate. The folder's mode applies only to folders this makes; an existing one is left as it is. */
export async function writePrivateFile(path: string, data: string, exclusive = false): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  if (exclusive) {
    try {
      await writeFile(path, data, { mode: 0o600, flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }
  const tmp = `${path}.${process.pid}.${(tmpSeq++).toString(36)}.tmp`;
  try {
    await writeFile(tmp, data, { mode: 0o600, flag: 'wx' });
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => {});
    throw error;
  }
  return true;
}

export const makeTempDir = (prefix: string): Promise<string> => mkdtemp(join(tmpdir(), prefix));

/** A regular file (after symlinks) that access(2) lets this process execute. */
export async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The password database's home for this uid; $HOME only where there is no entry (a container's made-up uid). */
export function accountHome(): string {
  try {
    return userInfo().homedir;
  } catch {
    return homedir();
  }
}
