import { realpathSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { protectedUserFolders, userFolders } from '../../core/paths/user-folders.ts';
import { isPlainClaudeCommit } from './claude-commit.ts';
import { allow, stricter, type Decision } from './decision.ts';
import { judgeToolFields } from './tool-fields.ts';
import { outsideFolders, protectedPath, protectedRead, type GuardPlaces } from './protected-paths.ts';
import { absolutePath, pathsOf } from './resolve-path.ts';
import { loadShellGuard } from './shell-guard-loader.ts';
import { needsParsing } from './shell-prefilter.ts';

/** The fields of Claude Code's PreToolUse payload the guard reads. */
export interface PreToolUsePayload {
  hook_event_name?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  cwd?: string;
}

export interface GuardEnv {
  projectDir: string;
  places: GuardPlaces;
  /** The environment the agent's shell inherits, for the variables a command names (`$HOME`). */
  vars?: Readonly<Record<string, string | undefined>>;
}

/** The home in the system's account records, which whoever starts the guard cannot point elsewhere. */
function accountHome(): string {
  try {
    return userInfo().homedir;
  } catch {
    return homedir();
  }
}

/**
 * sluice's installation as this guard runs from it: the script (the absolute path the hook names,
 * perhaps a link such as ~/.local/bin/sluice), the package folder it resolves into, the node that
 * runs it, and a `sluice` in every PATH folder (a shadowing one would answer in its place).
 */
function installation(script: string | undefined, node: string, path: string | undefined, projectDir: string, homes: string[]): string[] {
  const bins = [...(path ?? '').split(':').filter((d) => d.startsWith('/')), ...homes.map((h) => join(h, '.local', 'bin'))];
  const out = [node, ...bins.map((d) => join(d, 'sluice'))];
  if (script && script.startsWith('/')) {
    out.push(script);
    try {
      const real = realpathSync(script);
      const up = dirname(dirname(real));
      // bin/sluice.cjs or dist/*.cjs in a package folder; a sluice checkout used as its own project is left open.
      if (/^(bin|dist)$/.test(basename(dirname(real))) && !(projectDir === up || projectDir.startsWith(`${up}/`))) out.push(up);
      else out.push(real);
    } catch {}
  }
  return [...new Set(out)];
}

/**
 * The project (CLAUDE_PROJECT_DIR, else the payload's cwd) and sluice's folders, found by the code
 * sluice finds them with (core/paths/user-folders.ts): every user folder, XDG and account home alike.
 */
export function guardEnv(
  payload: PreToolUsePayload,
  env: Record<string, string | undefined>,
  cwd: string,
  runner: { script?: string; node: string } = { script: process.argv[1], node: process.execPath },
): GuardEnv {
  const projectDir = absolutePath(env.CLAUDE_PROJECT_DIR || payload.cwd || cwd, cwd);
  const read = (name: string) => env[name];
  const folders = userFolders(read, accountHome);
  // Also the folders a later sluice run finds from HOME alone (without this environment's XDG_* and SLUICE_CACHE_DIR).
  const homeOnly = (name: string) => (name === 'HOME' ? env.HOME : undefined);
  // A relative SLUICE_CACHE_DIR is the project's; the cache's reads are open (nothing secret), its writes are not.
  const caches = new Set(
    [folders.cache, userFolders(() => undefined, accountHome).cache, userFolders(homeOnly, accountHome).cache].map((d) => absolutePath(d, projectDir)),
  );
  const all = [...new Set([...protectedUserFolders(read, accountHome), ...protectedUserFolders(homeOnly, accountHome)])].map((d) =>
    absolutePath(d, projectDir),
  );
  const [userCacheDir] = caches;
  return {
    projectDir,
    places: {
      userConfigDir: absolutePath(folders.config, projectDir),
      userCacheDir: userCacheDir!,
      privateDirs: all.filter((d) => !caches.has(d)),
      cacheDirs: [...caches],
      installation: installation(runner.script, runner.node, env.PATH, projectDir, [env.HOME || homedir(), accountHome()]),
    },
    vars: env,
  };
}

const EDIT_TOOLS: Record<string, string> = { Write: 'file_path', Edit: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' };
const READ_TOOLS: Record<string, string> = { Read: 'file_path', Grep: 'path', Glob: 'path', NotebookRead: 'notebook_path', LS: 'path' };

function field(input: Record<string, unknown> | undefined, name: string): string | undefined {
  const v = input?.[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * Whether relative paths from `cwd` can name a record without naming it: inside the records'
 * folders every one may be a record, and from outside the project (an ancestor of it, or of
 * sluice's user config folder) a plain name may be the project. Only from elsewhere in the project
 * may the prefilter answer without the parser.
 */
function cwdNeedsParsing(cwd: string, env: GuardEnv): boolean {
  const here = pathsOf('.', cwd);
  const roots = pathsOf(env.projectDir, '/');
  const inProject = (p: string) => roots.some((r) => p === r || p.startsWith(`${r}/`));
  return here.some((p) => !inProject(p) || /\/(\.sdlc|\.sluice|\.prizmkit|\.claude)(\/|$)/.test(p) || protectedRead(p, env.places) !== undefined);
}

/**
 * The longest Bash command the guard reads: 32 KiB. The parser is linear but not free (some 10 µs a
 * character with the walk, so a third of a second at this size on a slow machine); longer commands,
 * which an agent writes only to pack a file or a script into one call, are asked about at once
 * without being read.
 */
export const MAX_COMMAND_CHARS = 32 * 1024;

/** The guard's answer for one tool call. */
export async function decideTool(payload: PreToolUsePayload, env: GuardEnv): Promise<Decision> {
  const tool = payload.tool_name ?? '';
  const cwd = absolutePath(payload.cwd || env.projectDir, env.projectDir);
  const editField = EDIT_TOOLS[tool];
  if (editField) {
    const target = field(payload.tool_input, editField);
    if (!target) return { verdict: 'ask', reason: `${tool} without a ${editField}: sluice's guard cannot tell what it writes` };
    return pathsOf(target, cwd).reduce<Decision>((d, p) => stricter(d, protectedPath(p, env.places) ?? allow), allow);
  }
  const readField = READ_TOOLS[tool];
  if (readField) {
    const target = field(payload.tool_input, readField);
    return target ? pathsOf(target, cwd).reduce<Decision>((d, p) => stricter(d, protectedRead(p, env.places) ?? allow), allow) : allow;
  }
  if (tool === 'Bash') {
    const command = field(payload.tool_input, 'command');
    if (!command) return allow;
    if (command.length > MAX_COMMAND_CHARS)
      return { verdict: 'ask', reason: `the command is ${command.length} characters long, more than the ${MAX_COMMAND_CHARS} sluice's guard reads` };
    if (!cwdNeedsParsing(cwd, env) && (isPlainClaudeCommit(command) || !needsParsing(command, env.projectDir, outsideFolders(env.places)))) return allow;
    const { judgeShell } = await loadShellGuard();
    return judgeShell(command, { cwd, projectDir: env.projectDir, places: env.places, vars: env.vars });
  }
  // Any other tool (an MCP server's write_file, a plugin's own editor): judged by every path it is given.
  return judgeToolFields(tool, payload.tool_input, cwd, env.projectDir, env.places);
}
