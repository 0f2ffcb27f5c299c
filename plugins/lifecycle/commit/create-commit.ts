import { SluiceError } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { artifactInvalid } from '../readers/read-artifact.ts';
import { readGitCommit, type GitCommit } from '../readers/git-commit-reader.ts';
import { commitMessage } from './commit-intent.ts';
import type { CommitIntent } from '../state/workflow-state-schema.ts';
import { diffStat } from './diff-stat.ts';
import { isSluiceRuntimePath } from '../workspace/git-status.ts';
import type { WorkspaceSnapshot } from '../workspace/workspace-fingerprint.ts';
import { git } from '../workspace/run-git.ts';
import type { CommitPreview } from './authorize-commit.ts';
import { covers, exactlyCovers } from './path-coverage.ts';

export interface CommitRequestInput {
  message: string;
  paths: string[];
  /** The artifact the request came from, for errors. */
  file: string;
}

/**
 * The changed files the requested paths cover, as git reports them now (or in `seen`, a snapshot the caller
 * just took); each requested path must cover one.
 */
export async function filesToCommit(
  lc: LifecycleContext,
  request: CommitRequestInput,
  seen?: WorkspaceSnapshot | null,
): Promise<{ path: string; untracked: boolean; status: string }[]> {
  const status = (seen === undefined ? await lc.workspace() : seen)?.status;
  if (!status) throw new SluiceError('GIT_FAILED', { message: `${lc.root} is not a git work tree; the lifecycle commits with git` });
  const changed = status.entries.filter((e) => !isSluiceRuntimePath(e.path));
  return request.paths.flatMap((path, i) => {
    const entries = changed.filter((e) => covers(path, e.path));
    if (entries.length === 0)
      throw artifactInvalid(
        request.file,
        `paths.${i}`,
        `${path} has no uncommitted change (or is ignored by git); if the work is already committed, a person adopts that commit: sluice lifecycle adopt-commit ${slugOf(request.file)} COMMIT`,
      );
    return entries.map((e) => ({ path: e.path, untracked: e.type === '?', status: e.type === '?' ? 'A' : e.xy.replace(/\./g, '').slice(0, 1) || 'M' }));
  });
}

/** The requirement a commit request belongs to: its artifact folder's name. */
const slugOf = (requestFile: string) => requestFile.split('/').at(-2) ?? 'SLUG';

/** What the commit will contain: message, and per file add/modify/delete with its diff stat. */
export async function previewCommit(lc: LifecycleContext, slug: string, request: CommitRequestInput, seen?: WorkspaceSnapshot | null): Promise<CommitPreview> {
  const files = await filesToCommit(lc, request, seen);
  const stats = await diffStat(lc, files);
  return {
    slug,
    message: commitMessage(request.message, slug),
    files: files.map(({ path, status }) => ({ path, status, ...(stats.get(path) ?? { added: null, removed: null }) })),
  };
}

/**
 * Commits in one process are serialized, and so is everything that must see HEAD hold still around one:
 * the last evidence check, the intent, the commit and its record (another requirement's commit in between
 * would look like a change to the code).
 */
export function withCommitLock<T>(lc: LifecycleContext, fn: () => Promise<T>): Promise<T> {
  return lc.kernel.queue.exclusive(`lifecycle:git-commit:${lc.root}`, fn);
}

/**
 * Makes the commit the intent describes, with git's plumbing and nothing the repository configures
 * allowed to run (hookless-git.ts): the intent's tree on its parent, with its exact message
 * (`commit-tree`), then HEAD moved to it only if HEAD is still that parent (`update-ref` with the old
 * value: a commit made meanwhile is never overwritten), then the index of the committed paths brought to
 * the commit, as `git commit --only` would leave it. Call it under withCommitLock. Another process
 * holding git's index lock is waited for briefly. Returns the commit sluice made, read back from git.
 */
export async function createCommit(lc: LifecycleContext, intent: CommitIntent, config: readonly string[]): Promise<GitCommit> {
  const o = { config };
  const sha = (
    await git(lc.host, lc.root, ['commit-tree', intent.tree, ...(intent.parent ? ['-p', intent.parent] : []), '--no-gpg-sign', '-F', '-'], {
      ...o,
      // Verbatim: the message in git is byte for byte the one recorded in the commit intent.
      input: `${intent.message}\n`,
    })
  ).trim();
  const subject = intent.message.split('\n')[0];
  try {
    await git(lc.host, lc.root, ['update-ref', '-m', `commit: ${subject}`, 'HEAD', sha, intent.parent ?? ''], o);
  } catch (error) {
    if (!(error instanceof SluiceError)) throw error;
    throw new SluiceError('GIT_FAILED', {
      message: `HEAD moved while sluice was committing (it is no longer ${intent.parent?.slice(0, 12) ?? 'unborn'}): nothing was committed; ${error.detail}`,
    });
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await git(lc.host, lc.root, ['reset', '-q', sha, '--', ...intent.paths], o);
      break;
    } catch (error) {
      const busy = error instanceof SluiceError && /index\.lock|unable to create .*\.lock/i.test(error.detail);
      if (!busy || attempt >= 5) throw error;
      await lc.host.sleep(100 * attempt);
    }
  }
  const commit = await readGitCommit(lc.host, lc.root, sha, config);
  if (!exactlyCovers(intent.paths, commit.paths)) {
    throw new SluiceError('GIT_FAILED', {
      message: `commit ${commit.sha.slice(0, 12)} contains ${commit.paths.join(', ')} instead of exactly ${intent.paths.join(', ')}`,
    });
  }
  return commit;
}
