import { open } from 'node:fs/promises';
import { HostTooLargeError } from '../../core/index.ts';

/**
 * Reads a whole file, refusing one over `maxBytes` before reading any of it (a 100 MB file costs
 * one fstat). The size from that fstat also sizes the buffer: `FileHandle.readFile` would fstat a
 * second time, one more thread-pool round trip on every state read. Like readFile, a regular file
 * is read up to the size it had at the fstat; a size of 0 (pipes, /proc) falls back to readFile,
 * which reads until end of file.
 */
export async function readBounded(path: string, maxBytes: number | undefined): Promise<Uint8Array> {
  const fh = await open(path, 'r');
  try {
    if (maxBytes === undefined) return await fh.readFile();
    const info = await fh.stat();
    if (info.size > maxBytes) throw new HostTooLargeError(path, info.size, maxBytes);
    if (!info.isFile() || info.size === 0) return await fh.readFile();
    const buffer = Buffer.allocUnsafe(info.size);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await fh.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === buffer.length ? buffer : buffer.subarray(0, filled);
  } finally {
    await fh.close();
  }
}
