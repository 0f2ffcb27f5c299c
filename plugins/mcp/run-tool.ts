import * as v from 'valibot';
import { isInside, jsonEnvelope, jsonSafe, quietIO, SluiceError, toSluiceError, type Kernel } from '../../core/index.ts';
import type { AgentTool } from './agent-tools.ts';

export interface ToolAnswer {
  /** The command's `--json` document, exactly as the CLI prints it (redacted, control characters escaped). */
  document: Record<string, unknown>;
  exitCode: number;
  /** Lines the command printed for people or as diagnostics (GitHub annotations, warnings). */
  lines: string[];
}

export interface ToolRun {
  kernel: Kernel;
  /** The redaction every sluice output passes through (the environment's and the config's secrets). */
  redact(text: string): string;
  signal: AbortSignal;
}

/** The document as the CLI would print it, read back: the same redaction and escaping, so both answer alike. */
const asPrinted = (run: ToolRun, doc: Record<string, unknown>) => JSON.parse(jsonSafe(run.redact(JSON.stringify(doc)))) as Record<string, unknown>;

/** Where an error names a file: relative to the project when inside it, as the CLI's errors do. */
const shownFrom = (root: string) => (path: string) => (isInside(root, path) && path !== root ? path.slice(root.length + 1) : path);

/** The error document of a failure, as the CLI prints it under --json. */
export function errorAnswer(run: ToolRun, error: unknown, lines: string[] = []): ToolAnswer {
  const e = toSluiceError(error, 'INTERNAL', {}, shownFrom(run.kernel.projectRoot));
  return { document: asPrinted(run, { ok: false, error: e.toJSON() }), exitCode: e.exitCode, lines };
}

/** Arguments that break the tool's schema: a USAGE error naming the first field, as a bad flag would be. */
function parseInput(tool: AgentTool, input: unknown): Record<string, unknown> {
  const parsed = v.safeParse(tool.input, input ?? {});
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const field = v.getDotPath(issue) ?? undefined;
  const known = Object.keys(tool.input.entries);
  const message =
    issue.type === 'strict_object'
      ? `${tool.name} takes ${known.length === 0 ? 'no arguments' : `only ${known.join(', ')}`}`
      : `${tool.name}: ${issue.message}`;
  throw new SluiceError('USAGE', { ...(field ? { field } : {}), message });
}

/**
 * Runs one agent tool: the arguments checked against its schema, then its sluice command exactly as
 * the CLI runs it after parsing, with an IO that asks nothing and prints nowhere (stdout is the
 * protocol). Every failure, a thrown bug included, becomes the CLI's error document: a tool call never
 * takes the server down. Each call reads the project's files afresh, as a new process would.
 */
export async function runAgentTool(run: ToolRun, tool: AgentTool, input: unknown): Promise<ToolAnswer> {
  const lines: string[] = [];
  try {
    const call = tool.call(parseInput(tool, input));
    const command = run.kernel.commands.require(tool.command);
    const outcome = await command.run(call, {
      kernel: run.kernel,
      host: run.kernel.host,
      cwd: run.kernel.projectRoot,
      io: quietIO(lines, { json: true }),
      signal: run.signal,
    });
    return { document: asPrinted(run, jsonEnvelope(outcome)), exitCode: outcome.exitCode, lines };
  } catch (error) {
    return errorAnswer(run, error, lines);
  }
}
