import { SIGN_OPTION } from '../signing/sign-option.ts';
import { defineCommand, SluiceError } from '../../../core/index.ts';
import { MoveOutput } from './sdlc-outputs.ts';

export const skipCommand = defineCommand({
  name: 'skip',
  summary: 'skip the current phase without its gates (justification recorded in history; needs --confirmed)',
  options: [
    { flags: '--justification <text>', description: 'why the phase is skipped (required)' },
    { flags: '--confirmed', description: 'human sign-off: actually skip' },
    { flags: '--signed-by <name>', description: 'who confirms the skip (default: the OS user)' },
    SIGN_OPTION,
  ],
  examples: ['sluice skip --justification "No deployment: the library ships through npm by CI" --confirmed'],
  output: MoveOutput,
  async run({ options }, { kernel, io }) {
    const justification = (options.justification as string | undefined)?.trim();
    if (!justification) throw new SluiceError('USAGE', { field: '--justification', message: 'a justification is required: it is recorded in history' });
    if (options.confirmed !== true) {
      throw new SluiceError('APPROVAL_REQUIRED', {
        message: 'skipping bypasses every gate of the phase; rerun with --confirmed to skip it',
        hint: 'sluice skip --justification TEXT --confirmed',
      });
    }
    const { skipPhase } = await import('../transition/move-phase.ts');
    const { renderGuidance } = await import('./render-next.ts');
    const { phaseTitle, phaseData } = await import('./render-results.ts');
    const r = await skipPhase(kernel, { justification, signedBy: options.signedBy as string | undefined, sign: options.sign as boolean | string | undefined });
    const s = io.style;
    const human = [`${s.yellow('Skipped')} ${phaseTitle(r.from)}: ${justification}`, ...renderGuidance(r.to, r.artifactDir, s, r.projectType)].join('\n');
    return { exitCode: 0, data: { kind: r.kind, from: phaseData(r.from), to: phaseData(r.to), entry: r.entry, artifactDir: r.artifactDir }, human };
  },
});
