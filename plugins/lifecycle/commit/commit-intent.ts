import { isAbsolute, join } from 'pathe';
import { SluiceError } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { REQUIREMENT_TRAILER, type GitCommit } from '../readers/git-commit-reader.ts';
import type { CommitIntent } from '../state/workflow-state-schema.ts';
import { git, runGit } from '../workspace/run-git.ts';

/** The exact message sluice commits with: the request's message, a blank line, the requirement trailer. */
export function commitMessage(message: string, slug: string): string {
  return `${message.trim()}\n\n${REQUIREMENT_TRAILER}: ${slug}`;
}

/**
 * What `git commit --only PATHS` is about to produce, computed in a private index: HEAD's tree with the
 * requested paths as they are in the work tree. Recorded (journaled) before the commit; afterwards only a
 * commit with this tree, parent and message counts as the requirement's.
 */
export async function computeCommitIntent(
  lc: LifecycleContext,
  slug: string,
  request: { message: string; paths: string[] },
  config: readonly string[] = [],
): Promise<CommitIntent> {
  // The private index's path, then HEAD's commit (none before the first commit: exit 1), in one git process.
  const asked = await runGit(lc.host, lc.root, ['rev-parse', '--git-path', `sluice-intent-${lc.host.pid}.index`, '--verify', '-q', 'HEAD^{commit}'], {
    config,
  });
  const [indexPath, head = ''] = asked.stdout.split('\n').map((l) => l.trim());
  if (!indexPath || (asked.code !== 0 && head !== ''))
    throw new SluiceError('GIT_FAILED', { message: `git rev-parse: ${asked.stderr.trim().split('\n')[0] || `exit code ${asked.code}`}` });
  const parent = asked.code === 0 && head !== '' ? head : null;
  const index = isAbsolute(indexPath) ? indexPath : join(lc.root, indexPath);
  const o = { env: { GIT_INDEX_FILE: index }, config };
  try {
    await git(lc.host, lc.root, parent ? ['read-tree', parent] : ['read-tree', '--empty'], o);
    await git(lc.host, lc.root, ['add', '-A', '--', ...request.paths], o);
    const tree = (await git(lc.host, lc.root, ['write-tree'], o)).trim();
    return { tree, parent, message: commitMessage(request.message, slug), paths: [...request.paths], at: lc.now() };
  } finally {
    await lc.host.remove(index).catch(() => undefined);
  }
}

/** Why a commit is not the one the intent describes, or undefined when it is. */
export function intentMismatch(intent: CommitIntent | null | undefined, commit: GitCommit): string | undefined {
  if (!intent) return 'sluice recorded no intent to commit';
  if (commit.tree !== intent.tree) return `its tree ${commit.tree.slice(0, 12)} is not the recorded ${intent.tree.slice(0, 12)}`;
  if ((commit.parents[0] ?? null) !== intent.parent || commit.parents.length > 1)
    return `its parent is not the recorded ${intent.parent?.slice(0, 12) ?? '(none)'}`;
  if (commit.message.trim() !== intent.message.trim()) return 'its message is not the recorded one';
  return undefined;
}
