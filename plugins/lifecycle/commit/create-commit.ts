import { SluiceError } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { artifactInvalid } from '../readers/read-artifact.ts';
import { readGitCommit, REQUIREMENT_TRAILER, type GitCommit } from '../readers/git-commit-reader.ts';
import { readGitStatus } from '../workspace/git-status.ts';
import { git } from '../workspace/run-git.ts';
import type { CommitPreview } from './authorize-commit.ts';

export interface CommitRequestInput {
  message: string;
  paths: string[];
  /** The artifact the request came from, for errors. */
  file: string;
}

/** What the commit will contain: each requested path must have an uncommitted change. */
export async function previewCommit(lc: LifecycleContext, slug: string, request: CommitRequestInput): Promise<CommitPreview> {
  const status = await readGitStatus(lc.host, lc.root);
  if (!status) throw new SluiceError('GIT_FAILED', { message: `${lc.root} is not a git work tree; the lifecycle commits with git` });
  const byPath = new Map(status.entries.map((e) => [e.path, e]));
  const files = request.paths.map((path, i) => {
    const entry = byPath.get(path);
    if (!entry) throw artifactInvalid(request.file, `paths.${i}`, `${path} has no uncommitted change (or is ignored by git)`);
    return { path, status: entry.type === '?' ? 'A' : entry.xy.replace(/\./g, '').slice(0, 1) || 'M' };
  });
  return { slug, message: `${request.message.trim()}\n\n${REQUIREMENT_TRAILER}: ${slug}`, files };
}

/**
 * Stages exactly the requested paths and commits only them (`git commit --only`), so anything else in
 * the index or the workspace stays out. Commits in one process are serialized; another process holding
 * git's index lock is waited for briefly. The result is read back from git and must match the request.
 */
export async function createCommit(lc: LifecycleContext, slug: string, request: CommitRequestInput): Promise<GitCommit> {
  return lc.kernel.queue.exclusive(`lifecycle:git-commit:${lc.root}`, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        await git(lc.host, lc.root, ['add', '-A', '--', ...request.paths]);
        await git(lc.host, lc.root, ['commit', '-q', '--only', '-F', '-', '--trailer', `${REQUIREMENT_TRAILER}: ${slug}`, '--', ...request.paths], { input: request.message.trim() });
        break;
      } catch (error) {
        const busy = error instanceof SluiceError && /index\.lock|unable to create .*\.lock/i.test(error.detail);
        if (!busy || attempt >= 5) throw error;
        await lc.host.sleep(100 * attempt);
      }
    }
    const commit = await readGitCommit(lc.host, lc.root, 'HEAD');
    const want = [...request.paths].sort();
    const got = [...commit.paths].sort();
    if (want.length !== got.length || want.some((p, i) => p !== got[i])) {
      throw new SluiceError('GIT_FAILED', { message: `commit ${commit.sha.slice(0, 12)} contains ${got.join(', ')} instead of exactly ${want.join(', ')}` });
    }
    return commit;
  });
}
