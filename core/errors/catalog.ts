/**
 * The kernel's error codes. Every error a user can see has an entry in a catalog: the exit code it
 * maps to (see DESIGN.md), a short title and a hint that says what to do. Workflows and other plugins
 * declare their own codes with `defineErrorCodes` (error-codes.ts); `sluice errors` lists them all.
 */
import { defineErrorCodes } from './error-codes.ts';

export const ExitCode = {
  ok: 0,
  blocked: 1,
  usage: 2,
  busy: 3,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface CatalogEntry {
  exit: ExitCodeValue;
  title: string;
  hint: string;
}

const usage = ExitCode.usage;
const blocked = ExitCode.blocked;

export const errorCatalog = defineErrorCodes('sluice', {
  // --- command line and configuration -------------------------------------------------
  USAGE: { exit: usage, title: 'invalid usage', hint: 'run `sluice help <command>` for the accepted arguments' },
  UNKNOWN_COMMAND: { exit: usage, title: 'unknown command', hint: 'run `sluice --help` to list commands' },
  CONFIG_MALFORMED: { exit: usage, title: 'configuration file cannot be parsed', hint: 'fix the syntax at the reported position' },
  CONFIG_INVALID: { exit: usage, title: 'configuration does not match its schema', hint: 'see `sluice schema config` for the accepted fields' },
  INTERNAL: { exit: usage, title: 'internal error', hint: 'this is a bug in sluice or a plugin; rerun with SLUICE_DEBUG=1 and report it' },

  // --- kernel: plugins, hooks, queue --------------------------------------------------
  PLUGIN_NOT_FOUND: { exit: usage, title: 'plugin cannot be resolved', hint: 'check the path or install the package in the project' },
  PLUGIN_INVALID: { exit: usage, title: 'module is not a sluice plugin', hint: 'export a plugin made with definePlugin() as the default export' },
  PLUGIN_LOAD_FAILED: { exit: usage, title: 'plugin failed to load', hint: 'the named plugin failed to import or threw in setup (the message says which); fix or remove it from sluice.config' },
  PLUGIN_LOAD_TIMEOUT: { exit: usage, title: 'plugin did not finish loading in time', hint: 'the named plugin setup() hangs; fix it or raise pluginTimeoutMs' },
  PLUGIN_DUPLICATE: { exit: usage, title: 'two plugins register the same name', hint: 'remove one of them from sluice.config' },
  HOOK_UNDECLARED: { exit: usage, title: 'hook is not declared', hint: 'declare the hook with ctx.declareHook() before using it' },
  HOOK_FAILED: { exit: usage, title: 'a hook handler failed', hint: 'the named plugin threw inside the named hook' },
  HOOK_TIMEOUT: { exit: usage, title: 'a hook handler timed out', hint: 'the named plugin did not answer the named hook in time' },
  JOB_UNKNOWN: { exit: usage, title: 'no handler is registered for this job', hint: 'job handlers are registered by name with ctx.registerJob()' },
  JOB_PAYLOAD_NOT_JSON: { exit: usage, title: 'job payload is not plain JSON', hint: 'pass data, not functions or class instances; payloads must survive a distributed queue' },
  QUEUE_CANCELLED: { exit: blocked, title: 'job was cancelled', hint: 'the run was aborted before this job finished' },
  SCHEMA_UNKNOWN: { exit: usage, title: 'unknown schema name', hint: 'run `sluice schema --list` for the names' },

  // --- workspace trust ------------------------------------------------------------------
  WORKSPACE_UNTRUSTED: { exit: usage, title: 'project content would run but is not trusted', hint: 'review it with `sluice trust` on a terminal; a CI host sets SLUICE_TRUSTED_HASH' },
  TRUST_STORE_UNSAFE: { exit: usage, title: 'the trust store is not private to you', hint: 'it must be your own file, mode 600 in a folder only you can write, outside the project' },

  // --- files and state ------------------------------------------------------------------
  FILE_NOT_FOUND: { exit: usage, title: 'file not found', hint: 'check the path, or run the command that creates it' },
  FILE_NOT_REGULAR: { exit: usage, title: 'not a regular file', hint: 'sluice reads and writes only regular files; put a file at the named path (not a FIFO, device or folder)' },
  FILE_ACCESS_DENIED: { exit: usage, title: 'permission denied', hint: 'check the permissions of the named file and its folder' },
  FILE_SYSTEM_READ_ONLY: { exit: usage, title: 'file system is read-only', hint: 'run where the project is writable; nothing was changed' },
  DISK_FULL: { exit: usage, title: 'no space left on the device', hint: 'free some space and run again; the named file was left as it was' },
  FILE_IO_FAILED: { exit: usage, title: 'the system refused a file operation', hint: 'the message names the file and the system error' },
  FILE_TOO_LARGE: { exit: usage, title: 'file is larger than sluice will read', hint: 'state and config files are small; this one is not what it should be' },
  STATE_CORRUPT: { exit: usage, title: 'file cannot be parsed', hint: 'the file was left untouched; restore it from version control or fix the syntax' },
  STATE_INVALID: { exit: usage, title: 'file does not match its schema', hint: 'the file was left untouched; fix the named field' },
  STATE_MISSING: { exit: usage, title: 'state file does not exist', hint: 'initialise it first' },
  STATE_EXISTS: { exit: usage, title: 'state file already exists', hint: 'pass --force to replace it' },
  INVARIANT_VIOLATED: { exit: usage, title: 'update would break a state invariant', hint: 'nothing was written; the update is refused' },
  LOCK_BUSY: { exit: ExitCode.busy, title: 'another process holds the lock', hint: 'wait for it to finish and retry' },
  PATH_OUTSIDE_PROJECT: { exit: usage, title: 'path escapes the project', hint: 'use a path inside the project folder' },

  // --- SDLC workflow --------------------------------------------------------------------
  PROJECT_MISSING: { exit: usage, title: 'no sluice SDLC project here', hint: 'run `sluice init` or pass --cwd' },
  PROJECT_EXISTS: { exit: usage, title: 'project is already initialised', hint: 'pass --force to re-initialise' },
  PROFILE_NOT_FOUND: { exit: usage, title: 'profile not found', hint: 'use a built-in profile id, a folder or an installed package' },
  PROFILE_INVALID: { exit: usage, title: 'profile does not match its schema', hint: 'run `sluice profile validate PATH` for every violation' },
  COMPLIANCE_INVALID: { exit: usage, title: 'compliance gate file does not match its schema', hint: 'fix the named field' },
  REGISTRY_INVALID: { exit: usage, title: 'phase registry does not match its schema', hint: 'fix the named field' },
  PHASE_UNKNOWN: { exit: usage, title: 'unknown phase', hint: 'use a phase id from the registry' },
  GATE_TYPE_UNKNOWN: { exit: usage, title: 'unknown gate type', hint: 'run `sluice plugins` to list gate types' },
  GATES_BLOCKED: { exit: blocked, title: 'MUST gates failed', hint: 'fix the failing gates and run again' },
  REVIEW_REQUIRED: { exit: blocked, title: 'manual review required', hint: 'approve with --approve GATE --signed-by NAME --confirmed' },
  APPROVAL_REQUIRED: { exit: blocked, title: 'confirmation required', hint: 'rerun with --confirmed' },
  ADVANCE_VETOED: { exit: blocked, title: 'a plugin vetoed the transition', hint: 'the named plugin refused; see its message' },
  PHASE_MOVED: { exit: blocked, title: 'the phase changed while gates ran', hint: 'another process advanced the project; run again to check the new phase' },
  TRANSITION_INVALID: { exit: usage, title: 'transition not allowed', hint: 'see the rule in the message' },
  WIP_CAP_BREACHED: { exit: blocked, title: 'more specs in flight than the WIP cap allows', hint: 'merge or park specs before starting more' },
  FROZEN_MODIFIED: { exit: blocked, title: 'a frozen file changed after init', hint: 'restore it, or record the change with `sluice refreeze FILE --reason TEXT --signed-by NAME`' },

  // --- signatures -----------------------------------------------------------------------
  SIGNING_UNAVAILABLE: { exit: usage, title: 'ssh-keygen cannot be run', hint: 'install OpenSSH (ssh-keygen 8.2 or later) to sign or verify approvals' },
  SIGNING_FAILED: { exit: usage, title: 'signing with the SSH key failed', hint: 'check the key path (--sign KEY or SLUICE_SIGNING_KEY) and that its passphrase is loaded in ssh-agent' },
  SIGNERS_INVALID: { exit: usage, title: 'allowed_signers file is malformed', hint: 'each line is "principals [options] keytype key", as git\'s gpg.ssh.allowedSignersFile' },
  SIGNATURE_REQUIRED: { exit: blocked, title: 'the profile requires signed approvals', hint: 'rerun with --sign (your SSH key must be in .sdlc/allowed_signers)' },

  // --- delegates ------------------------------------------------------------------------
  DELEGATE_UNKNOWN: { exit: usage, title: 'unknown delegate backend', hint: 'run `sluice plugins` to list delegates' },
  DELEGATE_UNAVAILABLE: { exit: usage, title: 'delegate backend is not available', hint: 'install the CLI or set delegates.<name>.command in sluice.config' },
  DELEGATE_FAILED: { exit: blocked, title: 'delegate run did not succeed', hint: 'read the transcript for the backend output' },
  SCRIPT_INVALID: { exit: usage, title: 'delegate script file is invalid', hint: 'fix the named field' },

  // --- requirement lifecycle ------------------------------------------------------------
  SLUG_INVALID: { exit: usage, title: 'invalid requirement slug', hint: 'use letters, digits, dot, dash and underscore, without `..` or separators' },
  LIFECYCLE_RULE: { exit: blocked, title: 'lifecycle rule refuses this move', hint: 'the message names the rule; follow the next stage it reports' },
  ORCHESTRATOR_MISMATCH: { exit: blocked, title: 'another orchestrator owns this requirement', hint: 'let the owning orchestrator advance it' },
  COMMIT_NOT_AUTHORIZED: { exit: blocked, title: 'commit is not authorized', hint: 'confirm interactively, or have the trusted host grant local_commit_authorized' },
  ARTIFACT_INVALID: { exit: usage, title: 'artifact does not match its format', hint: 'fix the named field of the artifact' },
  ARTIFACT_MISSING: { exit: blocked, title: 'authoritative artifact is missing', hint: 'the stage has not produced its evidence yet' },
  STATE_TAMPERED: { exit: usage, title: 'lifecycle records were changed outside sluice', hint: 'nothing was written; the message says what differs from the journal; a person restores the file' },
  EVIDENCE_STALE: { exit: blocked, title: 'evidence does not describe the current work', hint: 'run the stage again so it writes fresh evidence' },
  COMMIT_UNRECOGNIZED: { exit: blocked, title: 'a commit for this requirement was not made by sluice', hint: 'a person inspects the commit and decides; sluice does not count it as the requirement\'s commit' },
  SECRET_PATH_REFUSED: { exit: blocked, title: 'the commit request names a file that looks like a secret', hint: 'remove it from commit-request.json, or confirm it by name at a terminal' },
  GIT_FAILED: { exit: blocked, title: 'a git command failed', hint: 'the message carries git\'s own error; fix the repository and run again' },

  // --- skill tuning ---------------------------------------------------------------------
  SKILL_NOT_FOUND: { exit: usage, title: 'skill not found', hint: 'pass a skill folder or SKILL.md path' },
  TUNE_RUN_INVALID: { exit: usage, title: 'tune run folder is not resumable', hint: 'pass a folder made by `sluice tune`' },
  EVALUATION_UNPARSEABLE: { exit: blocked, title: 'evaluator output has no usable score', hint: 'the raw output is saved next to the evaluation' },
  SKILL_INVALID: { exit: usage, title: 'skill does not pass validation', hint: 'SKILL.md needs YAML frontmatter with non-empty name and description, and a non-empty body' },
});

type KernelErrorCodes = typeof errorCatalog;
/**
 * Every code `new SluiceError(code)` accepts. A plugin adds its own by augmenting this interface with
 * the `typeof` of what it passed to `defineErrorCodes`, so the codes are stated once:
 * `declare module 'sluice' { interface ErrorCodes extends AcmeErrorCodes {} }`.
 */
export interface ErrorCodes extends KernelErrorCodes {}
export type ErrorCode = keyof ErrorCodes & string;
