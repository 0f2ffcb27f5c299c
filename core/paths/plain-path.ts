import { normalize, resolve } from 'pathe';

/**
 * pathe's normalize walks a path one character at a time, which a short command runs cold (in V8's
 * interpreter): checking every artifact path of a `gate` that way was a few ms. Most paths need no
 * walk at all. These two answer exactly as pathe does, taking a shortcut only for paths it would
 * return unchanged: a backslash, a colon (drive letters), a doubled slash or a `.`/`..` segment
 * always takes the long way.
 */
const NEEDS_WALK = /[\\:]|\/\/|(?:^|\/)\.\.?(?:\/|$)/;

/** `normalize(path)`. */
export function normalizePath(path: string): string {
  return path.startsWith('/') && !NEEDS_WALK.test(path) ? path : normalize(path);
}

/** `resolve(root, path)` for a relative `path`. */
export function resolveUnder(root: string, path: string): string {
  if (root.startsWith('/') && path !== '' && !path.startsWith('/') && !path.endsWith('/') && !NEEDS_WALK.test(root) && !NEEDS_WALK.test(path)) {
    const base = root.length > 1 && root.endsWith('/') ? root.slice(0, -1) : root;
    return base === '/' ? `/${path}` : `${base}/${path}`;
  }
  return resolve(root, path);
}
