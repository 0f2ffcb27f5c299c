import { SluiceError, type Host } from '../../../core/index.ts';
// Nothing a clone's config could name runs in a worker's git: no hook, fsmonitor, filter, signing program.
import { hooklessGit as git, hooklessRunGit as runGit } from '../workspace/hookless-git.ts';

/** The branch a requirement's commit is pushed to. */
export const requirementBranch = (slug: string) => `sluice/${slug}`;
/** The ref holding a requirement's latest checkpoint (workspace + state + journal after a stage). */
export const checkpointRef = (slug: string) => `refs/sluice/checkpoints/${slug}`;

/** Checkpoints are sluice's own records: a fixed identity, so a worker without a git identity can still make them. */
const CHECKPOINT_IDENTITY = {
  GIT_AUTHOR_NAME: 'sluice checkpoint',
  GIT_AUTHOR_EMAIL: 'sluice@localhost',
  GIT_COMMITTER_NAME: 'sluice checkpoint',
  GIT_COMMITTER_EMAIL: 'sluice@localhost',
};

/**
 * Talking to a remote never waits for a person: no credential prompt (runGit), and ssh in batch mode
 * unless the operator configured ssh for git, so a worker without access fails with git's error.
 */
export const remoteEnv = (host: Host): Record<string, string> => ({ GIT_SSH_COMMAND: host.env('GIT_SSH_COMMAND') ?? 'ssh -o BatchMode=yes' });

/** The sha a remote ref points at, or null when it does not exist. A remote that cannot be read is GIT_FAILED with git's words. */
export async function remoteRefSha(host: Host, cwd: string, remote: string, ref: string): Promise<string | null> {
  return (await remoteRefShas(host, cwd, remote, [ref]))[0];
}

/** Several remote refs read in one round trip (one git process), in the order asked; null where absent. */
export async function remoteRefShas(host: Host, cwd: string, remote: string, refs: readonly string[]): Promise<(string | null)[]> {
  const out = await git(host, cwd, ['ls-remote', '--', remote, ...refs], { env: remoteEnv(host) });
  const lines = out.split('\n');
  return refs.map((ref) => lines.find((l) => l.endsWith(`\t${ref}`))?.split('\t')[0] ?? null);
}

export interface CloneOptions {
  /**
   * Refs outside refs/heads the clone brings along when the remote has them (as `<ref>*` patterns: a ref
   * that does not exist is no error), so they are read locally afterwards instead of in another round trip.
   */
  alsoFetch?: readonly string[];
  /** The committer the clone's commits name, set in its local config by the clone itself. */
  identity?: { name: string; email: string };
}

/**
 * A fresh clone of the remote in `dir` (which must not exist), with nothing checked out yet. It lives for one
 * job, so git's housekeeping after its commits and fetches (`maintenance run --auto`) is switched off there.
 */
export async function cloneRemote(host: Host, parent: string, remote: string, dir: string, o: CloneOptions = {}): Promise<void> {
  const config = [
    'maintenance.auto=false',
    ...(o.alsoFetch ?? []).map((ref) => `remote.origin.fetch=+${ref}*:${ref}*`),
    ...(o.identity ? identityConfig(o.identity) : []),
  ];
  await git(host, parent, ['clone', '--quiet', '--no-checkout', ...config.flatMap((c) => ['-c', c]), '--', remote, dir], { env: remoteEnv(host) });
}

/** Several local refs in one git process, in the order asked; null where absent. */
export async function localRefShas(host: Host, root: string, refs: readonly string[]): Promise<(string | null)[]> {
  const out = await git(host, root, ['for-each-ref', '--format=%(objectname) %(refname)', '--', ...refs]);
  const found = new Map(out.split('\n').flatMap((l) => (l.includes(' ') ? [[l.slice(l.indexOf(' ') + 1), l.slice(0, l.indexOf(' '))] as const] : [])));
  return refs.map((ref) => found.get(ref) ?? null);
}

/** A clone's committer as config settings; a name or address git cannot store is refused. */
function identityConfig(who: { name: string; email: string }): string[] {
  return (
    [
      ['user.name', who.name],
      ['user.email', who.email],
    ] as const
  ).map(([key, value]) => {
    if (typeof value !== 'string' || value.trim() === '' || value.length > 256 || /[\u0000-\u001f\u007f<>]/.test(value))
      throw new SluiceError('USAGE', { field: `author.${key.slice(5)}`, message: `the job's ${key} is not a git identity git can record` });
    return `${key}=${value}`;
  });
}

/** Makes sure `sha` is in the clone (a base commit not on any branch is fetched by id); else a clear error. */
export async function ensureCommit(host: Host, root: string, remote: string, sha: string, what: string): Promise<void> {
  if ((await runGit(host, root, ['cat-file', '-e', `${sha}^{commit}`])).code === 0) return;
  const fetched = await runGit(host, root, ['fetch', '--quiet', 'origin', sha], { env: remoteEnv(host) });
  if (fetched.code === 0 && (await runGit(host, root, ['cat-file', '-e', `${sha}^{commit}`])).code === 0) return;
  throw new SluiceError('GIT_FAILED', {
    message: `${what} ${sha.slice(0, 12)} is not on ${remote}: push it there first (workers take the project from the remote)`,
  });
}

/** Checks out the requirement's branch at `commit` (base or the requirement's own commit). */
export async function checkoutBranch(host: Host, root: string, slug: string, commit: string): Promise<void> {
  await git(host, root, ['checkout', '--quiet', '-B', requirementBranch(slug), commit]);
}

