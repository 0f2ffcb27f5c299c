import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Temp names must never collide between processes (or hosts sharing a folder): a random tag drawn
 * once per process, at its first write (a command that writes nothing never loads node:crypto),
 * plus a counter, instead of fresh random bytes for every write.
 */
let processTag: string | undefined;
let tmpSeq = 0;

/**
 * Replaces `path` so that a reader (or a crash at any instant) sees either the old file or the
 * new one, never a mix: write a temp file in the same folder, fsync it, rename it over the
 * target, then fsync the folder so the rename itself survives a power cut. The folder is opened
 * alongside the temp file (both round trips at once); its fsync still comes after the rename.
 * The new file keeps the old one's permission bits (a 0600 state stays private, a 0755 script
 * stays runnable); the old file is stat'ed alongside too.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  processTag ??= randomBytes(4).toString('hex');
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${processTag}-${(tmpSeq++).toString(36)}.tmp`);
  const folder = openDir(dir);
  const oldMode = stat(path).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  let created = false;
  let renamed = false;
  try {
    const fh = await open(tmp, 'wx', 0o644);
    created = true;
    try {
      const mode = await oldMode;
      // fchmod, not the open's mode argument: that one is cut by the umask.
      if (mode !== undefined) await fh.chmod(mode);
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
    renamed = true;
    await (await folder)?.sync().catch(() => {});
  } finally {
    await (await folder)?.close().catch(() => {});
    if (created && !renamed) await unlink(tmp).catch(() => {});
  }
}

/**
 * Creates `path` only if it does not exist (O_EXCL). Used for lock files, which need atomic
 * creation but not durability: after a crash the owner is dead and the lock is stale anyway, so
 * there is no fsync here (it was a third of a state update's cost).
 */
export async function writeFileExclusive(path: string, data: string): Promise<boolean> {
  const fh = await openExclusive(path);
  if (fh === null) return false;
  await writeNewOrRemove(path, fh, data);
  await fh.close();
  return true;
}

/**
 * Writes the content of a file just created with O_EXCL. If that fails (disk full), the file is
 * removed again: an empty lock file would read as "locked by another process" to everyone after.
 * It is ours to remove: nobody else could create the path while it existed.
 */
export async function writeNewOrRemove(path: string, fh: FileHandle, data: string): Promise<void> {
  try {
    await fh.writeFile(data);
  } catch (error) {
    await Promise.all([unlink(path).catch(() => {}), fh.close().catch(() => {})]);
    throw error;
  }
}

/** A new file opened for writing (O_EXCL), or null when the path already exists. */
export async function openExclusive(path: string): Promise<FileHandle | null> {
  try {
    return await open(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  }
}

/** Some platforms cannot open or fsync a directory; the rename is still atomic there. */
function openDir(dir: string): Promise<FileHandle | undefined> {
  return open(dir, 'r').catch(() => undefined);
}
