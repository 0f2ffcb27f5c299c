import type { LifecycleContext } from '../lifecycle-context.ts';
import type { CommitIntent } from '../state/workflow-state-schema.ts';
import { HOOKLESS_SETTINGS } from '../workspace/hookless-git.ts';
import { git, runGit } from '../workspace/run-git.ts';

/** The paths (relative to the project) a commit intent's tree changes against its parent. */
export async function treeChanges(lc: LifecycleContext, intent: Pick<CommitIntent, 'tree' | 'parent'>, config: readonly string[]): Promise<string[]> {
  const args = intent.parent
    ? ['diff-tree', '-r', '-z', '--name-only', '--no-renames', '--no-ext-diff', '--relative', `${intent.parent}^{tree}`, intent.tree]
    : ['ls-tree', '-r', '-z', '--name-only', intent.tree];
  return (await git(lc.host, lc.root, args, { config })).split('\0').filter(Boolean);
}

/**
 * HEAD, when it no longer contains `sha` (the commit was amended, reset or replaced by one sluice did
 * not make); undefined while `sha` is HEAD or in its history. Outside git (no HEAD) there is nothing to say.
 */
export async function foreignHead(lc: LifecycleContext, sha: string): Promise<string | undefined> {
  const head = await runGit(lc.host, lc.root, ['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { config: HOOKLESS_SETTINGS });
  const at = head.stdout.trim();
  if (head.code !== 0 || at === '' || at === sha) return undefined;
  const contains = await runGit(lc.host, lc.root, ['merge-base', '--is-ancestor', sha, at], { config: HOOKLESS_SETTINGS });
  return contains.code === 0 ? undefined : at;
}
