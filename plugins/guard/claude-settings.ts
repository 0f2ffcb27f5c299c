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

/** The tools whose calls the guard judges. */
export const GUARDED_TOOLS = 'Bash|Write|Edit|MultiEdit|NotebookEdit|Read|Grep|Glob|NotebookRead|LS';

/** Recognises sluice's own entries however the command was spelled (`sluice`, a path to the bin, npx). */
const OURS = /\bsluice(\.mjs)?["']?\s+(--cwd\s+\S+\s+)?(guard\b|handoff\s+--hook\s+claude\b)/;

export function isSluiceHook(h: HookCommand): boolean {
  return typeof h.command === 'string' && OURS.test(h.command.trim());
}

function wanted(sluice: string): Record<string, HookGroup> {
  return {
    SessionStart: { hooks: [{ type: 'command', command: `${sluice} handoff --hook claude` }] },
    PreToolUse: { matcher: GUARDED_TOOLS, hooks: [{ type: 'command', command: `${sluice} guard` }] },
  };
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
  const { hooks: _old, ...rest } = settings;
  return Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest;
}

/** Settings with exactly one sluice SessionStart and one PreToolUse entry, run as `sluice` (a command). */
export function installSluiceHooks(settings: ClaudeSettings, sluice: string): ClaudeSettings {
  const base = removeSluiceHooks(settings);
  const hooks: Record<string, HookGroup[]> = { ...(base.hooks ?? {}) };
  for (const [event, group] of Object.entries(wanted(sluice))) hooks[event] = [...(hooks[event] ?? []), group];
  return { ...base, hooks };
}
