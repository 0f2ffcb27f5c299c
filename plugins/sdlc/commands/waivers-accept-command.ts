import { SIGN_OPTION } from '../signing/sign-option.ts';
import { defineCommand, escapeControl } from '../../../core/index.ts';
import { WaiversAcceptOutput } from './sdlc-outputs.ts';

export const waiversAcceptCommand = defineCommand({
  name: 'waivers accept',
  summary:
    'accept the `WAIVED:` lines the phase gates find (all, or those of FILE...): each waiver is recorded in history with its file, who and why, and who accepted it',
  args: ['[file...]'],
  options: [
    { flags: '--phase <id>', description: 'phase whose gates are run (default: the current phase)' },
    { flags: '--reason <text>', description: 'why the waivers are accepted (recorded in history; default: a count and who accepted)' },
    { flags: '--signed-by <name>', description: 'who accepts (default: the OS user; unverified unless --sign)' },
    { ...SIGN_OPTION, description: `${SIGN_OPTION.description}; required where the profile requires signed approvals` },
  ],
  examples: [
    'sluice waivers accept --signed-by "Ana Ruiz" --reason "Budget is set by the client board in week 3"',
    'sluice waivers accept constraints.md --sign ~/.ssh/id_ed25519 --json',
  ],
  output: WaiversAcceptOutput,
  async run({ args, options }, { kernel, io, signal }) {
    const { acceptWaivers } = await import('../waivers/accept-waivers.ts');
    const { personLabel } = await import('../signing/person-label.ts');
    const files = (Array.isArray(args[0]) ? args[0] : args.filter((a) => a !== undefined)).map(String);
    const r = await acceptWaivers(kernel, {
      files,
      phase: options.phase as string | undefined,
      reason: options.reason as string | undefined,
      signedBy: options.signedBy as string | undefined,
      sign: options.sign as boolean | string | undefined,
      signal,
    });
    const s = io.style;
    const where = (w: { file: string; line?: number }) => escapeControl(`${w.file}${w.line ? `:${w.line}` : ''}`);
    const line = (w: (typeof r.accepted)[number]) => `${where(w)}: waived by ${escapeControl(w.who)}; ${escapeControl(JSON.stringify(w.why))}`;
    const by = r.entry ? personLabel(r.entry.confirmed_by, r.entry.signature?.principal) : '';
    const human = [
      ...r.accepted.map((w) => `${s.green('Accepted')} ${line(w)}`),
      ...r.alreadyAccepted.map((w) => s.dim(`Already accepted ${line(w)}`)),
      r.entry
        ? `Recorded in history (phase ${r.phase}) by ${escapeControl(by)}: ${escapeControl(JSON.stringify(r.entry.justification))}`
        : r.alreadyAccepted.length
          ? `Nothing to record: every waiver of phase ${r.phase} is already accepted`
          : `No waivers in phase ${r.phase}: nothing to accept`,
    ].join('\n');
    return { exitCode: 0, data: { phase: r.phase, accepted: r.accepted, alreadyAccepted: r.alreadyAccepted, entry: r.entry ?? null }, human };
  },
});
