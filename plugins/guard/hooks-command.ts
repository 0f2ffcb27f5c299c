import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { commandOutput, defineCommand, SluiceError, type Host } from '../../core/index.ts';
import { checkHookCommand, shellQuote } from './check-hook-command.ts';
import { claudeProtections } from './claude-protections.ts';
import {
  AddedSettingsSchema,
  installSandbox,
  nothingAdded,
  removeSandbox,
  sandboxEntries,
  type AddedSettings,
  type SandboxEntries,
} from './claude-sandbox-settings.ts';
import { installSluiceHooks, removeSluiceHooks, type ClaudeSettings } from './claude-settings.ts';
import './guard-errors.ts';

export const SETTINGS = '.claude/settings.json';
/** What sluice added to the settings, so `--remove` takes out exactly that. */
export const ADDED_RECORD = '.sluice/claude-settings.json';

async function readJsonObject(host: Host, path: string, display: string, what: string): Promise<Record<string, unknown> | undefined> {
  if (!(await host.stat(path))) return undefined;
  const text = await host.readText(path, { maxBytes: 1 << 20 });
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    throw new SluiceError('CONFIG_MALFORMED', {
      file: display,
      message: `${display} is not valid JSON (${e instanceof Error ? e.message : 'parse error'}); it was left untouched`,
    });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SluiceError('CONFIG_INVALID', { file: display, message: `${display} is not ${what}; it was left untouched` });
  return parsed as Record<string, unknown>;
}

/** `.claude/settings.json` (or another settings file of the project) as a JSON object; none is `{}`. */
export async function readClaudeSettings(host: Host, root: string, file = SETTINGS): Promise<ClaudeSettings> {
  const parsed = (await readJsonObject(host, join(root, file), file, 'a JSON object')) ?? {};
  const hooks = (parsed as ClaudeSettings).hooks;
  if (hooks !== undefined && (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)))
    throw new SluiceError('CONFIG_INVALID', { file, field: 'hooks', message: `${file} field hooks is not an object; it was left untouched` });
  return parsed as ClaudeSettings;
}

async function readAdded(host: Host, root: string): Promise<AddedSettings | undefined> {
  const raw = await readJsonObject(host, join(root, ADDED_RECORD), ADDED_RECORD, "sluice's record of what it added");
  if (raw === undefined) return undefined;
  const parsed = v.safeParse(AddedSettingsSchema, raw);
  if (!parsed.success)
    throw new SluiceError('STATE_INVALID', {
      file: ADDED_RECORD,
      field: v.getDotPath(parsed.issues[0]) ?? undefined,
      message: `${ADDED_RECORD} does not match its format`,
    });
  return parsed.output;
}

/**
 * How the hooks run sluice: this node and this installation's bin, by absolute path, never a bare
 * `sluice` from PATH (which an agent could shadow with its own).
 */
export function defaultHookCommand(host: Host): string {
  let bin = host.asset('bin', 'sluice.cjs');
  try {
    bin = realpathSync(bin);
  } catch {
    // Run from a bundle without bin/ beside it: the entry this process started from.
    bin = realpathSync(process.argv[1]!);
  }
  return `${shellQuote(process.execPath)} ${shellQuote(bin)}`;
}

/** Everything `sluice hooks install claude` writes for a project: the hooks' command and the sandbox entries. */
export async function wantedClaudeSettings(host: Host, root: string): Promise<{ command: string; entries: SandboxEntries; installationSkipped?: string }> {
  const protections = await claudeProtections(host, root, { nodeBinary: process.execPath, installation: host.asset() });
  return { command: defaultHookCommand(host), entries: sandboxEntries(protections), installationSkipped: protections.installationSkipped };
}

export const hooksInstallCommand = defineCommand({
  name: 'hooks install',
  summary:
    "add sluice's hooks (SessionStart handoff, PreToolUse guard) and Claude Code's sandbox and permission rules to .claude/settings.json; --remove takes them out",
  args: ['<agent>'],
  options: [
    { flags: '--remove', description: 'take out what sluice added, keeping every other setting' },
    { flags: '--command <cmd>', description: 'how the hooks run sluice (default: this node and this sluice, by absolute path); checked before it is written' },
  ],
  examples: ['sluice hooks install claude', 'sluice hooks install claude --remove'],
  output: commandOutput({
    file: v.string(),
    changed: v.boolean(),
    removed: v.boolean(),
    command: v.optional(v.string()),
    record: v.string(),
    denyWrite: v.number(),
    denyRead: v.number(),
    permissionRules: v.number(),
  }),
  async run({ args, options }, { host, cwd }) {
    if (args[0] !== 'claude')
      throw new SluiceError('USAGE', { field: '<agent>', message: `no hooks for agent ${JSON.stringify(String(args[0]))}; supported: claude` });
    const path = join(cwd, SETTINGS);
    const before = await readClaudeSettings(host, cwd);
    const record = await readAdded(host, cwd);
    const wanted = await wantedClaudeSettings(host, cwd);
    const remove = options.remove === true;
    const counts = {
      denyWrite: wanted.entries.arrays['sandbox.filesystem.denyWrite'].length,
      denyRead: wanted.entries.arrays['sandbox.filesystem.denyRead'].length,
      permissionRules: wanted.entries.arrays['permissions.deny'].length,
    };
    let after: ClaudeSettings;
    let added: AddedSettings | undefined;
    let command: string | undefined;
    if (remove) {
      // Without the record (deleted with .sluice/), what sluice would add now is what it takes out; scalars stay.
      after = removeSandbox(removeSluiceHooks(before), record ?? { ...nothingAdded(), arrays: wanted.entries.arrays }, wanted.entries, SETTINGS);
    } else {
      command = (options.command as string | undefined) ?? wanted.command;
      await checkHookCommand(host, cwd, command);
      ({ settings: after, added } = installSandbox(installSluiceHooks(before, command), wanted.entries, record ?? nothingAdded(), SETTINGS));
    }
    const changed = JSON.stringify(before) !== JSON.stringify(after);
    if (changed) {
      await host.mkdir(join(cwd, '.claude'));
      await host.writeAtomic(path, `${JSON.stringify(after, null, 2)}\n`);
    }
    if (remove) {
      if (record) await host.remove(join(cwd, ADDED_RECORD));
    } else if (JSON.stringify(added) !== JSON.stringify(record)) {
      await host.mkdir(join(cwd, '.sluice'));
      await host.writeAtomic(join(cwd, ADDED_RECORD), `${JSON.stringify(added, null, 2)}\n`);
    }
    const what = remove
      ? "removed sluice's hooks, sandbox settings and permission rules from"
      : `installed sluice's hooks (running ${command}), Claude Code's sandbox (${counts.denyWrite} paths read-only, ${counts.denyRead} hidden) and ${counts.permissionRules} permission rules in`;
    const skipped =
      wanted.installationSkipped && !remove ? `\nsluice's installation ${wanted.installationSkipped} holds this project, so it is not made read-only` : '';
    return {
      exitCode: 0,
      data: { file: SETTINGS, changed, removed: remove, ...(command ? { command } : {}), record: ADDED_RECORD, ...counts },
      human: `${changed ? `${what} ${SETTINGS}` : `${SETTINGS} already ${remove ? "has none of sluice's settings" : "has sluice's settings"}; nothing changed`}${skipped}`,
    };
  },
});
