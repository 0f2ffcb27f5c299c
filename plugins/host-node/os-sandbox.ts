import { accessSync, constants as fsConstants, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { bwrapArgs, BWRAP_PROBE_ARGS, sbplProfile, type PlacedRule, type SandboxKind, type SandboxPolicy, type SpawnOptions } from '../../core/index.ts';
import { isExecutableFile } from './private-files.ts';

/** The sandbox this machine has, and the program that makes it. */
export interface FoundSandbox {
  kind: SandboxKind;
  program: string;
}

const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/**
 * Finds the OS sandbox: macOS's sandbox-exec, else a `bwrap` on PATH that can really start a sandbox
 * with the flags runs use (installed is not enough: a container may forbid user namespaces). The PATH
 * is sluice's own, so a machine "without bubblewrap" is one whose PATH has none. Windows has none.
 */
export async function findSandbox(
  pathEnv: string | undefined,
  probe: (program: string, args: readonly string[]) => Promise<boolean>,
): Promise<FoundSandbox | null> {
  if (process.platform === 'darwin') return (await isExecutableFile(SANDBOX_EXEC)) ? { kind: 'sandbox-exec', program: SANDBOX_EXEC } : null;
  if (process.platform !== 'linux') return null;
  for (const dir of (pathEnv ?? '').split(':')) {
    if (dir === '' || !dir.startsWith('/')) continue;
    const program = join(dir, 'bwrap');
    if (!(await isExecutableFile(program))) continue;
    return (await probe(program, BWRAP_PROBE_ARGS)) ? { kind: 'bubblewrap', program } : null;
  }
  return null;
}

const realOrUndefined = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};
/**
 * The placeholder folder's real path, or undefined when this user may not make it (an account home
 * of `/nonexistent`): then the run, as the same user, cannot make it either, and there is nothing to cover.
 */
function makeFolder(path: string, options: { recursive?: boolean; mode: number }): string | undefined {
  // Each missing folder from the top, one mkdir each, stopping at the first refusal (Node's recursive
  // mkdir can loop on a file system that refuses with ENOENT, such as /proc).
  const missing: string[] = [];
  for (let dir = path; options.recursive && realOrUndefined(dir) === undefined && dirname(dir) !== dir; dir = dirname(dir)) missing.unshift(dir);
  try {
    for (const dir of options.recursive ? missing : [path]) mkdirSync(dir, { mode: options.mode });
  } catch {
    return undefined;
  }
  return realOrUndefined(path);
}

const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * The rules as bubblewrap needs them: at real paths, folders told from files, placeholders made for
 * missing folders that must be covered (an empty `.git/hooks`, owner-only user folders), and other
 * missing paths dropped (bwrap cannot bind them; a missing file stays creatable).
 */
export function placeRules(policy: SandboxPolicy): PlacedRule[] {
  const placed: PlacedRule[] = [];
  for (const rule of policy.rules) {
    let real = realOrUndefined(rule.path);
    if (real === undefined && rule.create === 'with-parents') real = makeFolder(rule.path, { recursive: true, mode: 0o700 });
    else if (real === undefined && rule.create === 'in-parent' && isDir(dirname(rule.path))) real = makeFolder(rule.path, { mode: 0o755 });
    if (real !== undefined) placed.push({ ...rule, path: real, isDir: isDir(real) });
  }
  return placed;
}

/** Whether this user may rename `dir`: its parent is writable to them (root: always, as root owns most folders). */
function renamable(dir: string): boolean {
  try {
    accessSync(dirname(dir), fsConstants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The command line that runs `o.command` in the sandbox. */
export function sandboxCommand(found: FoundSandbox, policy: SandboxPolicy, o: Pick<SpawnOptions, 'command' | 'args'>): { command: string; args: string[] } {
  if (found.kind === 'sandbox-exec') {
    // Real paths for the rules that exist (/tmp is /private/tmp); missing ones are denied by name.
    const rules = policy.rules.map((r) => ({ ...r, path: realOrUndefined(r.path) ?? r.path }));
    return { command: found.program, args: ['-p', sbplProfile(rules), '--', o.command, ...o.args] };
  }
  return { command: found.program, args: [...bwrapArgs(placeRules(policy), renamable), '--', o.command, ...o.args] };
}

/** bwrap exits 128+N when the CLI was killed by signal N: the signal, as without a sandbox. */
export function signalFromExit(exitCode: number | null): string | null {
  if (exitCode === null || exitCode <= 128 || exitCode > 128 + 64) return null;
  const found = Object.entries(constants.signals).find(([, n]) => n === exitCode - 128);
  return found ? found[0] : null;
}

/**
 * The members of a process group other than `leader` (from /proc): SIGTERM goes to the CLI and its
 * children, not to bwrap, which would die of it and take the CLI down with SIGKILL (--die-with-parent)
 * before its grace period. Undefined when /proc cannot be read.
 */
export function groupMembersExcept(group: number, leader: number): number[] | undefined {
  try {
    const out: number[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name) || Number(name) === leader) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      } catch {
        continue;
      }
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === group) out.push(Number(name));
    }
    return out;
  } catch {
    return undefined;
  }
}
