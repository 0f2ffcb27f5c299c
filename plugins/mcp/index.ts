/**
 * sluice:mcp — `sluice mcp`, a Model Context Protocol server on stdio exposing the agent's sluice
 * tools (and none of the person's) over one loaded kernel.
 */
export { AGENT_TOOLS, type AgentTool } from './agent-tools.ts';
export { mcpErrors } from './mcp-errors.ts';
export { mcpPlugin } from './mcp-plugin.ts';
