import { defineCommand } from '../../../core/index.ts';
import { ReportOutput } from '../view-outputs.ts';

/** `sluice report`: self-contained HTML pages for stakeholders. */
export const reportCommand = defineCommand({
  name: 'report',
  summary: 'self-contained HTML report of a phase (or of every phase plus an index): gates, artifacts, judgements to sign, timeline',
  options: [
    { flags: '--phase <id>', description: 'phase to report on (default: the current phase)' },
    { flags: '--all', description: 'every phase, plus an index page' },
    { flags: '--out <path>', description: 'output file (or folder with --all); default .sdlc/reports/' },
  ],
  examples: ['sluice report', 'sluice report --phase 7', 'sluice report --all --out docs/sdlc'],
  output: ReportOutput,
  async run(input, ctx) {
    const { runReport } = await import('./run-report.ts');
    return runReport(input, ctx);
  },
});
