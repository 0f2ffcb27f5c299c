import * as v from 'valibot';
import { commandOutput, configuredSecrets, createSecretRedactor, defineCommand, loadConfig, SluiceError, type Host } from '../../core/index.ts';

/** The project's configuration as loaded now, for telling whether it changed under a running server. */
async function configNow(host: Host, root: string): Promise<string> {
  try {
    return JSON.stringify(await loadConfig(host, root));
  } catch (error) {
    return `unreadable: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** `sluice mcp`: the agent's sluice tools over the Model Context Protocol (stdio), for Claude Code, Codex, Gemini CLI and other MCP clients. */
export const mcpCommand = defineCommand({
  name: 'mcp',
  summary: "serve the agent's sluice tools (status, gate, next as a dry run, specs, lifecycle, ...) and the reports over the Model Context Protocol on stdio",
  examples: ['sluice mcp', 'sluice mcp --cwd .'],
  output: commandOutput({ calls: v.pipe(v.number(), v.description('tool calls served before the client closed the connection')) }),
  async run(_input, { kernel, host, cwd, signal }) {
    const { serveMcp } = await import('./mcp-server.ts');
    const redact = createSecretRedactor({ ...host.envAll(), ...configuredSecrets(kernel.config) }).redact;
    const started = await configNow(host, cwd);
    // One kernel serves every call, so a configuration changed under it (plugins, delegates) would be
    // obeyed only in part: such a call is refused until the server restarts. Project files (state,
    // profile, artifacts, specs) are read afresh on every call.
    const stale = async () =>
      (await configNow(host, cwd)) === started
        ? undefined
        : new SluiceError('MCP_CONFIG_CHANGED', { message: 'sluice.config changed since `sluice mcp` started; restart the MCP server to use it' });
    const { calls } = await serveMcp({ kernel, redact, signal, stale });
    return { exitCode: 0, data: { calls }, human: '' };
  },
});
