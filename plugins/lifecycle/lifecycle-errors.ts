import { defineErrorCodes, ExitCode } from '../../core/index.ts';

const usage = ExitCode.usage;
const blocked = ExitCode.blocked;

/** The error codes sluice:lifecycle reports (`sluice errors` lists them with the kernel's). */
export const lifecycleErrors = defineErrorCodes('sluice:lifecycle', {
  SLUG_INVALID: {
    exit: usage,
    title: 'invalid requirement slug',
    hint: 'use letters (any script), digits, "-" and "_", starting and ending with a letter or digit: no ".", no separators',
  },
  LIFECYCLE_RULE: { exit: blocked, title: 'lifecycle rule refuses this move', hint: 'the message names the rule; follow the next stage it reports' },
  ORCHESTRATOR_MISMATCH: { exit: blocked, title: 'another orchestrator owns this requirement', hint: 'let the owning orchestrator advance it' },
  COMMIT_NOT_AUTHORIZED: {
    exit: blocked,
    title: 'commit is not authorized',
    hint: 'confirm interactively, or have the trusted host grant local_commit_authorized',
  },
  COMMIT_DECLINED: { exit: blocked, title: 'a person declined the commit', hint: 'resume with `sluice lifecycle record SLUG commit`' },
  ARTIFACT_INVALID: { exit: usage, title: 'artifact does not match its format', hint: 'fix the named field of the artifact' },
  ARTIFACT_MISSING: { exit: blocked, title: 'authoritative artifact is missing', hint: 'the stage has not produced its evidence yet' },
  EVIDENCE_STALE: { exit: blocked, title: 'evidence does not describe the current work', hint: 'run the stage again so it writes fresh evidence' },
  COMMIT_UNRECOGNIZED: {
    exit: blocked,
    title: 'a commit for this requirement was not made by sluice',
    hint: "a person inspects the commit and decides; sluice does not count it as the requirement's commit",
  },
  SECRET_PATH_REFUSED: {
    exit: blocked,
    title: 'the commit request names a file that looks like a secret',
    hint: 'remove it from commit-request.json, or confirm it by name at a terminal',
  },
  GIT_FAILED: { exit: blocked, title: 'a git command failed', hint: "the message carries git's own error; fix the repository and run again" },
});

type LifecycleErrorCodes = typeof lifecycleErrors;

declare module '../../core/errors/catalog.ts' {
  interface ErrorCodes extends LifecycleErrorCodes {}
}
