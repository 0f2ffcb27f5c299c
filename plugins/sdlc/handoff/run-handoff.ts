import { readDataFile, isSluiceError, realPathInside, type CommandContext, type CommandInput, type CommandOutcome } from '../../../core/index.ts';
import { claudeSessionStartPayload } from './claude-hook-payload.ts';
import { SESSION_HANDOFF_PATH, SessionHandoffSchema } from './session-handoff-schema.ts';
import { handoffText, summarizeHandoff, type HandoffSummary } from './summarize-handoff.ts';

async function readSummary(ctx: CommandContext): Promise<HandoffSummary> {
  // The build folder may be a symlink; what is read must still be inside the project.
  const path = await realPathInside(ctx.host, ctx.kernel.projectRoot, SESSION_HANDOFF_PATH, 'session handoff');
  const handoff = await readDataFile(ctx.host, path, SessionHandoffSchema, { display: SESSION_HANDOFF_PATH });
  return summarizeHandoff(handoff);
}

/**
 * `sluice handoff`: validates the handoff file and prints what the next session needs.
 * `--hook claude` answers Claude Code's SessionStart hook instead: it never fails the session
 * (exit 0 always); no handoff file means nothing to add, an invalid one becomes a warning for the agent.
 */
export async function runHandoff(input: CommandInput, ctx: CommandContext): Promise<CommandOutcome> {
  if (input.options.hook === undefined) {
    const summary = await readSummary(ctx);
    const s = ctx.io.style;
    const [first, ...rest] = handoffText(summary).split('\n');
    return { exitCode: 0, data: summary, human: [s.bold(first), ...rest.map((l) => (l.startsWith('WARNING') ? s.yellow(l) : l))].join('\n') };
  }
  let context: string | undefined;
  try {
    context = handoffText(await readSummary(ctx));
  } catch (error) {
    if (!isSluiceError(error)) throw error;
    if (error.code !== 'FILE_NOT_FOUND') context = `[SDLC] The session handoff could not be read, so this session starts without it: ${error.message}`;
  }
  const payload = context === undefined ? {} : claudeSessionStartPayload(context);
  return { exitCode: 0, data: payload, human: JSON.stringify(payload) };
}
