import { defineErrorCodes, ExitCode } from '../../core/index.ts';

/** The error codes sluice:guard reports (`sluice errors` lists them with the kernel's). */
export const guardErrors = defineErrorCodes('sluice:guard', {
  CLAUDE_HOOK_UNUSABLE: {
    exit: ExitCode.usage,
    title: 'the hook command does not answer as sluice guard',
    hint: 'nothing was installed; check the command (--command) runs sluice, or reinstall sluice',
  },
});

type GuardErrorCodes = typeof guardErrors;

declare module '../../core/errors/catalog.ts' {
  interface ErrorCodes extends GuardErrorCodes {}
}
