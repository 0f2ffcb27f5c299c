import { defineErrorCodes, ExitCode } from '../core/index.ts';

const usage = ExitCode.usage;

/** The error codes sluice:delegates reports (`sluice errors` lists them with the kernel's). */
export const delegatesErrors = defineErrorCodes('sluice:delegates', {
  SCRIPT_INVALID: { exit: usage, title: 'delegate script file is invalid', hint: 'fix the named field' },
});

type DelegateErrorCodes = typeof delegatesErrors;

declare module '../core/errors/catalog.ts' {
  interface ErrorCodes extends DelegateErrorCodes {}
}
