import { defineErrorCodes, ExitCode } from '../../core/index.ts';

const usage = ExitCode.usage;

/** The error codes sluice:skill-tune reports (`sluice errors` lists them with the kernel's). */
export const tuneErrors = defineErrorCodes('sluice:skill-tune', {
  SKILL_NOT_FOUND: { exit: usage, title: 'skill not found', hint: 'pass a skill folder or SKILL.md path' },
  TUNE_RUN_INVALID: { exit: usage, title: 'tune run folder is not resumable', hint: 'pass a folder made by `sluice tune`' },
  TUNE_PROJECT_MISSING: {
    exit: usage,
    title: 'the project of a tune job is not on this worker',
    hint: 'a worker tunes skills in the project folder at the path the job names: run it on that machine or share the folder',
  },
  SKILL_INVALID: {
    exit: usage,
    title: 'skill does not pass validation',
    hint: 'SKILL.md needs YAML frontmatter with non-empty name and description, and a non-empty body',
  },
});

type TuneErrorCodes = typeof tuneErrors;

declare module '../../core/errors/catalog.ts' {
  interface ErrorCodes extends TuneErrorCodes {}
}
