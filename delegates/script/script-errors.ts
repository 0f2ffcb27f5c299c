import { defineErrorCodes, ExitCode } from '../../core/index.ts';

const usage = ExitCode.usage;

/** The error codes the script backend (sluice:delegate-script) reports (`sluice errors` lists them with the kernel's). */
export const scriptErrors = defineErrorCodes('sluice:delegate-script', {
  SCRIPT_INVALID: { exit: usage, title: 'delegate script file is invalid', hint: 'fix the named field' },
});

type ScriptErrorCodes = typeof scriptErrors;

declare module '../../core/errors/catalog.ts' {
  interface ErrorCodes extends ScriptErrorCodes {}
}
