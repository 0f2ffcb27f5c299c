import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `path` so that a reader (or a crash at any instant) sees either the old file or the
 * new one, never a mix: write a temp file in the same folder, fsync it, rename it over the
 * target, then fsync the folder so the rename itself survives a power cut.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let renamed = false;
  try {
    const fh = await open(tmp, 'wx', 0o644);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
    renamed = true;
    await syncDir(dir);
  } finally {
    if (!renamed) await unlink(tmp).catch(() => {});
  }
}

/**
 * Creates `path` only if it does not exist (O_EXCL). Used for lock files, which need atomic
 * creation but not durability: after a crash the owner is dead and the lock is stale anyway, so
 * there is no fsync here (it was a third of a state update's cost).
 */
export async function writeFileExclusive(path: string, data: string): Promise<boolean> {
  let fh;
  try {
    fh = await open(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await fh.writeFile(data);
  } finally {
    await fh.close();
  }
  return true;
}

async function syncDir(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  } finally {
    await fh?.close().catch(() => {});
  }
}
