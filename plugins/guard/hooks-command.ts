import { join } from 'node:path';
import * as v from 'valibot';
import { commandOutput, defineCommand, SluiceError, type Host } from '../../core/index.ts';
import { installSluiceHooks, removeSluiceHooks, type ClaudeSettings } from './claude-settings.ts';

const SETTINGS = '.claude/settings.json';

async function readSettings(host: Host, path: string): Promise<ClaudeSettings> {
  if (!(await host.stat(path))) return {};
  const text = await host.readText(path, { maxBytes: 1 << 20 });
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    throw new SluiceError('CONFIG_MALFORMED', {
      file: SETTINGS,
      message: `${SETTINGS} is not valid JSON (${e instanceof Error ? e.message : 'parse error'}); it was left untouched`,
    });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SluiceError('CONFIG_INVALID', { file: SETTINGS, message: `${SETTINGS} is not a JSON object; it was left untouched` });
  const hooks = (parsed as ClaudeSettings).hooks;
  if (hooks !== undefined && (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)))
    throw new SluiceError('CONFIG_INVALID', { file: SETTINGS, field: 'hooks', message: `${SETTINGS} field hooks is not an object; it was left untouched` });
  return parsed as ClaudeSettings;
}

/** How the hooks call sluice: the project's own install when there is one, else `sluice` on PATH. */
async function defaultCommand(host: Host, root: string): Promise<string> {
  return (await host.stat(join(root, 'node_modules/.bin/sluice'))) ? '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/sluice' : 'sluice';
}

export const hooksInstallCommand = defineCommand({
  name: 'hooks install',
  summary: "add sluice's hooks to .claude/settings.json: SessionStart (handoff) and PreToolUse (guard); --remove takes them out",
  args: ['<agent>'],
  options: [
    { flags: '--remove', description: "take sluice's hooks out again, keeping every other setting" },
    { flags: '--command <cmd>', description: "how the hooks run sluice (default: the project's node_modules/.bin/sluice, else `sluice`)" },
  ],
  examples: ['sluice hooks install claude', 'sluice hooks install claude --remove'],
  output: commandOutput({ file: v.string(), changed: v.boolean(), removed: v.boolean() }),
  async run({ args, options }, { host, cwd }) {
    if (args[0] !== 'claude')
      throw new SluiceError('USAGE', { field: '<agent>', message: `no hooks for agent ${JSON.stringify(String(args[0]))}; supported: claude` });
    const path = join(cwd, SETTINGS);
    const before = await readSettings(host, path);
    const remove = options.remove === true;
    const after = remove ? removeSluiceHooks(before) : installSluiceHooks(before, (options.command as string | undefined) ?? (await defaultCommand(host, cwd)));
    const changed = JSON.stringify(before) !== JSON.stringify(after);
    if (changed) {
      await host.mkdir(join(cwd, '.claude'));
      await host.writeAtomic(path, `${JSON.stringify(after, null, 2)}\n`);
    }
    const what = remove ? "removed sluice's hooks from" : "installed sluice's SessionStart and PreToolUse hooks in";
    return {
      exitCode: 0,
      data: { file: SETTINGS, changed, removed: remove },
      human: changed ? `${what} ${SETTINGS}` : `${SETTINGS} already ${remove ? 'has no sluice hooks' : "has sluice's hooks"}; nothing changed`,
    };
  },
});
