import * as v from 'valibot';
import { SluiceError } from '../../core/index.ts';
import type { ClaudeSettings } from './claude-settings.ts';
import type { ClaudeProtections } from './claude-protections.ts';

/**
 * Claude Code's own sandbox and permission settings, as `sluice hooks install claude` writes them
 * (names and path syntax as Claude Code documents them, checked with `claude doctor` 2.1.332):
 * - `sandbox.enabled: true` and `sandbox.allowUnsandboxedCommands: false`: Bash runs in Claude
 *   Code's OS sandbox, and a command cannot ask to run outside it;
 * - `sandbox.filesystem.denyWrite` / `denyRead`: paths as `//absolute` (the spelling Claude Code
 *   reads as absolute in both its older and its current path rules);
 * - `permissions.deny`: `Edit(//path)` rules (they cover Write, MultiEdit and NotebookEdit too;
 *   `Write(...)` rules are not matched) and `Read(//path/**)` for the folders nobody reads.
 *
 * Merging adds only what is missing and remembers what it added (and what a scalar was before), so
 * `--remove` takes out exactly that and installing twice changes nothing.
 */
export interface SandboxEntries {
  arrays: Record<ArrayKey, string[]>;
  scalars: Record<ScalarKey, boolean>;
}

export const ARRAY_KEYS = ['sandbox.filesystem.denyWrite', 'sandbox.filesystem.denyRead', 'permissions.deny'] as const;
export const SCALAR_KEYS = ['sandbox.enabled', 'sandbox.allowUnsandboxedCommands'] as const;
type ArrayKey = (typeof ARRAY_KEYS)[number];
type ScalarKey = (typeof SCALAR_KEYS)[number];

const Strings = v.optional(v.array(v.string()));
/** A scalar sluice set, with the value it had before (no `previous`: there was none). */
const Previous = v.optional(v.object({ previous: v.optional(v.unknown()) }));

/** What sluice added to the settings file, kept in `.sluice/` (which the guard and the sandbox protect). */
export const AddedSettingsSchema = v.object({
  version: v.literal(1),
  arrays: v.object({ 'sandbox.filesystem.denyWrite': Strings, 'sandbox.filesystem.denyRead': Strings, 'permissions.deny': Strings }),
  scalars: v.object({ 'sandbox.enabled': Previous, 'sandbox.allowUnsandboxedCommands': Previous }),
});
export type AddedSettings = v.InferOutput<typeof AddedSettingsSchema>;
export const nothingAdded = (): AddedSettings => ({ version: 1, arrays: {}, scalars: {} });

/** Glob characters in a path are literal in a rule (gitignore escapes them with a backslash). */
const literal = (path: string) => path.replace(/[\\*?[\]]/g, '\\$&');
const absolute = (path: string) => `/${path}`;

