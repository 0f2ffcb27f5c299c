import { resolve } from 'node:path';
import type { CommandContext, CommandInput, CommandOutcome } from '../../../../core/index.ts';
import { openProject } from '../../project/open-project.ts';
import { sdlcStateFile } from '../../state/state-file.ts';
import { SdlcStateReadSchema } from '../../state/state-read-schema.ts';
import { auditGates, compareAudits } from '../model/gate-audit.ts';
import { renderAudit, renderComparison } from './render-audit.ts';

/**
 * `--compare OTHER`: another project's state.yaml, or the project folder holding it. It is the
 * user's explicit choice of a file to read (never written), so it may lie outside this project.
 */
async function readOtherState(ctx: CommandContext, other: string) {
  const full = resolve(ctx.cwd, other);
  const info = await ctx.host.stat(full);
  const path = info?.kind === 'dir' ? resolve(full, '.sdlc/state.yaml') : full;
  return ctx.kernel.store.read({ path, codec: sdlcStateFile(path).codec, schema: SdlcStateReadSchema });
}

/** `sluice audit`: gate effectiveness and every human decision in the history `sluice next` wrote. */
export async function runAudit(input: CommandInput, ctx: CommandContext): Promise<CommandOutcome> {
  const project = await openProject(ctx.kernel, { readOnly: true });
  const audit = auditGates(project.state);
  const other = input.options.compare;
  if (typeof other !== 'string') return { exitCode: 0, data: audit, human: renderAudit(audit, ctx.io.style) };
  const otherAudit = auditGates(await readOtherState(ctx, other));
  const comparison = compareAudits(audit, otherAudit);
  return {
    exitCode: 0,
    data: { ...audit, compare: { project: otherAudit.project, audit: otherAudit, gates: comparison } },
    human: `${renderAudit(audit, ctx.io.style)}\n\n${renderComparison(audit, otherAudit, comparison, ctx.io.style)}`,
  };
}
