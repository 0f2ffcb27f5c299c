import { definePlugin } from '../../core/index.ts';
import { demoCommand } from './commands/demo-command.ts';
import { doctorCommand } from './doctor/doctor-command.ts';
import { errorsCommand } from './commands/errors-command.ts';
import { pluginsCommand } from './commands/plugins-command.ts';
import { schemaCommand } from './commands/schema-command.ts';
import { trustCommand } from './commands/trust-command.ts';
import { anchorCommand } from './commands/anchor-command.ts';
import { cliErrors } from './cli-errors.ts';

/** The CLI's own commands: introspection of the kernel, and the demo. */
export const cliPlugin = definePlugin({
  name: 'sluice:cli',
  enforce: 'pre',
  setup(ctx) {
    ctx.registerErrorCodes(cliErrors);
    ctx.registerCommand(pluginsCommand);
    ctx.registerCommand(schemaCommand);
    ctx.registerCommand(demoCommand);
    ctx.registerCommand(trustCommand);
    ctx.registerCommand(anchorCommand);
    ctx.registerCommand(errorsCommand);
    ctx.registerCommand(doctorCommand);
  },
});
