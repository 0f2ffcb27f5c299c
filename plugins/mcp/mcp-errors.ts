import { defineErrorCodes, ExitCode } from '../../core/index.ts';

/** The error codes sluice:mcp reports (`sluice errors` lists them with the kernel's). */
export const mcpErrors = defineErrorCodes('sluice:mcp', {
  MCP_CONFIG_CHANGED: {
    exit: ExitCode.usage,
    title: 'sluice.config changed since the MCP server started',
    hint: 'restart `sluice mcp` (in Claude Code: /mcp, then reconnect) so it loads the new configuration',
  },
  MCP_RESOURCE_UNKNOWN: { exit: ExitCode.usage, title: 'no such sluice resource', hint: 'list the resources first (resources/list)' },
});

type McpErrorCodes = typeof mcpErrors;

declare module '../../core/errors/catalog.ts' {
  interface ErrorCodes extends McpErrorCodes {}
}
