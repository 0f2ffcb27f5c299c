import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { commandDocumentSchema, SluiceError, type Kernel } from '../../core/index.ts';
import { sluiceVersion } from '../../core/version.ts';
import { AGENT_TOOLS, type AgentTool } from './agent-tools.ts';
import { listReportResources, readReportResource } from './report-resources.ts';
import { errorAnswer, runAgentTool, type ToolRun } from './run-tool.ts';

export interface McpServeOptions {
  kernel: Kernel;
  redact(text: string): string;
  signal: AbortSignal;
  /** Checked before every call: a reason the loaded kernel no longer fits the project (its config changed), or undefined. */
  stale(): Promise<SluiceError | undefined>;
}

/** A valibot schema as the JSON Schema a client sees (draft-07, without the `$schema` line MCP does not ask for). */
function jsonSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  const { $schema: _draft, ...rest } = toJsonSchema(schema, { errorMode: 'ignore' }) as Record<string, unknown>;
  return rest;
}

/** The tools whose command is loaded, with their input schema and the command's --json document schema as output schema. */
function toolList(kernel: Kernel, tools: readonly AgentTool[]) {
  return tools
    .filter((t) => kernel.commands.has(t.command))
    .map((t) => {
      const output = kernel.commands.require(t.command).output;
      return {
        name: t.name,
        description: t.description,
        inputSchema: { type: 'object' as const, ...jsonSchemaOf(t.input) },
        ...(output ? { outputSchema: { type: 'object' as const, ...jsonSchemaOf(commandDocumentSchema(output)) } } : {}),
        annotations: { readOnlyHint: t.name !== 'gate' && t.name !== 'lifecycle_record', destructiveHint: false, openWorldHint: false },
      };
    });
}

/**
 * The Model Context Protocol server on stdio: the agent tools (agent-tools.ts) and the reports as
 * resources, over the one kernel this process loaded, so a call costs no process start. The answer
 * to a tool call is the command's --json document as structured content (and as text); a failure,
 * bad arguments included, is a tool error (`isError`) carrying the CLI's error document. Resolves
 * when the client closes the connection (stdin ends) or the signal aborts.
 */
export async function serveMcp(o: McpServeOptions): Promise<{ calls: number }> {
  const server = new Server(
    { name: 'sluice', version: sluiceVersion },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'sluice governs this project: SDLC phase gates, requirement lifecycles and skill tuning. Read state with status, gate, next (a dry run), specs, handoff, audit, lifecycle_status, lifecycle_next and tune_status; record a lifecycle stage with lifecycle_record. Approvals, advancing a phase, skips, re-entries, trust and commits are the person’s: ask them.',
    },
  );
  const run: ToolRun = { kernel: o.kernel, redact: o.redact, signal: o.signal };
  const tools = toolList(o.kernel, AGENT_TOOLS);
  let calls = 0;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    calls++;
    const tool = AGENT_TOOLS.find((t) => t.name === request.params.name && tools.some((listed) => listed.name === t.name));
    const stale = await o.stale();
    const answer = stale
      ? errorAnswer(run, stale)
      : tool
        ? await runAgentTool(run, tool, request.params.arguments)
        : errorAnswer(run, new SluiceError('UNKNOWN_COMMAND', { message: `no sluice tool ${JSON.stringify(request.params.name.slice(0, 100))}` }));
    // Usage, configuration and lock errors are failed calls; a blocked gate (exit 1) is an answer.
    return {
      content: [{ type: 'text' as const, text: JSON.stringify(answer.document) }],
      structuredContent: answer.document,
      isError: answer.exitCode >= 2,
      _meta: { 'sluice/exitCode': answer.exitCode },
    };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listReportResources(o.kernel) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const stale = await o.stale();
    if (stale) throw stale;
    const { text, mimeType } = await readReportResource(o.kernel, request.params.uri, o.signal);
    return { contents: [{ uri: request.params.uri, mimeType, text: o.redact(text) }] };
  });

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    const stop = () => resolve();
    // The client ends the session by closing our stdin (the MCP stdio transport's shutdown).
    process.stdin.once('end', stop);
    process.stdin.once('close', stop);
    o.signal.addEventListener('abort', stop, { once: true });
    transport.onclose = stop;
  });
  await server.connect(transport);
  await closed;
  await server.close();
  return { calls };
}
