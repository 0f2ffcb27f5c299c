import { SluiceError, type Host } from '../../../core/index.ts';
import { fromRepository, repositoryRoot } from '../workspace/repository-root.ts';
import { HOOKLESS_SETTINGS } from '../workspace/hookless-git.ts';
import { runGit } from '../workspace/run-git.ts';

/** Every lifecycle commit carries this trailer, so recovery can find it in git when state is lost. */
export const REQUIREMENT_TRAILER = 'Lifecycle-Requirement';

export interface GitCommit {
  sha: string;
  /** The commit's tree and its parents (none for a root commit). */
  tree: string;
  parents: string[];
  message: string;
  /** Files the commit changed, relative to the repository root. */
  paths: string[];
  author: string;
}

/** The commit as git has it: the authority on whether a requirement was committed. */
export async function readGitCommit(host: Host, root: string, rev: string, config: readonly string[] = HOOKLESS_SETTINGS): Promise<GitCommit> {
  // One call: `<sha>\0<tree>\0<parents>\0<author>\0<message>\0\n<file>\0<file>\0…` (the root commit lists its files too).
  const log = await runGit(host, root, ['log', '-1', '-z', '--name-only', '--no-renames', '--format=%H%x00%T%x00%P%x00%an <%ae>%x00%B', rev, '--'], { config });
  if (log.code !== 0) throw new SluiceError('ARTIFACT_MISSING', { message: `commit ${rev} is not in git`, field: 'commit.sha' });
  const [sha, tree, parents, author, message, ...files] = log.stdout.split('\0');
  // Five fields or it is not a whole record (output cut short): a named error, never a half-read commit.
  if (message === undefined || !/^[0-9a-f]{40,64}$/.test(sha) || !/^[0-9a-f]{40,64}$/.test(tree))
    throw new SluiceError('GIT_FAILED', { message: `git log printed an incomplete record for commit ${rev}`, field: 'commit.sha' });
  // Paths relative to the project, which may be a subfolder of the repository (git prints them from the top).
  const { prefix } = await repositoryRoot(host, root);
  const up = '../'.repeat(prefix.split('/').filter(Boolean).length);
  const paths = files
    .map((f) => f.replace(/^\n/, ''))
    .filter(Boolean)
    .map((f) => fromRepository(prefix, f) ?? `${up}${f}`);
  return { sha, tree, parents: parents.split(' ').filter(Boolean), author, message: message.replace(/\n+$/, ''), paths };
}

/** Commits whose trailer names exactly this requirement, newest first. */
export async function findRequirementCommits(host: Host, root: string, slug: string): Promise<string[]> {
  const r = await runGit(
    host,
    root,
    [
      'log',
      '-z',
      '--fixed-strings',
      `--grep=${REQUIREMENT_TRAILER}: ${slug}`,
      `--format=%H%x1f%(trailers:key=${REQUIREMENT_TRAILER},valueonly,separator=%x1e)`,
    ],
    { config: HOOKLESS_SETTINGS },
  );
  if (r.code !== 0) return [];
  return r.stdout
    .split('\0')
    .filter(Boolean)
    .map((rec) => rec.split('\x1f'))
    .filter(([, values]) =>
      (values ?? '')
        .split('\x1e')
        .map((s) => s.trim())
        .includes(slug),
    )
    .map(([sha]) => sha.trim());
}
