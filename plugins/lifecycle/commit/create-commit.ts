import { SluiceError } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { artifactInvalid } from '../readers/read-artifact.ts';
import { readGitCommit, type GitCommit } from '../readers/git-commit-reader.ts';
import { commitMessage } from './commit-intent.ts';
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
    if (entries.length === 0) throw artifactInvalid(request.file, `paths.${i}`, `${path} has no uncommitted change (or is ignored by git)`);
    return entries.map((e) => ({ path: e.path, untracked: e.type === '?', status: e.type === '?' ? 'A' : e.xy.replace(/\./g, '').slice(0, 1) || 'M' }));
  });
}

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
 * Stages exactly the requested paths and commits only them (`git commit --only`), so anything else in
 * the index or the workspace stays out; call it under withCommitLock. Another process holding git's
 * index lock is waited for briefly. The result is read back from git and must match the request.
 */
export async function createCommit(lc: LifecycleContext, slug: string, request: CommitRequestInput): Promise<GitCommit> {
  {
    for (let attempt = 1; ; attempt++) {
      try {
        await git(lc.host, lc.root, ['add', '-A', '--', ...request.paths]);
        // Verbatim: the message in git is byte for byte the one recorded in the commit intent.
        await git(lc.host, lc.root, ['commit', '-q', '--only', '--no-verify', '--cleanup=verbatim', '-F', '-', '--', ...request.paths], {
          input: `${commitMessage(request.message, slug)}\n`,
        });
        break;
      } catch (error) {
        const busy = error instanceof SluiceError && /index\.lock|unable to create .*\.lock/i.test(error.detail);
        if (!busy || attempt >= 5) throw error;
        await lc.host.sleep(100 * attempt);
      }
    }
    const commit = await readGitCommit(lc.host, lc.root, 'HEAD');
    if (!exactlyCovers(request.paths, commit.paths)) {
      throw new SluiceError('GIT_FAILED', {
        message: `commit ${commit.sha.slice(0, 12)} contains ${commit.paths.join(', ')} instead of exactly ${request.paths.join(', ')}`,
      });
    }
    return commit;
  }
}
