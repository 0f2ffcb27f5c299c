import { isInside } from '../paths/inside.ts';
import type { SandboxRule } from './sandbox-policy.ts';

/** A rule as the host found its path: real location, and whether it is a folder. Missing paths are dropped before. */
export interface PlacedRule extends SandboxRule {
  isDir: boolean;
}

/** `/a`, `/a/b` for `/a/b/c`: the folders above a path, shallowest first, without `/`. */
function ancestors(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}

/**
 * bubblewrap's command line for a run (everything before `--`): the whole file system as it is
 * (`--bind / /`, network, /proc and /dev included), then each rule in order as a mount, which is why a
 * later rule wins under its path. Every writable folder above a rule is bound onto itself first: a
 * mount point cannot be renamed (EBUSY), so `mv .git old && mkdir .git` cannot put a new `.git/hooks`
 * where the read-only one was (`renamable` says which folders the run could rename at all: those in a
 * folder it may write). A user namespace without capabilities, so the run cannot undo a mount
 * (`mount -o remount,rw` is refused); `--die-with-parent` so nothing outlives bwrap; no new pid
 * namespace, so the CLI's pids, its process group and sluice's group kill stay as without a sandbox.
 */
export function bwrapArgs(rules: readonly PlacedRule[], renamable: (dir: string) => boolean = () => true): string[] {
  // /dev bound again with its devices usable: a plain bind in a user namespace refuses opening /dev/null.
  const args = ['--bind', '/', '/', '--dev-bind', '/dev', '/dev', '--unshare-user', '--cap-drop', 'ALL', '--die-with-parent'];
  const done: { path: string; access: SandboxRule['access'] }[] = [];
  const pinned = new Set<string>();
  for (const r of rules) {
    for (const dir of ancestors(r.path)) {
      if (pinned.has(dir)) continue;
      // Inside a read-only or hidden place nothing can be renamed anyway.
      const cover = done.findLast((d) => isInside(d.path, dir));
      if (cover && cover.access !== 'write') continue;
      pinned.add(dir);
      // Only a folder whose parent the run may write can be renamed: each mount costs start-up time.
      if (!renamable(dir)) continue;
      args.push('--bind', dir, dir);
    }
    if (r.access === 'write') args.push('--bind', r.path, r.path);
    else if (r.access === 'read') args.push('--ro-bind', r.path, r.path);
    else if (r.isDir) args.push('--tmpfs', r.path, '--remount-ro', r.path);
    else args.push('--ro-bind', '/dev/null', r.path);
    done.push(r);
    pinned.add(r.path);
  }
  return args;
}

/** The same flags with a no-op command: whether bwrap can start a sandbox on this machine at all. */
export const BWRAP_PROBE_ARGS: readonly string[] = [...bwrapArgs([]), '--', 'true'];
