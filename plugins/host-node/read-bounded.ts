import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { HostNotRegularError, HostTooLargeError, type FileInfo } from '../../core/index.ts';
import { infoOf } from './file-info.ts';

/**
 * O_NONBLOCK so that opening a FIFO with no writer returns at once instead of waiting forever; it
 * changes nothing for a regular file, the only kind read past the fstat below.
 */
export const OPEN_READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a whole regular file through one descriptor: open, fstat that descriptor, refuse anything
 * else (a FIFO would hang, `/dev/zero` never ends), refuse one over `maxBytes` before reading any
 * of it, then read at most the fstat's size. Checking the descriptor, not the path, leaves no window
 * for the path to be swapped between check and read. A regular file reporting size 0 (/proc) is
 * read until its end, but never past `maxBytes`.
 *
 * The calls are synchronous: a local read takes microseconds, while each of the four awaited calls
 * of a FileHandle costs a thread-pool round trip and a promise, which was a tenth of a gate run that
 * reads a few dozen small files. The O_NONBLOCK open keeps a FIFO from ever blocking it. Synchronous
 * callers (the trust store, read once at start-up) call it directly; the Host wraps it in a promise.
 */
export function readBoundedSync(path: string, maxBytes?: number): Buffer {
  const fd = openSync(path, OPEN_READ_FLAGS);
  try {
    const info = fstatSync(fd);
    requireRegular(path, info);
    if (maxBytes !== undefined && info.size > maxBytes) throw new HostTooLargeError(path, info.size, maxBytes);
    if (info.size === 0) return readToEnd(fd, path, maxBytes);
    const buffer = Buffer.allocUnsafe(info.size);
    let filled = 0;
    while (filled < buffer.length) {
      const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === buffer.length ? buffer : buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

/** readBoundedSync behind the Host's async port. */
export const readBounded = async (path: string, maxBytes: number | undefined): Promise<Uint8Array> => readBoundedSync(path, maxBytes);

/**
 * Host.readHead: the first `maxBytes` of a regular file and the fstat of the descriptor read (so the
 * info describes the bytes returned), with readBounded's rules: no blocking open, regular files only.
 */
export function readHeadSync(path: string, maxBytes: number): { data: Uint8Array; info: FileInfo } {
  const fd = openSync(path, OPEN_READ_FLAGS);
  try {
    const stats = fstatSync(fd);
    requireRegular(path, stats);
    // A size-0 regular file (/proc) may still hold bytes: read up to the limit.
    const want = Math.min(stats.size || maxBytes, maxBytes);
    // Sized by the file: a small one (thousands of frontmatters in a scan) comes from Node's buffer pool.
    const buffer = Buffer.allocUnsafe(want);
    let filled = 0;
    while (filled < want) {
      const n = readSync(fd, buffer, filled, want - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return { data: buffer.subarray(0, filled), info: infoOf(stats) };
  } finally {
    closeSync(fd);
  }
}

/** Throws HostNotRegularError unless `info` (an fstat of an open descriptor) is a regular file. */
export function requireRegular(path: string, info: Stats): void {
  if (info.isFile()) return;
  const kind = info.isDirectory()
    ? 'directory'
    : info.isFIFO()
      ? 'FIFO'
      : info.isCharacterDevice()
        ? 'character device'
        : info.isBlockDevice()
          ? 'block device'
          : info.isSocket()
            ? 'socket'
            : 'special file';
  throw new HostNotRegularError(path, kind);
}

function readToEnd(fd: number, path: string, maxBytes: number | undefined): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const bytesRead = readSync(fd, chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (maxBytes !== undefined && total > maxBytes) throw new HostTooLargeError(path, total, maxBytes);
    chunks.push(chunk.subarray(0, bytesRead));
  }
}

/**
 * Opens a file for writing (created if missing) without ever blocking: a FIFO with no reader fails
 * at once (ENXIO) instead of waiting, and anything that opens but is not a regular file is refused.
 */
export async function openForWriting(path: string, append: boolean): Promise<FileHandle> {
  const flags = constants.O_WRONLY | constants.O_CREAT | (append ? constants.O_APPEND : constants.O_TRUNC) | (constants.O_NONBLOCK ?? 0);
  const fh = await open(path, flags, 0o644);
  try {
    requireRegular(path, await fh.stat());
  } catch (error) {
    await fh.close();
    throw error;
  }
  return fh;
}
