import { SIGN_OPTION } from '../signing/sign-option.ts';
import { defineCommand } from '../../../core/index.ts';
import { MoveOutput } from './sdlc-outputs.ts';

export const reenterCommand = defineCommand({
  name: 'reenter',
  summary: 're-enter an earlier completed or skipped phase (history entry with reentry: true)',
  args: ['<phase>'],
  options: [
    { flags: '--justification <text>', description: 'why the phase is re-entered (required)' },
    { flags: '--signed-by <name>', description: 'who decided (default: the OS user)' },
    SIGN_OPTION,
  ],
  examples: ['sluice reenter 3 --justification "Foundation rails gap discovered during the Build loop"'],
  output: MoveOutput,
  async run({ args, options }, { kernel, io }) {
    const { reenterPhase } = await import('../transition/move-phase.ts');
    const { renderGuidance } = await import('./render-next.ts');
    const { phaseTitle, phaseData } = await import('./render-results.ts');
    const r = await reenterPhase(kernel, String(args[0]), {
      justification: String(options.justification ?? ''),
      signedBy: options.signedBy as string | undefined,
      sign: options.sign as boolean | string | undefined,
    });
    const s = io.style;
    const human = [
      `${s.yellow('Re-entered')} ${phaseTitle(r.to)} from ${phaseTitle(r.from)}: ${r.entry.justification}`,
      ...renderGuidance(r.to, r.artifactDir, s, r.projectType),
    ].join('\n');
    return { exitCode: 0, data: { kind: r.kind, from: phaseData(r.from), to: phaseData(r.to), entry: r.entry, artifactDir: r.artifactDir }, human };
  },
});
