import { defineCommand } from '../../../core/index.ts';

/** `sluice status`: the project dashboard. */
export const statusCommand = defineCommand({
  name: 'status',
  summary: 'project dashboard: current phase, progress, phase table with dates and artifacts, recent history',
  examples: ['sluice status', 'sluice status --json'],
  async run(_input, ctx) {
    const { runStatus } = await import('./run-status.ts');
    return runStatus(ctx);
  },
});
