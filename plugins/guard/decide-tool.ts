import { homedir } from 'node:os';
import { join } from 'node:path';
import { cacheFolder } from '../../core/paths/cache-folder.ts';
import { allow, stricter, type Decision } from './decision.ts';
import { protectedPath, protectedRead, type GuardPlaces } from './protected-paths.ts';
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
}

/** The project (CLAUDE_PROJECT_DIR, else the payload's cwd), sluice's user config folder and its cache folder. */
export function guardEnv(payload: PreToolUsePayload, env: Record<string, string | undefined>, cwd: string): GuardEnv {
  const projectDir = absolutePath(env.CLAUDE_PROJECT_DIR || payload.cwd || cwd, cwd);
  // As the trust store finds it: a relative XDG_CONFIG_HOME is invalid and ignored (XDG spec).
  const xdg = env.XDG_CONFIG_HOME;
  const configHome = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config');
  // The folder the parse cache owns, as the cache finds it: a SLUICE_CACHE_DIR of /tmp does not put all of /tmp off limits.
  const cacheDir = cacheFolder((name) => env[name], homedir).owned;
  return {
    projectDir,
    places: { userConfigDir: absolutePath(join(configHome, 'sluice'), '/'), userCacheDir: absolutePath(cacheDir, projectDir) },
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
    if (!cwdNeedsParsing(cwd, env) && !needsParsing(command, env.projectDir, [env.places.userConfigDir, env.places.userCacheDir])) return allow;
    const { judgeShell } = await loadShellGuard();
    return judgeShell(command, { cwd, projectDir: env.projectDir, places: env.places });
  }
  return allow;
}