export function sandboxEntries(p: ClaudeProtections): SandboxEntries {
  const rules = (tool: 'Read' | 'Edit', paths: readonly string[]) =>
    paths.flatMap((path) => [`${tool}(${absolute(literal(path))})`, ...(p.folders.has(path) ? [`${tool}(${absolute(literal(path))}/**)`] : [])]);
  return {
    arrays: {
      'sandbox.filesystem.denyWrite': p.denyWrite.map(absolute),
      'sandbox.filesystem.denyRead': p.denyRead.map(absolute),
      'permissions.deny': [...rules('Edit', p.denyWrite), ...rules('Read', p.denyRead)],
    },
    scalars: { 'sandbox.enabled': true, 'sandbox.allowUnsandboxedCommands': false },
  };
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => x !== null && typeof x === 'object' && !Array.isArray(x);

/** The object that holds `key` (`sandbox.filesystem` for `sandbox.filesystem.denyWrite`), made on the way when `create`. */
function parentOf(settings: Json, key: string, file: string, create: boolean): { parent: Json | undefined; name: string } {
  const parts = key.split('.');
  let node: Json = settings;
  for (const [i, part] of parts.slice(0, -1).entries()) {
    const next = node[part];
    if (next === undefined) {
      if (!create) return { parent: undefined, name: parts.at(-1)! };
      node[part] = {};
    } else if (!isObject(next)) {
      throw new SluiceError('CONFIG_INVALID', {
        file,
        field: parts.slice(0, i + 1).join('.'),
        message: `${file} field ${parts.slice(0, i + 1).join('.')} is not an object; it was left untouched`,
      });
    }
    node = node[part] as Json;
  }
  return { parent: node, name: parts.at(-1)! };
}

function arrayAt(settings: Json, key: string, file: string): string[] | undefined {
  const { parent, name } = parentOf(settings, key, file, false);
  const value = parent?.[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((x) => typeof x !== 'string'))
    throw new SluiceError('CONFIG_INVALID', { file, field: key, message: `${file} field ${key} is not a list of strings; it was left untouched` });
  return value as string[];
}

/** Settings with every entry in place; `added` says what sluice has added, now and before. */
export function installSandbox(
  settings: ClaudeSettings,
  entries: SandboxEntries,
  before: AddedSettings,
  file: string,
): { settings: ClaudeSettings; added: AddedSettings } {
  const out = structuredClone(settings) as Json;
  const added: AddedSettings = structuredClone(before);
  for (const key of ARRAY_KEYS) {
    const have = arrayAt(out, key, file) ?? [];
    const missing = entries.arrays[key].filter((x) => !have.includes(x));
    if (missing.length === 0) continue;
    const { parent, name } = parentOf(out, key, file, true);
    parent![name] = [...have, ...missing];
    added.arrays[key] = [...new Set([...(added.arrays[key] ?? []), ...missing])];
  }
  for (const key of SCALAR_KEYS) {
    const { parent, name } = parentOf(out, key, file, true);
    if (parent![name] === entries.scalars[key]) continue;
    added.scalars[key] ??= name in parent! ? { previous: parent![name] } : {};
    parent![name] = entries.scalars[key];
  }
  return { settings: out as ClaudeSettings, added };
}

/** Settings without what sluice added (objects it leaves empty are dropped); a scalar someone changed since stays. */
export function removeSandbox(settings: ClaudeSettings, added: AddedSettings, entries: SandboxEntries, file: string): ClaudeSettings {
  const out = structuredClone(settings) as Json;
  for (const key of ARRAY_KEYS) {
    const have = arrayAt(out, key, file);
    if (have === undefined) continue;
    const ours = new Set(added.arrays[key] ?? []);
    const { parent, name } = parentOf(out, key, file, false);
    const kept = have.filter((x) => !ours.has(x));
    if (kept.length > 0) parent![name] = kept;
    else delete parent![name];
  }
  for (const key of SCALAR_KEYS) {
    const record = added.scalars[key];
    const { parent, name } = parentOf(out, key, file, false);
    if (!record || !parent || parent[name] !== entries.scalars[key]) continue;
    if ('previous' in record) parent[name] = record.previous;
    else delete parent[name];
  }
  for (const key of ['sandbox.filesystem', 'sandbox', 'permissions']) {
    const { parent, name } = parentOf(out, key, file, false);
    if (parent && isObject(parent[name]) && Object.keys(parent[name] as Json).length === 0) delete parent[name];
  }
  return out as ClaudeSettings;
}

/** What the settings lack of the entries (for `sluice doctor`): `key: entry` lines, none when current. */
export function missingSandbox(settings: ClaudeSettings, entries: SandboxEntries, file: string): string[] {
  const out: string[] = [];
  for (const key of ARRAY_KEYS) {
    const have = arrayAt(settings as Json, key, file) ?? [];
    for (const entry of entries.arrays[key]) if (!have.includes(entry)) out.push(`${key}: ${entry}`);
  }
  for (const key of SCALAR_KEYS) {
    const { parent, name } = parentOf(settings as Json, key, file, false);
    if (parent?.[name] !== entries.scalars[key]) out.push(`${key}: ${entries.scalars[key]}`);
  }
  return out;
}
