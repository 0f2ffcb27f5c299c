import { definePlugin } from '../../core/index.ts';
import { guardErrors } from './guard-errors.ts';

/** The Claude Code guard and the command that installs it (with the session handoff hook). */
export const guardPlugin = definePlugin({
  name: 'sluice:guard',
  errorCodes: guardErrors,
  commands: {
    guard: { load: async () => (await import('./guard-command.ts')).guardCommand },
    'hooks install': { load: async () => (await import('./hooks-command.ts')).hooksInstallCommand },
  },
});
