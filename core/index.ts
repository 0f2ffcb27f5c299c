/** sluice's kernel: the public API for plugins, hosts and the CLI. Deno-compatible: web APIs and the Host port only. */
export { createKernel, type KernelOptions } from './kernel/create-kernel.ts';
export type { Kernel, PluginInfo, Registry, SchemaEntry, RunOptions } from './kernel/kernel-types.ts';
export { kernelRootedAt } from './kernel/rooted-kernel.ts';
export { schemaOf } from './kernel/register-declarations.ts';
export { needsClosure } from './kernel/plugin-needs.ts';
export { definePlugin, defineGate, defineDelegate, defineWorkflow, defineCommand } from './plugin/define.ts';
export { gatePlugin, gateData, type GatePluginOptions } from './plugin/gate-plugin.ts';
export { plainStyle, quietIO } from './plugin/quiet-io.ts';
export { commandOutput, commandDocumentSchema, ErrorOutputSchema, jsonEnvelope, outputSchemaName } from './plugin/command-output.ts';
export type * from './plugin/types.ts';
export type * from './delegate/contract.ts';
export { DEFAULT_DELEGATE_TIMEOUT_MS } from './delegate/delegate-runner.ts';
export { HookDriver, type HookInfo } from './hooks/hook-driver.ts';
export type * from './hooks/hook-types.ts';
export { defineHook } from './hooks/define-hook.ts';
export type { DelegateStartEvent, DelegateOutputEvent, DelegateFinishEvent, RecordJournals } from './hooks/core-hooks.ts';
export type * from './queue/job-queue.ts';
export { createLocalQueue } from './queue/local-queue.ts';
export { createKeyedMutex } from './queue/keyed-mutex.ts';
export { assertJsonPayload } from './queue/json-payload.ts';
export { readQueueKey, createQueueKey, queueKeyFile, queueKeyFrom, QUEUE_KEY_ENV, type QueueKey } from './queue/queue-key.ts';
export type * from './host/host.ts';
export { HostIoError, HostNotFoundError, HostNotRegularError, HostTooLargeError } from './host/host.ts';
export { createMemoryHost, type MemoryHost, type MemoryHostOptions } from './host/memory-host.ts';
export { createStateStore, type StateStore, type StateFile, type UpdateResult } from './store/state-store.ts';
export {
  createJournaledStore,
  type JournaledStore,
  type JournalSpec,
  type LoadedJournal,
  type AppendPlan,
  type AppendOutcome,
} from './store/journaled-store.ts';
export { GENESIS, linkHash, linkMac, chainNext, parseChain, appendLines, tampered, type ChainEntry, type ChainLink } from './store/journal-chain.ts';
export {
  createRecordKeeper,
  judgeAnchor,
  STATE_TAMPERED_HINT,
  ROLLED_BACK_HINT,
  RECORD_KEY_FILE,
  ANCHOR_DIR,
  type Anchor,
  type Anchoring,
  type RecordKeeper,
} from './store/record-anchors.ts';
export { acquireLock, type LockHandle, type LockOptions } from './store/file-lock.ts';
export { yamlCodec, jsonCodec, codecForPath, CodecError, type Codec } from './store/codec.ts';
export { parseYamlDocument, yamlToData, MAX_YAML_ALIASES, type YamlDocumentOptions } from './store/yaml-document.ts';
export { yamlLibrary, useYamlOf, type YamlLibrary } from './store/yaml-library.ts';
export { plainYaml } from './store/plain-yaml.ts';
export { checkDataShape, MAX_DATA_DEPTH } from './store/data-shape.ts';
export { readDataFile, readDataText, parseDataText, validateData, MAX_DATA_FILE_BYTES } from './store/read-data-file.ts';
export { SluiceError, isSluiceError, toSluiceError, type SluiceErrorDetails } from './errors/sluice-error.ts';
export { errorCatalog, ExitCode, type ErrorCode, type ErrorCodes, type CatalogEntry } from './errors/catalog.ts';
export { defineErrorCodes, errorCodeEntry, listErrorCodes, type RegisteredErrorCode } from './errors/error-codes.ts';
export { SluiceConfigSchema, DelegateSettingsSchema, defaultConfig, type SluiceConfig } from './config/config-schema.ts';
export { loadConfig, CONFIG_FILES, type LoadedConfig } from './config/load-config.ts';
export { resolveInside, realPathInside, isInside } from './paths/inside.ts';
export { cacheFolder } from './paths/cache-folder.ts';
export { userFolders, protectedUserFolders, type UserFolders } from './paths/user-folders.ts';
export { checkPrivateFile } from './paths/private-file.ts';
export {
  sandboxPolicy,
  recordRules,
  type SandboxKind,
  type SandboxAccess,
  type SandboxRule,
  type SandboxPolicy,
  type SandboxPolicyInput,
} from './sandbox/sandbox-policy.ts';
export {
  chooseSandbox,
  SANDBOX_MODES,
  SANDBOX_OPTION,
  SandboxModeSchema,
  SandboxUseSchema,
  UNSANDBOXED_NOTICE,
  type SandboxMode,
  type SandboxUse,
  type SandboxChoice,
} from './sandbox/sandbox-choice.ts';
export { bwrapArgs, BWRAP_PROBE_ARGS, type PlacedRule } from './sandbox/bwrap-args.ts';
export { sbplProfile } from './sandbox/sbpl-profile.ts';
export { sandboxedHost } from './sandbox/sandboxed-host.ts';
export { findProjectRoot, PROJECT_MARKERS } from './paths/find-project-root.ts';
export {
  configuredSecrets,
  createSecretRedactor,
  createStreamRedactor,
  isSecretName,
  redactSecrets,
  type SecretRedactor,
} from './secrets/redact-secrets.ts';
export { compareText } from './text/compare-text.ts';
export { splitFrontmatter, type Frontmatter } from './text/frontmatter.ts';
export { fillPlaceholders, loadBundledPrompt, type BundledPrompt } from './delegate/bundled-prompt.ts';
export { sha256Hex, hmacSha256Hex, sameDigest } from './hash/sha256-hex.ts';
export { sha256, canonicalJson, makeManifest, diffSubjects, type TrustSubject, type TrustManifest, type TrustChange } from './trust/trust-subject.ts';
export {
  configSubjects,
  pluginSubjects,
  delegateSubject,
  delegateSubjects,
  commandSubject,
  commandSubjects,
  delegateCodeSettings,
  DATA_ONLY_DELEGATE_KEYS,
} from './trust/config-subjects.ts';
export { scriptSubjects, type ScriptContext } from './trust/script-subjects.ts';
export { filesNamedBy, type NamedFile } from './trust/command-files.ts';
export {
  createWorkspaceTrust,
  trustEverything,
  untrustedError,
  TRUSTED_HASH_ENV,
  type WorkspaceTrust,
  type WorkspaceTrustOptions,
  type TrustRecord,
  type TrustReview,
} from './trust/workspace-trust.ts';
export { escapeControl, terminalSafe, jsonSafe } from './text/terminal-safe.ts';
export { describeValue, issueMessage, MAX_QUOTED_CHARS, type IssueLike } from './text/quote-value.ts';
export { sluiceVersion } from './version.ts';
export { resultId } from './plugin/result-id.ts';
