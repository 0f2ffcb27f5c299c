import { HostIoError, HostNotFoundError, HostNotRegularError, HostTooLargeError } from '../host/host.ts';
import type { ErrorCode } from './catalog.ts';

/**
 * What the operating system refused, as a catalogued error naming the file: a full disk or a
 * read-only mount is the user's to fix, not "a bug in sluice". Host errors carry the path sluice
 * asked for; a raw system error (from a plugin using node:fs directly) carries its own.
 */
export function systemErrorAsCatalogued(error: unknown): { code: ErrorCode; file?: string; message: string } | undefined {
  if (error instanceof HostNotFoundError) return { code: 'FILE_NOT_FOUND', file: error.path, message: 'file does not exist' };
  if (error instanceof HostNotRegularError)
    return { code: 'FILE_NOT_REGULAR', file: error.path, message: `is a ${error.kind}, not a regular file; nothing was read` };
  if (error instanceof HostTooLargeError) return { code: 'FILE_TOO_LARGE', file: error.path, message: error.message.replace(`${error.path} is`, 'file is') };
  const code = errnoCode(error);
  if (code === undefined) return undefined;
  const file = error instanceof HostIoError ? error.path : (error as { path?: unknown }).path;
  const catalogued = ERRNO[code];
  if (catalogued === undefined || typeof file !== 'string') return undefined;
  return { code: catalogued.code, file, message: catalogued.message };
}

const ERRNO: Record<string, { code: ErrorCode; message: string }> = {
  EACCES: { code: 'FILE_ACCESS_DENIED', message: 'permission denied (EACCES)' },
  EPERM: { code: 'FILE_ACCESS_DENIED', message: 'operation not permitted (EPERM)' },
  EROFS: { code: 'FILE_SYSTEM_READ_ONLY', message: 'the file system is read-only (EROFS)' },
  // Replacing a file that is itself a mount point: how a sandbox (Claude Code's, bwrap) binds a record read-only.
  EBUSY: { code: 'FILE_SYSTEM_READ_ONLY', message: 'is mounted over or held open (EBUSY): a sandbox keeps it read-only' },
  ENOSPC: { code: 'DISK_FULL', message: 'no space left on the device (ENOSPC)' },
  EDQUOT: { code: 'DISK_FULL', message: 'disk quota exceeded (EDQUOT)' },
  EISDIR: { code: 'FILE_NOT_REGULAR', message: 'is a directory, not a regular file' },
  ENXIO: { code: 'FILE_NOT_REGULAR', message: 'is a FIFO or device with no other end (ENXIO), not a regular file' },
  ELOOP: { code: 'FILE_NOT_REGULAR', message: 'is a symbolic link sluice does not follow here (ELOOP)' },
  EIO: { code: 'FILE_IO_FAILED', message: 'input/output error (EIO)' },
  EMFILE: { code: 'FILE_IO_FAILED', message: 'too many open files (EMFILE)' },
  ENAMETOOLONG: { code: 'FILE_IO_FAILED', message: 'file name too long (ENAMETOOLONG)' },
};

function errnoCode(error: unknown): string | undefined {
  if (error instanceof HostIoError) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}
