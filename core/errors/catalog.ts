/**
 * The kernel's error codes. Every error a user can see has an entry in a catalog: the exit code it
 * maps to (see DESIGN.md), a short title and a hint that says what to do. Workflows and other plugins
 * declare their own codes with `defineErrorCodes` (error-codes.ts) and register them at setup
 * (`ctx.registerErrorCodes`); `sluice errors` lists them all. An error's entry is looked up when it is read.
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
  PLUGIN_LOAD_FAILED: {
    exit: usage,
    title: 'plugin failed to load',
    hint: 'the named plugin failed to import or threw in setup (the message says which); fix or remove it from sluice.config',
  },
  PLUGIN_LOAD_TIMEOUT: { exit: usage, title: 'plugin did not finish loading in time', hint: 'the named plugin setup() hangs; fix it or raise pluginTimeoutMs' },
  PLUGIN_DUPLICATE: { exit: usage, title: 'two plugins register the same name', hint: 'remove one of them from sluice.config' },
  PLUGIN_NEED_MISSING: {
    exit: usage,
    title: 'a plugin needs another plugin that is not loaded',
    hint: 'add the plugin it names to sluice.config plugins (before it), or remove the plugin that needs it',
  },
  PLUGIN_NEED_CYCLE: { exit: usage, title: 'plugins need each other in a cycle', hint: 'the message lists the cycle; one of them must not need the other' },
  PLUGIN_ERROR_CODE_PREFIX: {
    exit: usage,
    title: "a plugin's error codes lack its prefix",
    hint: 'a plugin outside sluice declares errorPrefix (e.g. ACME) and names every code it raises ACME_…',
  },
  PLUGIN_ERROR_CODE_COLLISION: {
    exit: usage,
    title: 'two plugins declare the same error code or prefix',
    hint: 'the message names both plugins; rename the codes (or the prefix) of one of them',
  },
  HOOK_UNDECLARED: { exit: usage, title: 'hook is not declared', hint: 'declare the hook with ctx.declareHook() before using it' },
  HOOK_FAILED: { exit: usage, title: 'a hook handler failed', hint: 'the named plugin threw inside the named hook' },
  HOOK_TIMEOUT: { exit: usage, title: 'a hook handler timed out', hint: 'the named plugin did not answer the named hook in time' },
  JOB_UNKNOWN: { exit: usage, title: 'no handler is registered for this job', hint: 'job handlers are registered by name with ctx.registerJob()' },
  JOB_PAYLOAD_NOT_JSON: {
    exit: usage,
    title: 'job payload is not plain JSON',
    hint: 'pass data, not functions or class instances; payloads must survive a distributed queue',
  },
  QUEUE_CANCELLED: { exit: blocked, title: 'job was cancelled', hint: 'the run was aborted before this job finished' },
  QUEUE_KEY_MISSING: {
    exit: usage,
    title: 'no queue key to sign or verify distributed jobs with',
    hint: 'run `sluice queue key` on one machine and install the same file on every worker and orchestrator (README: Running on many machines)',
  },
  QUEUE_JOB_UNSIGNED: {
    exit: usage,
    title: 'a queued job carries no signature',
    hint: 'it was not queued by a sluice holding the queue key (written into Redis by hand?); nothing of it ran. Protect the Redis server',
  },
  QUEUE_JOB_FORGED: {
    exit: usage,
    title: 'a queued job’s signature does not match it',
    hint: 'it was changed in Redis or signed with another queue key; nothing of it ran. Check every machine has the same queue key',
  },
  QUEUE_CHECKPOINT_FORGED: {
    exit: usage,
    title: 'a checkpoint is not signed with the queue key',
    hint: 'someone pushed it without the key (or with another one): nothing was adopted from it; inspect the ref, delete it, and run again',
  },
  QUEUE_LEASE_LOST: {
    exit: blocked,
    title: 'this worker lost the job’s lease',
    hint: 'it was frozen or cut off from Redis past its lease; another worker has the job now and this one’s work was discarded',
  },
  QUEUE_JOB_PATH_REFUSED: {
    exit: usage,
    title: 'a job names a file it may not write',
    hint: 'a job may only write its requirement’s own artifacts, state and journal: never .git/, absolute or .. paths, or through symlinks',
  },
  SCHEMA_UNKNOWN: { exit: usage, title: 'unknown schema name', hint: 'run `sluice schema --list` for the names' },

  // --- workspace trust ------------------------------------------------------------------
  WORKSPACE_UNTRUSTED: {
    exit: usage,
    title: 'project content would run but is not trusted',
    hint: 'review it with `sluice trust` on a terminal; a CI host sets SLUICE_TRUSTED_HASH',
  },

  // --- the person's own files (keys, grants, trust store, anchors) -------------------------
  PRIVATE_FILE_UNSAFE: {
    exit: usage,
    title: 'a key or user file could have been written by someone else',
    hint: 'make it yours and owner-only (chown $USER FILE; chmod 600 FILE, 700 for its folder), as ssh demands of its keys; nothing was read from it',
  },

  // --- files and state ------------------------------------------------------------------
  FILE_NOT_FOUND: { exit: usage, title: 'file not found', hint: 'check the path, or run the command that creates it' },
  FILE_NOT_REGULAR: {
    exit: usage,
    title: 'not a regular file',
    hint: 'sluice reads and writes only regular files; put a file at the named path (not a FIFO, device or folder)',
  },
  FILE_ACCESS_DENIED: { exit: usage, title: 'permission denied', hint: 'check the permissions of the named file and its folder' },
  FILE_SYSTEM_READ_ONLY: {
    exit: usage,
    title: 'file system is read-only',
    hint: "run where the project is writable; nothing was changed. Inside a sandbox (Claude Code's, or the one sluice puts around an agent) sluice's records are read-only: use the sluice MCP tools, or run the command in your own terminal",
  },
  DISK_FULL: { exit: usage, title: 'no space left on the device', hint: 'free some space and run again; the named file was left as it was' },
  FILE_IO_FAILED: { exit: usage, title: 'the system refused a file operation', hint: 'the message names the file and the system error' },
  FILE_TOO_LARGE: { exit: usage, title: 'file is larger than sluice will read', hint: 'state and config files are small; this one is not what it should be' },
  STATE_CORRUPT: { exit: usage, title: 'file cannot be parsed', hint: 'the file was left untouched; restore it from version control or fix the syntax' },
  STATE_INVALID: { exit: usage, title: 'file does not match its schema', hint: 'the file was left untouched; fix the named field' },
  STATE_MISSING: { exit: usage, title: 'state file does not exist', hint: 'initialise it first' },
  STATE_EXISTS: { exit: usage, title: 'state file already exists', hint: 'pass --force to replace it' },
  INVARIANT_VIOLATED: { exit: usage, title: 'update would break a state invariant', hint: 'nothing was written; the update is refused' },
  STATE_TAMPERED: {
    exit: usage,
    title: 'records were changed outside sluice',
    hint: 'nothing was written; a person restores the files from version control until they agree with the journal and its anchor (`sluice lifecycle recover` and `sluice anchor` refuse a journal shorter than its anchor)',
  },
  ANCHOR_NEEDS_PERSON: {
    exit: blocked,
    title: 'anchoring records needs a person at a terminal',
    hint: 'run `sluice anchor` yourself in a terminal after checking the journals it lists; an agent cannot anchor the records it writes',
  },
  JOURNAL_ROLLED_BACK: {
    exit: usage,
    title: 'a journal of records is shorter than this machine anchored it',
    hint: 'nothing was written; a person puts the newest journal back (git restore); a journal shorter than its anchor is never accepted',
  },
  LOCK_BUSY: { exit: ExitCode.busy, title: 'another process holds the lock', hint: 'wait for it to finish and retry' },
  PATH_OUTSIDE_PROJECT: { exit: usage, title: 'path escapes the project', hint: 'use a path inside the project folder' },

  // --- SDLC workflow --------------------------------------------------------------------
  GATE_TYPE_UNKNOWN: { exit: usage, title: 'unknown gate type', hint: 'run `sluice plugins` to list gate types' },
  GATE_INPUT_INVALID: {
    exit: usage,
    title: 'a gate was given an input it does not accept',
    hint: 'fix the named field (for a profile gate, its `with:` entry); `sluice plugins` shows which plugin provides the gate',
  },

  // --- signatures -----------------------------------------------------------------------
  SIGNING_UNAVAILABLE: { exit: usage, title: 'ssh-keygen cannot be run', hint: 'install OpenSSH (ssh-keygen 8.2 or later) to sign or verify approvals' },
  SIGNING_FAILED: {
    exit: usage,
    title: 'signing with the SSH key failed',
    hint: 'check the key path (--sign KEY or SLUICE_SIGNING_KEY) and that its passphrase is loaded in ssh-agent',
  },
  SIGNERS_INVALID: {
    exit: usage,
    title: 'allowed_signers file is malformed',
    hint: 'each line is "principals [options] keytype key", as git\'s gpg.ssh.allowedSignersFile',
  },

  // --- delegates ------------------------------------------------------------------------
  DELEGATE_UNKNOWN: { exit: usage, title: 'unknown delegate backend', hint: 'run `sluice plugins` to list delegates' },
  DELEGATE_UNAVAILABLE: { exit: usage, title: 'delegate backend is not available', hint: 'install the CLI or set delegates.<name>.command in sluice.config' },
  SANDBOX_UNAVAILABLE: {
    exit: usage,
    title: 'no OS sandbox for the AI CLI run',
    hint: 'a person installs bubblewrap (sudo apt-get install bubblewrap) or chooses --sandbox off / sandbox: auto; `sluice doctor` says what is here',
  },
  DELEGATE_FAILED: { exit: blocked, title: 'delegate run did not succeed', hint: 'read the transcript for the backend output' },
});

type KernelErrorCodes = typeof errorCatalog;
/**
 * Every code `new SluiceError(code)` accepts. A plugin adds its own by augmenting this interface with
 * the `typeof` of what it passed to `defineErrorCodes`, so the codes are stated once:
 * `declare module 'sluice' { interface ErrorCodes extends AcmeErrorCodes {} }`.
 */
export interface ErrorCodes extends KernelErrorCodes {}
export type ErrorCode = keyof ErrorCodes & string;
