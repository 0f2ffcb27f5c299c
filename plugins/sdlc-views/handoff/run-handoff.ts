import {
  isSluiceError,
  jsonCodec,
  parseDataText,
  readDataFile,
  readDataText,
  realPathInside,
  type CommandContext,
  type CommandInput,
  type CommandOutcome,
} from '../../../core/index.ts';
import { claudeSessionStartPayload } from './claude-hook-payload.ts';
import { readHandoffLeniently } from './lenient-handoff.ts';
import { projectLine } from './project-line.ts';
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
 * `--hook claude` answers Claude Code's SessionStart hook instead and never fails the session (exit 0
 * always): it opens with the project/phase line the reference's hook prints, then summarises whatever
 * fields of the handoff are valid and warns about the rest; with neither a project nor a handoff
 * there is nothing to add.
 */
export async function runHandoff(input: CommandInput, ctx: CommandContext): Promise<CommandOutcome> {
  if (input.options.hook === undefined) {
    const summary = await readSummary(ctx);
    const s = ctx.io.style;
    const [first, ...rest] = handoffText(summary).split('\n');
    return { exitCode: 0, data: summary, human: [s.bold(first), ...rest.map((l) => (l.startsWith('WARNING') ? s.yellow(l) : l))].join('\n') };
  }
  // What the CLI tolerated to get here (a config it could not read) leads, one warning line each.
  const tolerated = (ctx.problems ?? []).map((e) => `[SDLC] WARNING: ${e.message}; the defaults apply`);
  const lines = [...tolerated, ...(await hookProjectLines(ctx)), ...(await hookHandoffLines(ctx))];
  const payload = lines.length === 0 ? {} : claudeSessionStartPayload(lines.join('\n'));
  return { exitCode: 0, data: payload, human: JSON.stringify(payload) };
}

/** The reference hook's project/phase line; a project that cannot be read becomes a warning. */
async function hookProjectLines(ctx: CommandContext): Promise<string[]> {
  try {
    const line = await projectLine(ctx.kernel);
    return line ? [line] : [];
  } catch (error) {
    if (!isSluiceError(error)) throw error;
    return [`[SDLC] WARNING: the SDLC project could not be read: ${error.message}`];
  }
}

/** The handoff summary from the valid fields, then one warning per field left out. */
async function hookHandoffLines(ctx: CommandContext): Promise<string[]> {
  let raw: unknown;
  try {
    const path = await realPathInside(ctx.host, ctx.kernel.projectRoot, SESSION_HANDOFF_PATH, 'session handoff');
    raw = parseDataText(await readDataText(ctx.host, path, { display: SESSION_HANDOFF_PATH }), jsonCodec, SESSION_HANDOFF_PATH);
  } catch (error) {
    if (!isSluiceError(error)) throw error;
    if (error.code === 'FILE_NOT_FOUND') return [];
    return [`[SDLC] The session handoff could not be read, so this session starts without it: ${error.message}`];
  }
  const { handoff, warnings } = readHandoffLeniently(raw, SESSION_HANDOFF_PATH);
  return [handoffText(summarizeHandoff(handoff)), ...warnings.map((w) => `[SDLC] WARNING: ${w}`)];
}
