import { SIGN_OPTION } from '../signing/sign-option.ts';
import { defineCommand } from '../../../core/index.ts';
import { NextOutput } from './sdlc-outputs.ts';

export const nextCommand = defineCommand({
  name: 'next',
  summary:
    'advance to the next phase by registry order (or sign off the final phase) once MUST gates pass; --confirmed approves the manual gates it lists (dry run without --confirmed)',
  options: [
    {
      flags: '--confirmed',
      description: 'human sign-off: actually advance, approving every manual gate listed (unless the profile sets per_gate_approval); without it, a dry run',
    },
    { flags: '--approve <gate...>', description: 'approve a manual gate by its id (repeatable); the ids are shown by `sluice next` and `sluice gate`' },
    { flags: '--signed-by <name>', description: 'who approves and confirms (required with --approve; default: the OS user)' },
    SIGN_OPTION,
    { flags: '--justification <text>', description: 'reason recorded in history (default: a summary of the gate run)' },
  ],
  examples: [
    'sluice next',
    'sluice next --approve G7:scope-boundaries-are-unambiguous-a-reader-can --signed-by "Ana Ruiz"',
    'sluice next --signed-by "Ana Ruiz" --confirmed',
  ],
  output: NextOutput,
  async run({ options }, { kernel, io, signal }) {
    const { nextPhase } = await import('../transition/next-phase.ts');
    const { renderNext } = await import('./render-next.ts');
    const report = await nextPhase(kernel, {
      confirmed: options.confirmed === true,
      approve: (options.approve as string[] | undefined) ?? [],
      signedBy: options.signedBy as string | undefined,
      sign: options.sign as boolean | string | undefined,
      justification: options.justification as string | undefined,
      signal,
    });
    const { human, data } = renderNext(report, io.style);
    if (report.run) {
      const { reportToCi } = await import('../ci/ci-report.ts');
      const { phaseTitle } = await import('./render-results.ts');
      await reportToCi({
        host: kernel.host,
        io,
        cwd: kernel.projectRoot,
        command: 'next',
        project: report.projectName,
        phase: report.run.phase,
        phaseTitle: phaseTitle(report.phase),
        verdict: report.status,
        results: report.run.results,
      });
    }
    return { exitCode: report.exitCode, data, human };
  },
});
