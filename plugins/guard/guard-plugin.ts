import { definePlugin } from '../../core/index.ts';
import { guardCommand } from './guard-command.ts';
import { guardErrors } from './guard-errors.ts';
import { hooksInstallCommand } from './hooks-command.ts';

/** The Claude Code guard and the command that installs it (with the session handoff hook). */
export const guardPlugin = definePlugin({
  name: 'sluice:guard',
  setup(ctx) {
    ctx.registerErrorCodes(guardErrors);
    ctx.registerCommand(guardCommand);
    ctx.registerCommand(hooksInstallCommand);
  },
});