/** The branch at the base commit: tried directly, and only when that fails is the base looked for (and fetched by id). */
export async function checkoutBase(host: Host, root: string, remote: string, slug: string, base: string): Promise<void> {
  if ((await runGit(host, root, ['checkout', '--quiet', '-B', requirementBranch(slug), base])).code === 0) return;
  await ensureCommit(host, root, remote, base, 'the base commit');
  await checkoutBranch(host, root, slug, base);
}

/**
 * Puts a checkpoint's workspace back as uncommitted changes on top of its parent: same HEAD, same files,
 * same index (nothing staged), so the workspace fingerprint is the one the stages recorded.
 */
export async function restoreCheckpoint(host: Host, root: string, slug: string, checkpoint: string): Promise<void> {
  await checkoutBranch(host, root, slug, `${checkpoint}^1`);
  await git(host, root, ['restore', '--source', checkpoint, '--worktree', '--', '.']);
}

/** Builds one job's checkpoint trees; `dispose` removes its private index. */
export interface CheckpointIndex {
  /** The workspace's tree now, on top of `head` (the commit HEAD is at: the base, or the requirement's commit). */
  tree(head: string): Promise<string>;
  dispose(): Promise<void>;
}

/**
 * A checkpoint's tree: the whole workspace as it is (tracked changes and untracked, non-ignored files),
 * plus the requirement's state and journal even where git ignores them. Built in a private index, so the
 * real index (and with it the fingerprint) is untouched. The index is kept for the job: read from HEAD
 * once (again only when HEAD moved, i.e. after the commit), then each checkpoint's `add -A` re-reads only
 * the files whose stat changed, and the tree needs three git processes instead of four.
 */
export function checkpointIndex(host: Host, root: string, gitDir: string, records: readonly string[]): CheckpointIndex {
  const index = `${gitDir}/sluice-checkpoint.index`;
  const env = { GIT_INDEX_FILE: index };
  let readFrom: string | null = null;
  return {
    async tree(head) {
      if (head !== readFrom) {
        readFrom = null;
        await git(host, root, ['read-tree', head], { env });
        readFrom = head;
      }
      // sluice's runtime folder (transcripts, locks) is this machine's, never part of a checkpoint: excluded
      // in the same `add` (its pathspecs are constants, so magic is safe here), not removed by another git process.
      // A glob, not the literal `.sluice`: git fails an `add` whose literal pathspec names an ignored folder,
      // and projects commonly ignore `.sluice/`.
      await git(host, root, ['add', '-A', '--', ':(top)', ':(top,exclude,glob)[.]sluice/**'], { env, pathspecMagic: true });
      await git(host, root, ['add', '-f', '--', ...records], { env });
      return (await git(host, root, ['write-tree'], { env })).trim();
    },
    dispose: () => host.remove(index).catch(() => {}),
  };
}

/** The checkpoint commit of a tree, on top of HEAD (the base, or the requirement's commit). */
export async function checkpointCommit(host: Host, root: string, tree: string, message: string): Promise<string> {
  return (await git(host, root, ['commit-tree', tree, '-p', 'HEAD', '-F', '-'], { env: CHECKPOINT_IDENTITY, input: `${message}\n` })).trim();
}

/** A fresh clone's git directory: `git clone DIR` puts it at DIR/.git. */
export const cloneGitDir = (dir: string) => `${dir}/.git`;

/** One ref update: `sha` to `ref`, only if the remote ref is still `expected` (null: absent). */
export interface RefUpdate {
  sha: string;
  ref: string;
  expected: string | null;
}

/**
 * Pushes `sha` to `ref` only if the remote ref is still `expected` (null: absent): a worker that lost its
 * job (another took it over) cannot overwrite the newer checkpoint. Git's own refusal is the error.
 */
export async function pushRef(host: Host, root: string, remote: string, sha: string, ref: string, expected: string | null): Promise<void> {
  await pushRefs(host, root, remote, [{ sha, ref, expected }]);
}

/**
 * Several compare-and-swap ref updates in one push, all or none (--atomic): one git process and one
 * round trip, and a refused lease on any ref leaves every ref as it was.
 */
export async function pushRefs(host: Host, root: string, remote: string, updates: readonly RefUpdate[]): Promise<void> {
  const leases = updates.map((u) => `--force-with-lease=${u.ref}:${u.expected ?? ''}`);
  const atomic = updates.length > 1 ? ['--atomic'] : [];
  const specs = updates.map((u) => `${u.sha}:${u.ref}`);
  const r = await runGit(host, root, ['push', '--quiet', '--porcelain', ...atomic, ...leases, 'origin', ...specs], { env: remoteEnv(host) });
  if (r.code === 0) return;
  const ref = updates.map((u) => u.ref).join(', ');
  const said = [...r.stderr.split('\n'), ...r.stdout.split('\n')]
    .map((l) => l.trim())
    .filter((l) => /^(fatal|error|remote|!)|\[rejected\]|\[remote rejected\]/i.test(l) && !/^To /.test(l));
  const stale = /stale info|fetch first|non-fast-forward/i.test(r.stderr + r.stdout);
  throw new SluiceError('GIT_FAILED', {
    message: `git push to ${remote} (${ref}) failed: ${said.slice(0, 3).join(' / ') || `exit code ${r.code}`}${stale ? '; another worker moved it (this job was taken over)' : ''}`,
    data: { stderr: r.stderr.slice(0, 4000) },
  });
}

/** HEAD's commit id. */
export async function headSha(host: Host, root: string): Promise<string> {
  return (await git(host, root, ['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
}
