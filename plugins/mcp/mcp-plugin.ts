import { definePlugin } from '../../core/index.ts';
import { mcpCommand } from './mcp-command.ts';
import { mcpErrors } from './mcp-errors.ts';

/** `sluice mcp`: what an agent may do with sluice, as Model Context Protocol tools. The SDK loads only when it runs. */
export const mcpPlugin = definePlugin({
  name: 'sluice:mcp',
  setup(ctx) {
    ctx.registerErrorCodes(mcpErrors);
    ctx.registerCommand(mcpCommand);
  },
});
