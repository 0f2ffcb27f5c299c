import type { Kernel } from '../kernel/kernel-types.ts';
import type { FileWriter, Host } from '../host/host.ts';
import type { SandboxUse } from '../sandbox/sandbox-choice.ts';

/**
 * The delegate contract of DESIGN.md: a delegate runs one prompt on one AI CLI and returns a result
 * object. It never throws for a backend failure; `status` says what happened.
 */
export type DelegateMode = 'write' | 'analysis';
export type DelegateStatus = 'ok' | 'error' | 'timeout' | 'cancelled';

export interface DelegateRequest {
  prompt: string;
  /** `analysis` must not be able to edit files; each backend maps it to its own permission flags. */
  mode: DelegateMode;
  /** Working directory of the run; absolute. */
  cwd: string;
  timeoutMs?: number;
  model?: string;
  maxTurns?: number;
  /** Resume a backend session (claude --resume). */
  resumeSession?: string;
  /** Extra directories the backend may read (agy --add-dir). */
  addDirs?: string[];
  /** Where the transcript goes; defaults to `<projectRoot>/.sluice/transcripts/`. */
  transcriptPath?: string;
  /** Shown in progress output. */
  label?: string;
  /**
   * false skips the read-only check of an analysis run (WORKSPACE_CHANGED): for a caller that itself
   * writes to the same workspace while the run goes on (parallel requirements), so changes cannot be
   * attributed. Default true.
   */
  workspaceCheck?: boolean;
  /** Backend-specific extras (e.g. the script backend's file). Must be JSON. */
  extra?: Record<string, unknown>;
  /** Paths inside the work tree the run may read but not write, on top of sluice's records (a tune run's state folder). */
  readOnly?: string[];
}

export interface DelegateResult {
  backend: string;
  status: DelegateStatus;
  exitCode: number | null;
  /** The answer text (bounded; the full output is in the transcript). */
  text: string;
  json?: unknown;
  sessionId?: string;
  costUsd?: number;
  numTurns?: number;
  durationMs: number;
  transcriptPath: string;
  /** How many attempts were made (retries happen only for transient failures). */
  tries: number;
  /** The OS sandbox the CLI ran in, or why none: `off` (chosen) or `unavailable` (auto, none here). */
  sandbox?: SandboxUse;
  /** Why the run failed, in one line. */
  error?: string;
  /** Actions the CLI refused on its own (headless permission denials), as it names them. */
  deniedActions?: string[];
  /** What the caller should know that did not fail the run, one line each (refused actions, a prompt the CLI may cut). */
  warnings?: string[];
}

/** What a backend returns from one attempt; the runner adds backend, transcript and tries. */
export interface DelegateAttempt {
  status: DelegateStatus;
  exitCode: number | null;
  text: string;
  json?: unknown;
  sessionId?: string;
  costUsd?: number;
  numTurns?: number;
  durationMs: number;
  error?: string;
  /** Set by the backend for failures worth retrying (rate limits, overloaded, network). */
  transient?: boolean;
  deniedActions?: string[];
  warnings?: string[];
}

/** Per-backend settings from `sluice.config.yaml` `delegates.<name>`. */
export interface DelegateSettings {
  command?: string;
  args?: string[];
  model?: string;
  /** Seconds. */
  timeout?: number;
  env?: Record<string, string>;
  retries?: number;
  [key: string]: unknown;
}

/** What a delegate learns about where it runs: the kernel it serves (project root, display, the unsandboxed host). */
export interface DelegatePlace {
  kernel: Kernel;
}

export interface DelegateRunContext extends DelegatePlace {
  host: Host;
  settings: DelegateSettings;
  signal: AbortSignal;
  /** The run's transcript; everything the CLI prints goes here, never into unbounded memory. */
  transcript: FileWriter;
  /** Streams a chunk to the transcript and to `delegate:output` observers. */
  output(chunk: Uint8Array | string, stream: 'stdout' | 'stderr'): void;
  /** Effective wall clock limit in ms (request, then settings, then default). */
  timeoutMs: number;
}

export interface DelegateAvailability {
  ok: boolean;
  reason?: string;
}

export interface DelegateDefinition {
  name: string;
  description: string;
  /** The backend starts no program (the script backend): no OS sandbox applies, and none is recorded. */
  inProcess?: boolean;
  /** Whether the backend can run here (its CLI is installed, its script file exists). */
  available(ctx: DelegatePlace & { host: Host; settings: DelegateSettings }): Promise<DelegateAvailability>;
  run(request: DelegateRequest, ctx: DelegateRunContext): Promise<DelegateAttempt>;
}
