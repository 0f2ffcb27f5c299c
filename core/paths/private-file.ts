import { SluiceError } from '../errors/sluice-error.ts';
import type { FileInfo, Host } from '../host/host.ts';

/**
 * A file that carries the person's authority (a commit-grant key, a signing key, the queue key, the
 * record key, a user config that grants commits) counts only if nobody else could have written it,
 * as ssh's StrictModes judges `~/.ssh`: owned by this user (or root), a regular file, not writable by
 * group or others, in a folder nobody else can write. A secret (`secret: true`) must not be readable
 * by others either, as ssh refuses a private key it calls "too open". A platform without modes or
 * owners (Windows) is not checked.
 *
 * Returns the file's info, or null when it does not exist (the caller decides whether that is an
 * error); throws PRIVATE_FILE_UNSAFE naming the file and its mode otherwise.
 */
export async function checkPrivateFile(host: Host, path: string, o: { what: string; secret?: boolean }): Promise<FileInfo | null> {
  const info = await host.lstat(path);
  if (info === null) return null;
  const unsafe = (message: string, file = path) => new SluiceError('PRIVATE_FILE_UNSAFE', { file, message: `${o.what} ${file} ${message}` });
  if (info.kind === 'symlink') {
    // A link is judged by what it names, and the link's own folder still has to be private.
    const target = await host.stat(path);
    if (target === null) return null;
    checkInfo(host, target, o.secret === true, (m) => unsafe(m));
  } else checkInfo(host, info, o.secret === true, (m) => unsafe(m));
  const cut = path.lastIndexOf('/');
  const folder = cut <= 0 ? '/' : path.slice(0, cut);
  const dir = await host.stat(folder);
  if (dir && dir.mode !== undefined && dir.mode & 0o022 && !(dir.mode & 0o1000))
    throw unsafe(`is in a folder others can write (mode ${octal(dir.mode)}): chmod 700 ${folder}`, path);
  if (dir && !ownedByUs(host, dir)) throw unsafe(`is in a folder owned by uid ${dir.uid}, not by you`, path);
  return info;
}

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0');

function ownedByUs(host: Host, info: FileInfo): boolean {
  const me = host.userId();
  return me === undefined || info.uid === undefined || info.uid === me || info.uid === 0;
}

function checkInfo(host: Host, info: FileInfo, secret: boolean, fail: (message: string) => Error): void {
  if (info.kind !== 'file') throw fail(`is a ${info.kind === 'dir' ? 'folder' : info.kind}, not a regular file`);
  if (!ownedByUs(host, info)) throw fail(`belongs to uid ${info.uid}, not to you (uid ${host.userId()})`);
  if (info.mode === undefined) return;
  if (info.mode & 0o022) throw fail(`is writable by ${info.mode & 0o002 ? 'everyone' : 'its group'} (mode ${octal(info.mode)}): chmod 600 it`);
  if (secret && info.mode & 0o044) throw fail(`is readable by ${info.mode & 0o004 ? 'everyone' : 'its group'} (mode ${octal(info.mode)}): chmod 600 it`);
}
