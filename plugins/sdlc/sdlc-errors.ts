import { defineErrorCodes, ExitCode } from '../../core/index.ts';

const usage = ExitCode.usage;
const blocked = ExitCode.blocked;

/** The error codes sluice:sdlc reports (`sluice errors` lists them with the kernel's). */
export const sdlcErrors = defineErrorCodes('sluice:sdlc', {
  PROJECT_MISSING: { exit: usage, title: 'no sluice SDLC project here', hint: 'run `sluice init` or pass --cwd' },
  PROJECT_EXISTS: { exit: usage, title: 'project is already initialised', hint: 'pass --force to re-initialise' },
  PROFILE_NOT_FOUND: { exit: usage, title: 'profile not found', hint: 'use a built-in profile id, a folder or an installed package' },
  PROFILE_INVALID: { exit: usage, title: 'profile does not match its schema', hint: 'run `sluice profile validate PATH` for every violation' },
  COMPLIANCE_INVALID: { exit: usage, title: 'compliance gate file does not match its schema', hint: 'fix the named field' },
  REGISTRY_INVALID: { exit: usage, title: 'phase registry does not match its schema', hint: 'fix the named field' },
  PHASE_UNKNOWN: { exit: usage, title: 'unknown phase', hint: 'use a phase id from the registry' },
  APPROVAL_REQUIRED: { exit: blocked, title: 'confirmation required', hint: 'rerun with --confirmed' },
  ADVANCE_VETOED: { exit: blocked, title: 'a plugin vetoed the transition', hint: 'the named plugin refused; see its message' },
  PHASE_MOVED: { exit: blocked, title: 'the phase changed while gates ran', hint: 'another process advanced the project; run again to check the new phase' },
  TRANSITION_INVALID: { exit: usage, title: 'transition not allowed', hint: 'see the rule in the message' },
  WIP_CAP_BREACHED: { exit: blocked, title: 'more specs in flight than the WIP cap allows', hint: 'merge or park specs before starting more' },
  FROZEN_MODIFIED: {
    exit: blocked,
    title: 'a frozen file changed after init',
    hint: 'restore it, or record the change with `sluice refreeze FILE --reason TEXT --signed-by NAME`',
  },
  SIGNATURE_REQUIRED: {
    exit: blocked,
    title: 'the profile requires signed approvals',
    hint: 'rerun with --sign (your SSH key must be in .sdlc/allowed_signers)',
  },
});

type SdlcErrorCodes = typeof sdlcErrors;

declare module '../../core/errors/catalog.ts' {
  interface ErrorCodes extends SdlcErrorCodes {}
}
