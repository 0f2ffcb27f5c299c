import { definePlugin } from '../../core/index.ts';
import { IterationStateSchema } from './iteration-state-schema.ts';
import { tuneCommand } from './tune-command.ts';
import { tuneErrors } from './tune-errors.ts';
import { tuneHooks } from './tune-hooks.ts';
import { tuneStatusCommand } from './tune-status-command.ts';
import { runTuneJob, TUNE_JOB } from './tune-job.ts';

/** Skill tuning (seed: skill-iter-tune.md): `sluice tune`, its state format and its hooks. */
export const skillTunePlugin = definePlugin({
  name: 'sluice:skill-tune',
  setup(ctx) {
    ctx.registerErrorCodes(tuneErrors);
    ctx.declareHooks(tuneHooks);
    ctx.registerSchema('iteration-state', IterationStateSchema, 'iteration-state.json of a `sluice tune` run');
    ctx.registerWorkflow({
      name: 'skill-tune',
      description: 'execute → evaluate → improve loop over AI delegates, with scoring, termination, rollback and reports',
      commands: ['tune', 'tune status'],
      schemas: ['iteration-state'],
    });
    ctx.registerCommand(tuneCommand);
    ctx.registerCommand(tuneStatusCommand);
    // By name, so a `sluice worker` on another machine runs the same handler the command runs here.
    ctx.registerDurableJob(TUNE_JOB, (payload, job) => runTuneJob(ctx.kernel, payload, { signal: job.signal, say: job.progress }));
  },
});
