import type { SandboxRule } from './sandbox-policy.ts';

/** A rule as the host found its path: real location, and whether it is a folder. Missing paths are dropped before. */
export interface PlacedRule extends SandboxRule {
  isDir: boolean;
}

/**
 * bubblewrap's command line for a run (everything before `--`): the whole file system as it is
 * (`--bind / /`, network, /proc and /dev included), then each rule in order as a mount, which is why a
 * later rule wins under its path. A user namespace without capabilities, so the run cannot undo a
 * mount (`mount -o remount,rw` is refused); `--die-with-parent` so nothing outlives bwrap; no new pid
 * namespace, so the CLI's pids, its process group and sluice's group kill stay as without a sandbox.
 */
export function bwrapArgs(rules: readonly PlacedRule[]): string[] {
  // /dev bound again with its devices usable: a plain bind in a user namespace refuses opening /dev/null.
  const args = ['--bind', '/', '/', '--dev-bind', '/dev', '/dev', '--unshare-user', '--cap-drop', 'ALL', '--die-with-parent'];
  for (const r of rules) {
    if (r.access === 'write') args.push('--bind', r.path, r.path);
    else if (r.access === 'read') args.push('--ro-bind', r.path, r.path);
    else if (r.isDir) args.push('--tmpfs', r.path, '--remount-ro', r.path);
    else args.push('--ro-bind', '/dev/null', r.path);
  }
  return args;
}

/** The same flags with a no-op command: whether bwrap can start a sandbox on this machine at all. */
export const BWRAP_PROBE_ARGS: readonly string[] = [...bwrapArgs([]), '--', 'true'];
