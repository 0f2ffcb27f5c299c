import { SluiceError, type Host } from '../../../core/index.ts';
import { runGit } from './run-git.ts';

export interface RepositoryRoot {
  /** The git work tree's top folder (absolute), or null outside git. */
  top: string | null;
  /** The project's folder inside it, `''` or ending in `/` (git's --show-prefix). */
  prefix: string;
}

const cache = new Map<string, Promise<RepositoryRoot>>();

/** Where the project sits in its git repository; the project may be a subfolder of it. */
export function repositoryRoot(host: Host, root: string): Promise<RepositoryRoot> {
  let found = cache.get(root);
  if (!found) {
    found = runGit(host, root, ['rev-parse', '--show-toplevel', '--show-prefix']).then((r) => {
      if (r.code !== 0) return { top: null, prefix: '' };
      const [top, prefix = ''] = r.stdout.split('\n');
      if (!top) throw new SluiceError('GIT_FAILED', { message: 'git rev-parse printed no repository top' });
      return { top, prefix };
    });
    cache.set(root, found);
    // A failed answer is not remembered: the next call asks git again.
    found.catch(() => cache.get(root) === found && cache.delete(root));
  }
  return found;
}

/** A path git printed relative to the repository's top, made relative to the project (null: outside it). */
export function fromRepository(prefix: string, path: string): string | null {
  if (prefix === '') return path;
  return path.startsWith(prefix) ? path.slice(prefix.length) : null;
}
