import { defineCommand } from '../../../core/index.ts';
import { RefreezeOutput } from './sdlc-outputs.ts';

export const refreezeCommand = defineCommand({
  name: 'refreeze',
  summary: 'accept a deliberate change of a frozen file (profile, registry, compliance): its new checksum is recorded in history with who and why',
  args: ['<file...>'],
  options: [
    { flags: '--reason <text>', description: 'why the frozen file changed (required; recorded in history)' },
    { flags: '--signed-by <name>', description: 'who accepts the change (default: the OS user)' },
    {
      flags: '--sign [key]',
      description:
        'sign with your SSH key, checked against .sdlc/allowed_signers (required where the profile requires signed approvals or an allowed_signers was frozen)',
    },
  ],
  examples: ['sluice refreeze .sdlc/profile.yaml --reason "Coverage minimum raised to 85% by the QA board" --signed-by "Ana Ruiz"'],
  output: RefreezeOutput,
  async run({ args, options }, { kernel, io, cwd }) {
    const { refreezeFiles } = await import('../transition/refreeze.ts');
    const files = (Array.isArray(args[0]) ? args[0] : args).map(String);
    const r = await refreezeFiles(kernel, {
      files,
      reason: String(options.reason ?? ''),
      signedBy: options.signedBy as string | undefined,
      sign: options.sign as boolean | string | undefined,
      cwd,
    });
    const s = io.style;
    const human = [
      ...r.files.map((f) =>
        f.checksum === null
          ? `${s.yellow('No longer frozen')} ${f.file} (removed)`
          : `${s.green('Re-frozen')} ${f.file}${f.previous === f.checksum ? s.dim(' (unchanged)') : ''}`,
      ),
      `Recorded in history by ${r.entry.confirmed_by}: ${JSON.stringify(r.entry.justification)}`,
    ].join('\n');
    return { exitCode: 0, data: { files: r.files, entry: r.entry }, human };
  },
});
