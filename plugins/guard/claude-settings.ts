import { canonicalJson } from '../../core/trust/trust-subject.ts';

/**
 * The sluice entries in Claude Code's `.claude/settings.json`: a SessionStart hook that hands the
 * session its SDLC context and a PreToolUse hook running the guard. Merged in and taken out without
 * touching the user's other settings or hooks; installing twice changes nothing.
 */
export interface HookCommand {
  type: string;
  command?: string;
  [key: string]: unknown;
}

export interface HookGroup {
  matcher?: string;
  hooks?: HookCommand[];
  [key: string]: unknown;
}

export type ClaudeSettings = Record<string, unknown> & { hooks?: Record<string, HookGroup[]> };

/** The tools whose calls the guard judges: every one (an MCP tool is judged by the paths it is given). */
export const GUARDED_TOOLS = '*';

/** Recognises sluice's own entries however the command was spelled (`sluice`, a path to the bin or bundle, npx). */
const OURS = /\bsluice(\.[cm]?js)?["']?\s+(--cwd\s+\S+\s+)?(guard\b|handoff\s+--hook\s+claude\b)/;

/**
 * Seconds Claude Code waits for each hook. A guard that does not answer in time is ignored (the
 * call goes on), so the bound is generous: a cold start on a loaded machine takes a second or two.
 */
export const HOOK_TIMEOUT_SECONDS = { guard: 30, handoff: 60 } as const;

export function isSluiceHook(h: HookCommand): boolean {
  return typeof h.command === 'string' && OURS.test(h.command.trim());
}

/** The hook groups sluice installs, running sluice as `sluice` (a shell command line). */
export function sluiceHookGroups(sluice: string): Record<string, HookGroup> {
  return {
    SessionStart: { hooks: [{ type: 'command', command: `${sluice} handoff --hook claude`, timeout: HOOK_TIMEOUT_SECONDS.handoff }] },
    PreToolUse: { matcher: GUARDED_TOOLS, hooks: [{ type: 'command', command: `${sluice} guard`, timeout: HOOK_TIMEOUT_SECONDS.guard }] },
  };
}

/**
 * Whether the settings hold the hooks sluice would install now, and no other sluice hook (an older
 * command line, a bare `sluice`): for `sluice doctor`.
 */
export function sluiceHooksCurrent(settings: ClaudeSettings, sluice: string): boolean {
  const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
  const wanted = Object.entries(sluiceHookGroups(sluice));
  const ours = Object.values(settings.hooks ?? {}).flatMap((groups) =>
    Array.isArray(groups) ? groups.flatMap((g) => g.hooks?.filter(isSluiceHook) ?? []) : [],
  );
  return ours.length === wanted.length && wanted.every(([event, group]) => (settings.hooks?.[event] ?? []).some((g) => same(g, group)));
}

/** Whether the settings hold any sluice hook. */
export function hasSluiceHooks(settings: ClaudeSettings): boolean {
  return Object.values(settings.hooks ?? {}).some((groups) => Array.isArray(groups) && groups.some((g) => g.hooks?.some(isSluiceHook)));
}

/** Settings without any sluice hook; groups and events left empty by that are dropped. */
export function removeSluiceHooks(settings: ClaudeSettings): ClaudeSettings {
  if (!settings.hooks || typeof settings.hooks !== 'object') return settings;
  const hooks: Record<string, HookGroup[]> = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept = groups
      .map((g) => (Array.isArray(g.hooks) ? { ...g, hooks: g.hooks.filter((h) => !isSluiceHook(h)) } : g))
      .filter((g, i) => !Array.isArray(g.hooks) || g.hooks.length > 0 || (groups[i]!.hooks?.length ?? 0) === 0);
    if (kept.length > 0) hooks[event] = kept;
  }
  return withHooks(settings, Object.keys(hooks).length > 0 ? hooks : undefined);
}

/** The settings with `hooks` replaced in its place (the user's key order kept), dropped, or added at the end. */
function withHooks(settings: ClaudeSettings, hooks: Record<string, HookGroup[]> | undefined): ClaudeSettings {
  const out: ClaudeSettings = {};
  for (const [key, value] of Object.entries(settings)) {
    if (key !== 'hooks') out[key] = value;
    else if (hooks) out.hooks = hooks;
  }
  if (hooks && !('hooks' in out)) out.hooks = hooks;
  return out;
}

/** Settings with exactly one sluice SessionStart and one PreToolUse entry, run as `sluice` (a command). */
export function installSluiceHooks(settings: ClaudeSettings, sluice: string): ClaudeSettings {
  const base = removeSluiceHooks(settings);
  const hooks: Record<string, HookGroup[]> = { ...(base.hooks ?? {}) };
  for (const [event, group] of Object.entries(sluiceHookGroups(sluice))) hooks[event] = [...(hooks[event] ?? []), group];
  // Where the user had their hooks, so a second install writes the same file.
  return withHooks('hooks' in settings ? { ...settings, ...base } : base, hooks);
}
