import { defineCommand } from '../../../core/index.ts';

export const gateCommand = defineCommand({
  name: 'gate',
  summary: "run a phase's gates (the current phase by default) and store the results; exit 1 when a MUST gate fails",
  options: [{ flags: '--phase <id>', description: 'phase id from the registry (0, 1, build, close...)' }],
  examples: ['sluice gate', 'sluice gate --phase build --json'],
  async run({ options }, { kernel, io, signal }) {
    const { checkPhase } = await import('../gating/check-phase.ts');
    const { renderResults, renderSummary, runData, phaseData, phaseTitle } = await import('./render-results.ts');
    const r = await checkPhase(kernel, { phase: options.phase as string | undefined, signal });
    const s = io.style;
    const blocked = r.run.blockers.length > 0;
    const verdict = blocked ? s.red(`BLOCKED: ${r.run.blockers.length} MUST gate${r.run.blockers.length > 1 ? 's' : ''} failed`) : r.run.manual.length ? s.yellow(`${r.run.manual.length} manual gate${r.run.manual.length > 1 ? 's' : ''} await sign-off`) : s.green('all gates passed');
    const human = [s.bold(`${phaseTitle(r.phase)}${r.current ? '' : ' (not the current phase)'}`), ...renderResults(r.run, s), renderSummary(r.run, s), verdict].join('\n');
    return { exitCode: blocked ? 1 : 0, data: { ...runData(r.run), phaseInfo: phaseData(r.phase), current: r.current, blocked }, human };
  },
});
