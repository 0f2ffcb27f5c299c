import { cliDelegatePlugin } from '../cli-delegate/index.ts';

/** The `claude` backend: Claude Code in print mode, prompt on stdin. */
export const claudeDelegatePlugin = cliDelegatePlugin({
  name: 'claude',
  description: 'Claude Code (claude -p), prompt on stdin; analysis runs in plan mode',
  defaultCommand: 'claude',
  settingsSchema: async () => (await import('../cli-process/index.ts')).ClaudeSettingsSchema,
  run: async (request, ctx, command) => (await import('./run-claude.ts')).runClaude(request, ctx, command),
});
