import type { Dirent, Stats } from 'node:fs';
import type { FileInfo } from '../../core/index.ts';

export const kindOf = (s: Stats | Dirent): FileInfo['kind'] => (s.isFile() ? 'file' : s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'symlink' : 'other');

/** A stat as the Host port gives it: kind, size, times, permission bits, owner and inode. */
export const infoOf = (s: Stats): FileInfo => ({
  kind: kindOf(s),
  size: s.size,
  mtimeMs: s.mtimeMs,
  ctimeMs: s.ctimeMs,
  ino: s.ino,
  mode: s.mode & 0o7777,
  uid: s.uid,
});
