import { SluiceError, type Host } from '../../../core/index.ts';
import { repositoryRoot } from './repository-root.ts';
import { hooklessGitConfig } from './hookless-git.ts';
import { runGit } from './run-git.ts';

export interface StatusEntry {
  /** `1` changed, `2` renamed/copied, `u` unmerged, `?` untracked. */
  type: '1' | '2' | 'u' | '?';
  /** Index and worktree status letters (`.M`, `A.`, `??`). */
  xy: string;
  path: string;
}

export interface GitStatus {
  /** The commit HEAD points at; null before the first commit. */
  head: string | null;
  entries: StatusEntry[];
}

/** sluice's own runtime data never counts as a change to the workspace. */
export const IGNORED_PREFIXES = ['.prizmkit/state/', '.sluice/'];
export const isSluiceRuntimePath = (path: string) => IGNORED_PREFIXES.some((p) => path.startsWith(p));

/**
 * `git status --porcelain=v2` in one call: HEAD from the branch header, then every tracked change and
 * every untracked file that is not ignored. Returns null outside a git work tree.
 */
export async function readGitStatus(host: Host, root: string): Promise<GitStatus | null> {
  // Only the project's folder: it may be a subfolder of the repository (git prints paths from the top).
  // No fsmonitor, hook or filter the repository configures runs for sluice's view of the workspace (hookless-git.ts):
  // status cleans every changed file to compare it, and a filter could hide a change from the fingerprint.
  const r = await runGit(host, root, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--no-renames', '--', '.'], {
    config: await hooklessGitConfig(host, root),
  });
  if (r.code !== 0) {
    if (/not a git repository/i.test(r.stderr)) return null;
    throw new SluiceError('GIT_FAILED', { message: `git status: ${r.stderr.trim().split('\n')[0] ?? `exit code ${r.code}`}` });
  }
  const status = parsePorcelainV2(r.stdout);
  const { prefix } = await repositoryRoot(host, root);
  if (prefix === '') return status;
  return { head: status.head, entries: status.entries.flatMap((e) => (e.path.startsWith(prefix) ? [{ ...e, path: e.path.slice(prefix.length) }] : [])) };
}

export function parsePorcelainV2(out: string): GitStatus {
  const records = out.split('\0');
  let head: string | null = null;
  const entries: StatusEntry[] = [];
  for (let i = 0; i < records.length; i++) {
    const rec = records[i];
    if (rec === '') continue;
    if (rec.startsWith('# branch.oid ')) {
      const oid = rec.slice('# branch.oid '.length);
      head = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
      continue;
    }
    const type = rec[0];
    if (type === '?') entries.push({ type: '?', xy: '??', path: rec.slice(2) });
    // Fields before the path: `1` has 8, `2` has 9 (plus the original path as its own record), `u` has 10.
    else if (type === '1') entries.push({ type, xy: rec.slice(2, 4), path: fieldsAfter(rec, 8) });
    else if (type === '2') {
      entries.push({ type, xy: rec.slice(2, 4), path: fieldsAfter(rec, 9) });
      i++;
    } else if (type === 'u') entries.push({ type, xy: rec.slice(2, 4), path: fieldsAfter(rec, 10) });
  }
  return { head, entries };
}

function fieldsAfter(rec: string, n: number): string {
  let at = 0;
  for (let k = 0; k < n; k++) at = rec.indexOf(' ', at) + 1;
  return rec.slice(at);
}
