import { LifecycleRecoverOutput } from './lifecycle-outputs.ts';
import { defineCommand } from '../../../core/index.ts';
import { createLifecycleContext } from '../lifecycle-context.ts';
import { nextInvocation } from '../record-stage.ts';
import { stateLine, summarizeState } from './state-summary.ts';

export const lifecycleRecoverCommand = defineCommand({
  name: 'lifecycle recover',
  summary: 'rebuild a requirement state from its artifacts, the workspace and git; resume at the first incomplete stage',
  args: ['<slug>'],
  options: [{ flags: '--orchestrator <id>', description: 'who is recovering; must match the recorded orchestrator' }],
  examples: ['sluice lifecycle recover parse-durations'],
  output: LifecycleRecoverOutput,
  async run({ args, options }, ctx) {
    const { recoverRequirement } = await import('../recovery/recover-requirement.ts');
    const lc = createLifecycleContext(ctx.kernel, ctx.cwd);
    const slug = args[0] as string;
    const r = await recoverRequirement(lc, slug, (options.orchestrator as string | undefined) ?? null);
    const s = ctx.io.style;
    const lines = [s.bold(`Recovery of ${slug} (${r.artifactDir})`), ...r.steps.map((x) => `  ${x.step}. ${x.title}: ${s.dim(x.finding)}`), ''];
    if (r.movedAside) lines.push(s.yellow(`the unreadable state file was moved to ${r.movedAside}`));
    if (r.unrecognizedCommit)
      lines.push(s.red(`COMMIT_UNRECOGNIZED: commit ${r.unrecognizedCommit.slice(0, 12)} was not made by sluice; a person decides what it means`));
    lines.push(`${r.written ? 'reconstructed' : 'unchanged'}: ${stateLine(s, slug, r.state)}`);
    return {
      exitCode: r.state.status === 'WORKFLOW_BLOCKED' || r.unrecognizedCommit ? 1 : 0,
      data: {
        ...summarizeState(slug, r.state),
        steps: r.steps,
        previous: r.previous && { status: r.previous.status, completedStages: r.previous.completed_stages, nextStage: r.previous.next_stage },
        removed: r.removed,
        added: r.added,
        written: r.written,
        ...(r.movedAside ? { movedAside: r.movedAside } : {}),
        ...(r.unrecognizedCommit ? { unrecognizedCommit: r.unrecognizedCommit } : {}),
        next: nextInvocation(slug, r.state),
      },
      human: lines.join('\n'),
    };
  },
});
