import { LifecycleNextOutput } from './lifecycle-outputs.ts';
import { defineCommand } from '../../../core/index.ts';
import { createLifecycleContext } from '../lifecycle-context.ts';
import { nextInvocation, readWorkflowState } from '../record-stage.ts';
import { judgeFreshness, loadRecordedFingerprints } from '../recovery/freshness.ts';
import { checkSlug } from '../slug.ts';
import { stateLine } from './state-summary.ts';

export const lifecycleNextCommand = defineCommand({
  name: 'lifecycle next',
  summary: 'say which stage runs next and how to invoke it (runs nothing)',
  args: ['<slug>'],
  examples: ['sluice lifecycle next parse-durations --json'],
  output: LifecycleNextOutput,
  async run({ args }, ctx) {
    const slug = checkSlug(args[0]);
    const lc = createLifecycleContext(ctx.kernel, ctx.cwd);
    const state = await readWorkflowState(lc, slug);
    const freshness = judgeFreshness(state, await lc.fingerprint(), await loadRecordedFingerprints(lc));
    const next = nextInvocation(slug, state);
    const s = ctx.io.style;
    const stale =
      freshness === 'stale'
        ? `the workspace changed since the last recorded result: run \`sluice lifecycle recover ${slug}\` so review and test run again`
        : '';
    return {
      exitCode: next.blocked ? 1 : 0,
      data: { slug, status: state.status, orchestrator: state.orchestrator, next, freshness, blocker: state.blocker },
      human: [
        stateLine(s, slug, state),
        next.command ? `next: ${s.bold(next.command)}${state.orchestrator ? s.dim(` (only ${state.orchestrator} may run it)`) : ''}` : 'nothing left to run',
        stale && s.yellow(stale),
      ]
        .filter(Boolean)
        .join('\n'),
    };
  },
});
