import { defineCommand } from '../../../core/index.ts';
import { GateOutput } from './sdlc-outputs.ts';

export const gateCommand = defineCommand({
  name: 'gate',
  summary: "run a phase's gates (the current phase by default) and store the results; exit 1 when a MUST gate fails",
  options: [
    { flags: '--phase <id>', description: 'phase id from the registry (0, 1, build, close...)' },
    { flags: '--junit <file>', description: 'also write the results as JUnit XML (a failing MUST gate is a failure)' },
  ],
  examples: ['sluice gate', 'sluice gate --phase build --json', 'sluice gate --junit sluice-gates.xml'],
  output: GateOutput,
  async run({ options }, { kernel, io, signal }) {
    const { checkPhase } = await import('../gating/check-phase.ts');
    const { renderResults, renderSummary, runData, phaseData, phaseTitle } = await import('./render-results.ts');
    const r = await checkPhase(kernel, { phase: options.phase as string | undefined, signal });
    const s = io.style;
    const blocked = r.run.blockers.length > 0;
    const verdict = blocked
      ? s.red(`BLOCKED: ${r.run.blockers.length} MUST gate${r.run.blockers.length > 1 ? 's' : ''} failed`)
      : r.run.manual.length
        ? s.yellow(`${r.run.manual.length} manual gate${r.run.manual.length > 1 ? 's' : ''} await sign-off`)
        : s.green('all gates passed');
    const { reportToCi } = await import('../ci/ci-report.ts');
    const plainVerdict = blocked
      ? `BLOCKED: ${r.run.blockers.length} MUST gate(s) failed`
      : r.run.manual.length
        ? `${r.run.manual.length} manual gate(s) await sign-off`
        : 'all gates passed';
    await reportToCi({
      host: kernel.host,
      io,
      cwd: kernel.projectRoot,
      command: 'gate',
      project: r.project.state.project_name,
      phase: r.run.phase,
      phaseTitle: phaseTitle(r.phase),
      verdict: plainVerdict,
      results: r.run.results,
      junit: options.junit as string | undefined,
    });
    const human = [
      s.bold(`${phaseTitle(r.phase)}${r.current ? '' : ' (not the current phase)'}`),
      ...renderResults(r.run, s),
      renderSummary(r.run, s),
      verdict,
    ].join('\n');
    return { exitCode: blocked ? 1 : 0, data: { phase: phaseData(r.phase), current: r.current, blocked, ...runData(r.run) }, human };
  },
});
