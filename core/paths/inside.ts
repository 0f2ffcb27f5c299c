import { isAbsolute, relative } from 'pathe';
import { SluiceError } from '../errors/sluice-error.ts';
import { HostNotFoundError, type Host } from '../host/host.ts';
import { normalizePath, resolveUnder } from './plain-path.ts';

/**
 * Resolves `path` against `root` and refuses anything that lands outside it
 * (`../../etc/passwd`, absolute paths elsewhere). Lexical only; see `realPathInside` for symlinks.
 */
export function resolveInside(root: string, path: string, what = 'path'): string {
  if (path.includes('\0')) throw new SluiceError('PATH_OUTSIDE_PROJECT', { message: `${what} contains a NUL byte` });
  const full = normalizePath(isAbsolute(path) ? path : resolveUnder(root, path));
  if (!isInside(root, full)) {
    throw new SluiceError('PATH_OUTSIDE_PROJECT', { message: `${what} ${JSON.stringify(path)} resolves outside ${root}` });
  }
  return full;
}

export function isInside(root: string, full: string): boolean {
  const base = normalizePath(root);
  const path = normalizePath(full);
  if (isAbsolute(base) && isAbsolute(path)) {
    // What `relative` would say, without resolving both paths again: every gate checks each artifact
    // path this way, and `relative` was a tenth of a short `gate`. Normalized absolute paths are inside
    // when they are the root or continue it past a separator (segments compare exactly, as there).
    const prefix = base.endsWith('/') ? base : `${base}/`;
    return path === base || path.startsWith(prefix) || `${path}/` === prefix;
  }
  const rel = relative(base, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Like `resolveInside`, and also follows symlinks: a link inside the project that points
 * outside it is refused. A path that does not exist yet is checked through its nearest existing parent.
 */
export async function realPathInside(host: Host, root: string, path: string, what = 'path'): Promise<string> {
  const full = resolveInside(root, path, what);
  const realRoot = await host.realpath(root);
  let probe = full;
  let rest = '';
  for (;;) {
    try {
      const real = await host.realpath(probe);
      const target = rest === '' ? real : `${real}/${rest}`;
      if (!isInside(realRoot, target)) {
        throw new SluiceError('PATH_OUTSIDE_PROJECT', { message: `${what} ${JSON.stringify(path)} leads outside ${root} through a symlink` });
      }
      return full;
    } catch (error) {
      if (!(error instanceof HostNotFoundError)) throw error;
      const cut = probe.lastIndexOf('/');
      if (cut <= 0) return full;
      rest = rest === '' ? probe.slice(cut + 1) : `${probe.slice(cut + 1)}/${rest}`;
      probe = probe.slice(0, cut);
    }
  }
}
