import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { MessageFile } from './commit-message.ts';

/** The most of a commit message file the guard reads: a longer one is asked about, not half-checked. */
export const MESSAGE_FILE_LIMIT = 64 * 1024;

/**
 * The guard's reader for `git commit -F FILE`: opened non-blocking (a FIFO must not hang the hook),
 * only a regular file is read, and at most MESSAGE_FILE_LIMIT bytes of it (a file that grows or lies
 * about its size, as /proc files do, is cut off there and reported too large).
 */
export function readMessageFile(path: string): MessageFile {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    return { problem: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable' };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { problem: 'not a regular file' };
    if (st.size > MESSAGE_FILE_LIMIT) return { problem: 'too large' };
    const buf = Buffer.alloc(MESSAGE_FILE_LIMIT + 1);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, n);
    return n > MESSAGE_FILE_LIMIT ? { problem: 'too large' } : { text: buf.toString('utf8', 0, n) };
  } catch {
    return { problem: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}
