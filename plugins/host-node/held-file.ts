import { stat, unlink } from 'node:fs/promises';
import type { HeldFile } from '../../core/index.ts';
import { openExclusive, writeNewOrRemove } from './atomic-write.ts';

/**
 * Creates `path` only if it does not exist (O_EXCL), writes `data` and keeps the file open; null if
 * the path exists. Like writeFileExclusive there is no fsync: it is for lock files, which a crash makes
 * stale anyway.
 *
 * Why keep it open: a lock's release must not remove a lock file that another process made after
 * judging ours stale. Re-reading the file to compare its text costs four thread-pool round trips
 * (open, fstat, read, close) on every state update; comparing the open handle's device and inode with
 * the path's costs one (both stats at once). The comparison is exact because an inode cannot be freed,
 * and so its number reused, while a descriptor to it is open.
 */
export async function createHeldFile(path: string, data: string): Promise<HeldFile | null> {
  const fh = await openExclusive(path);
  if (fh === null) return null;
  await writeNewOrRemove(path, fh, data);
  const isOwn = async () => {
    const [mine, there] = await Promise.all([fh.stat({ bigint: true }), stat(path, { bigint: true }).catch(() => null)]);
    return there !== null && there.dev === mine.dev && there.ino === mine.ino;
  };
  return {
    async rewrite(text) {
      if (!(await isOwn())) return false;
      // In place, so the identity release relies on stays; same-length text (a new heartbeat) overwrites whole.
      const bytes = Buffer.from(text);
      await fh.write(bytes, 0, bytes.length, 0);
      await fh.truncate(bytes.length);
      return true;
    },
    async removeIfOwn() {
      let own = false;
      try {
        own = await isOwn();
      } finally {
        // Independent, so both at once: the path keeps the inode alive until the unlink.
        await Promise.all([own ? unlink(path) : undefined, fh.close()]);
      }
    },
  };
}
