import type { Host } from '../../../core/index.ts';
import { git, runGit, type GitOptions } from './run-git.ts';

/**
 * git for sluice's own commit, with nothing the repository configures allowed to run or to change what
 * is committed: no hook (`core.hooksPath` pointed at nothing: pre-commit, prepare-commit-msg, commit-msg,
 * post-commit, reference-transaction, post-index-change...), no fsmonitor command, no signing program,
 * no automatic gc or maintenance, no signature check in `log`, and no clean/smudge/process filter of any
 * driver the config defines (an agent's `.gitattributes` can only name drivers; their commands come
 * from config). Where sluice starts the agent, the sandbox keeps `.git/config` and `.git/hooks` read-only
 * as well; this is what holds when it did not.
 *
 * The remote workers' git (plugins/lifecycle/remote/: clones, checkpoints, pushes, the orchestrator's
 * fetch of a checkpoint) goes through `hooklessGit`/`hooklessRunGit` below: the same settings on every call.
 */
export const HOOKLESS_SETTINGS = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'log.showSignature=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'core.pager=cat',
] as const;

/** Every setting above, plus each configured filter driver switched off (`filter.<name>.clean=` and so on). */
export async function hooklessGitConfig(host: Host, root: string): Promise<string[]> {
  const r = await runGit(host, root, ['config', '-z', '--name-only', '--get-regexp', '^filter\\.'], { config: HOOKLESS_SETTINGS });
  const drivers = new Set<string>();
  // exit 1: no filter configured.
  if (r.code === 0)
    for (const key of r.stdout.split('\0')) {
      const m = /^filter\.(.+)\.(clean|smudge|process|required)$/is.exec(key.trim());
      if (m) drivers.add(m[1]);
    }
  const off = [...drivers].flatMap((d) => [`filter.${d}.clean=`, `filter.${d}.smudge=`, `filter.${d}.process=`, `filter.${d}.required=false`]);
  return [...HOOKLESS_SETTINGS, ...off];
}

const hookless = (o: GitOptions): GitOptions => ({ ...o, config: [...HOOKLESS_SETTINGS, ...(o.config ?? [])] });

/** `git` with every setting above on (a clone made for a job has no filter drivers of its own: its config is git's). */
export const hooklessGit = (host: Host, root: string, args: readonly string[], o: GitOptions = {}): Promise<string> => git(host, root, args, hookless(o));

/** `runGit` with every setting above on. */
export const hooklessRunGit = (host: Host, root: string, args: readonly string[], o: GitOptions = {}) => runGit(host, root, args, hookless(o));
