import { cliDelegatePlugin } from '../cli-delegate/index.ts';

/** The `agy` backend: Google Antigravity CLI in print mode with JSON output. */
export const agyDelegatePlugin = cliDelegatePlugin({
  name: 'agy',
  description: 'Google Antigravity CLI (agy -p --output-format json); analysis runs in plan mode',
  defaultCommand: 'agy',
  settingsSchema: async () => (await import('../cli-process/index.ts')).AgySettingsSchema,
  run: async (request, ctx, command, kernel) => (await import('./run-agy.ts')).runAgy(request, ctx, command, kernel),
});
