import { definePlugin } from '../../core/index.ts';
import { tuneErrors } from './tune-errors.ts';
import { tuneHooks } from './tune-hooks.ts';
import { TUNE_JOB } from './tune-job.ts';

/** Skill tuning (seed: skill-iter-tune.md): `sluice tune`, its state format and its hooks. */
export const skillTunePlugin = definePlugin({
  name: 'sluice:skill-tune',
  errorCodes: tuneErrors,
  hooks: tuneHooks,
  workflow: { description: 'execute → evaluate → improve loop over AI delegates, with scoring, termination, rollback and reports' },
  commands: {
    // A tune run executes and judges the skill on the delegate backends.
    tune: { needs: ['sluice:delegates'], load: async () => (await import('./tune-command.ts')).tuneCommand },
    'tune status': { load: async () => (await import('./tune-status-command.ts')).tuneStatusCommand },
  },
  schemas: {
    'iteration-state': {
      description: 'iteration-state.json of a `sluice tune` run',
      load: async () => (await import('./iteration-state-schema.ts')).IterationStateSchema,
    },
  },
  // By name, so a `sluice worker` on another machine runs the same handler the command runs here.
  durableJobs: {
    [TUNE_JOB]: async (kernel) => {
      const { runTuneJob } = await import('./tune-job.ts');
      return (payload, job) => runTuneJob(kernel, payload, { signal: job.signal, say: job.progress });
    },
  },
});
