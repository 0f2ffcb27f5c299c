import { cliDelegatePlugin } from '../cli-delegate/index.ts';

/** The `shell` backend: a configured command with the prompt on stdin (org tools, local models). */
export const shellDelegatePlugin = cliDelegatePlugin({
  name: 'shell',
  description: 'a configured command (delegates.shell.command) with the prompt on stdin',
  settingsSchema: async () => (await import('../cli-process/index.ts')).ShellSettingsSchema,
  run: async (request, ctx, command) => (await import('./run-shell.ts')).runShell(request, ctx, command),
});
