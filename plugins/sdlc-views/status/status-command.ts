import { defineCommand } from '../../../core/index.ts';
import { StatusOutput } from '../view-outputs.ts';

/** `sluice status`: the project dashboard. */
export const statusCommand = defineCommand({
  name: 'status',
  summary: 'project dashboard: current phase, progress, phase table with dates and artifacts, recent history',
  examples: ['sluice status', 'sluice status --json'],
  output: StatusOutput,
  async run(_input, ctx) {
    const { runStatus } = await import('./run-status.ts');
    return runStatus(ctx);
  },
});
