import { LifecycleRecordOutput } from './lifecycle-outputs.ts';
import { defineCommand } from '../../../core/index.ts';
import { createLifecycleContext } from '../lifecycle-context.ts';
import { checkSlug } from '../slug.ts';
import { stateLine, summarizeState } from './state-summary.ts';

export const lifecycleAdoptCommitCommand = defineCommand({
  name: 'lifecycle adopt-commit',
  summary:
    'record a commit made outside sluice (PrizmKit, a person) as the requirement commit, after checking it holds what review and test saw; a person confirms',
  args: ['<slug>', '<commit>'],
  options: [{ flags: '--orchestrator <id>', description: 'who is recording; must match the recorded orchestrator' }],
  examples: ['sluice lifecycle adopt-commit parse-durations HEAD'],
  output: LifecycleRecordOutput,
  async run({ args, options }, ctx) {
    const slug = checkSlug(args[0]);
    const lc = createLifecycleContext(ctx.kernel, ctx.cwd);
    const { adoptCommit } = await import('../commit/adopt-commit.ts');
    const result = await adoptCommit(lc, slug, String(args[1]), (options.orchestrator as string | undefined) ?? null, ctx.io);
    return {
      exitCode: 0,
      data: { ...summarizeState(slug, result.state), row: result.row, next: result.next },
      human: [
        stateLine(ctx.io.style, slug, result.state),
        ctx.io.style.dim(`adopted ${result.state.commit?.sha ?? ''} (checked against review, test and retrospective)`),
      ].join('\n'),
    };
  },
});
