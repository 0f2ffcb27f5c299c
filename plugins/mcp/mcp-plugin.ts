import { definePlugin } from '../../core/index.ts';
import { mcpErrors } from './mcp-errors.ts';

/** `sluice mcp`: what an agent may do with sluice, as Model Context Protocol tools. The SDK loads only when it runs. */
export const mcpPlugin = definePlugin({
  name: 'sluice:mcp',
  errorCodes: mcpErrors,
  commands: {
    // The server answers for every command an agent may run, over one kernel: it sets up every plugin.
    mcp: { needs: ['*'], load: async () => (await import('./mcp-command.ts')).mcpCommand },
  },
});
