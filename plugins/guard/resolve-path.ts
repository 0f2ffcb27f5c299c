import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path';

/** `~` and `~/x` as the shell expands them; other words unchanged. */
export function expandTilde(word: string, home = homedir()): string {
  return word === '~' ? home : word.startsWith('~/') ? join(home, word.slice(2)) : word;
}

/** The absolute, normalized path a word names from `cwd`. */
export function absolutePath(word: string, cwd: string): string {
  const p = expandTilde(word);
  return normalize(isAbsolute(p) ? p : resolve(cwd, p)).replace(/(.)\/+$/, '$1');
}

/**
 * The path with symlinks resolved: the deepest existing ancestor through realpath, the rest
 * appended. A link `notes.md -> .sdlc/state.yaml` then counts as the state file it writes.
 */
export function realPath(path: string, depth = 0): string {
  // Longer than the system takes (PATH_MAX): no call can open it, and walking it up costs its length.
  if (path.length > PATH_MAX) return path;
  let existing = path;
  const rest: string[] = [];
  while (!lstatQuiet(existing)) {
    const parent = dirname(existing);
    if (parent === existing) return path;
    rest.unshift(existing.slice(parent.length).replace(/^\//, ''));
    existing = parent;
  }
  try {
    // A dangling link: writing through it creates its target, so follow it by hand.
    if (!existsSync(existing) && depth < 8) return realPath(join(resolve(dirname(existing), readlinkSync(existing)), ...rest), depth + 1);
    return join(realpathSync(existing), ...rest);
  } catch {
    return path;
  }
}

const PATH_MAX = 4096;

/** lstat without throwing: a name too long, or a file in the way of a folder, is no entry. */
function lstatQuiet(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** Resolved paths of one judgement (a long command names the same paths again and again); see forgetPaths. */
const resolved = new Map<string, string>();
export const forgetPaths = (): void => resolved.clear();

/** Both the path as named and as resolved, for checking each. */
export function pathsOf(word: string, cwd: string): string[] {
  const abs = absolutePath(word, cwd);
  let real = resolved.get(abs);
  if (real === undefined) resolved.set(abs, (real = realPath(abs)));
  return real === abs ? [abs] : [abs, real];
}
