import { LifecycleStartOutput } from './lifecycle-outputs.ts';
import { defineCommand } from '../../../core/index.ts';
import { createLifecycleContext } from '../lifecycle-context.ts';
import { nextInvocation } from '../record-stage.ts';
import { ARTIFACT_KINDS, type ArtifactKind } from '../slug.ts';
import { startRequirement } from '../start-requirement.ts';
import { stateLine, summarizeState } from './state-summary.ts';

export const lifecycleStartCommand = defineCommand({
  name: 'lifecycle start',
  summary: 'create the workflow state of a requirement (plan runs first)',
  args: ['<slug>'],
  options: [
    { flags: '--kind <kind>', description: 'artifact folder: .prizmkit/<kind>/<slug>/', choices: [...ARTIFACT_KINDS] },
    { flags: '--orchestrator <id>', description: 'the coordinator that alone may advance it (default: none, direct stage use)' },
    { flags: '--goal <text>', description: 'write spec.md with this goal when there is none' },
  ],
  examples: [
    'sluice lifecycle start parse-durations --goal "accept 1h30m style timeouts"',
    'sluice lifecycle start fix-123 --kind bugfix --orchestrator prizmkit-workflow',
  ],
  output: LifecycleStartOutput,
  async run({ args, options }, ctx) {
    const slug = args[0] as string;
    const lc = createLifecycleContext(ctx.kernel, ctx.cwd);
    const r = await startRequirement(lc, slug, {
      kind: options.kind as ArtifactKind | undefined,
      orchestrator: (options.orchestrator as string | undefined) ?? null,
      goal: options.goal as string | undefined,
    });
    const next = nextInvocation(slug, r.state);
    const s = ctx.io.style;
    return {
      exitCode: 0,
      data: { ...summarizeState(slug, r.state), created: r.created, specWritten: r.specWritten, next },
      human: [
        `${r.created ? 'started' : 'already started'}: ${stateLine(s, slug, r.state)}`,
        r.specWritten ? s.dim(`wrote ${r.state.artifact_dir}/spec.md`) : '',
        next.command ? `next: ${s.bold(next.command)}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    };
  },
});
