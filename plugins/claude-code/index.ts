import { definePlugin } from '../../core/plugin/define.ts';

/**
 * sluice:claude-code, the Claude Code plugin (.claude-plugin/plugin.json, commands/, skills/, hooks/,
 * .mcp.json): files Claude Code reads, which call the `sluice` command. It registers nothing on a kernel;
 * the guard it hooks in is sluice:guard and its MCP server sluice:mcp.
 */
export const claudeCodePlugin = definePlugin({
  name: 'sluice:claude-code',
  setup() {},
});
