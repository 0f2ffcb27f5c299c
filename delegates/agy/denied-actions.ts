import type { AgyEnvelope } from './parse-output.ts';

/**
 * The actions agy refused on its own in a headless run (`denied_actions` in its JSON envelope,
 * agy >= 1.2.0): it cannot ask for permission without a terminal, so a tool the settings do not
 * allow is auto-denied. Entries are strings (`command(npm test)`) or objects naming the action
 * (`{display_name, action}`); each becomes one short name, as agy gives it.
 */
export function deniedActionsOf(env: AgyEnvelope | undefined): string[] {
  const raw = env?.denied_actions;
  if (!Array.isArray(raw)) return [];
  return raw.map(actionName).filter((n): n is string => n !== undefined);
}

function actionName(entry: unknown): string | undefined {
  if (typeof entry === 'string') return clip(entry);
  if (typeof entry !== 'object' || entry === null) return undefined;
  const o = entry as Record<string, unknown>;
  const named = [o.action, o.display_name, o.permission, o.tool, o.name].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return clip(named ?? JSON.stringify(entry));
}

const clip = (s: string) => {
  const line = s.trim().split(/\r?\n/)[0];
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
};

/** `3 actions: command(rm -rf build), read_file(~/.ssh/id_ed25519), mcp(browser/new_page)` (at most five named). */
export function describeDenied(actions: readonly string[]): string {
  const shown = actions.slice(0, 5).join(', ') + (actions.length > 5 ? ` and ${actions.length - 5} more` : '');
  return `${actions.length} action${actions.length === 1 ? '' : 's'}: ${shown}`;
}
