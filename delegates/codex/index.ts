import { cliDelegatePlugin } from '../cli-delegate/index.ts';

/** The `codex` backend: `codex exec - --json`, prompt on stdin, sandboxed by mode. */
export const codexDelegatePlugin = cliDelegatePlugin({
  name: 'codex',
  description: 'OpenAI Codex CLI (codex exec --json), prompt on stdin; analysis runs in a read-only sandbox',
  defaultCommand: 'codex',
  settingsSchema: async () => (await import('../cli-process/index.ts')).CodexSettingsSchema,
  run: async (request, ctx, command) => (await import('./run-codex.ts')).runCodex(request, ctx, command),
});
