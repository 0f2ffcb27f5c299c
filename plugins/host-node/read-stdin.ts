import { HostTooLargeError } from '../../core/index.ts';

/** Host.readStdin: the whole of stdin, refused (not buffered on) once it passes `maxBytes`. */
export async function readStdin(maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new HostTooLargeError('-', size, maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}
