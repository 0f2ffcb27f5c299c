import { LifecycleRecordOutput } from './lifecycle-outputs.ts';
import { defineCommand, SluiceError } from '../../../core/index.ts';
import { createLifecycleContext } from '../lifecycle-context.ts';
import { checkSlug } from '../slug.ts';
import { parseStage, STAGES, type Stage } from '../transition-table.ts';
import { stateLine, summarizeState } from './state-summary.ts';

export const lifecycleRecordCommand = defineCommand({
  name: 'lifecycle record',
  summary: "record a stage's result from its artifact (commit: preview, authorize, commit); or unblock",
  args: ['<slug>', '<stage>'],
  options: [
    { flags: '--orchestrator <id>', description: 'who is recording; must match the recorded orchestrator' },
    { flags: '--blocked <reason>', description: 'the stage could not produce its evidence (retrospective: RETRO_BLOCKED)' },
    { flags: '--resolution <text>', description: 'with stage "unblock": what resolved the blocker' },
  ],
  examples: [
    'sluice lifecycle record parse-durations code-review',
    'sluice lifecycle record parse-durations test --orchestrator prizmkit-workflow',
    'sluice lifecycle record parse-durations unblock --resolution "restarted postgres"',
  ],
  output: LifecycleRecordOutput,
  async run({ args, options }, ctx) {
    const slug = checkSlug(args[0]);
    const stage = args[1] === 'unblock' ? 'unblock' : parseStage(args[1] as string);
    if (stage === undefined) {
      throw new SluiceError('USAGE', {
        field: 'stage',
        message: `unknown stage ${JSON.stringify(args[1])}; use ${STAGES.join(', ')} (or committer) or unblock`,
      });
    }
    const caller = (options.orchestrator as string | undefined) ?? null;
    const lc = createLifecycleContext(ctx.kernel, ctx.cwd);
    const record = await import('../record-stage.ts');
    const blocked = options.blocked as string | undefined;
    const result =
      stage === 'unblock'
        ? await record.unblockRequirement(lc, slug, (options.resolution as string | undefined) ?? '', caller, { io: ctx.io })
        : blocked !== undefined
          ? await record.recordBlocked(lc, slug, stage as Stage, blocked, caller)
          : stage === 'commit'
            ? await (await import('../commit/commit-stage.ts')).runCommitStage(lc, slug, caller, { io: ctx.io })
            : await record.recordStage(lc, slug, stage as Exclude<Stage, 'commit'>, caller);
    const s = ctx.io.style;
    const isBlocked = result.state.status === 'WORKFLOW_BLOCKED';
    return {
      exitCode: isBlocked ? 1 : 0,
      data: {
        ...summarizeState(slug, result.state),
        row: result.row,
        ...(result.rule ? { rule: result.rule } : {}),
        ...(result.artifact ? { artifact: result.artifact } : {}),
        next: result.next,
      },
      human: [
        stateLine(s, slug, result.state),
        s.dim(`transition ${result.row}${result.artifact ? ` (read as ${result.artifact.format})` : ''}`),
        result.next.command ? `next (not run): ${s.bold(result.next.command)}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    };
  },
});
