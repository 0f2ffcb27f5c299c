import type * as v from 'valibot';
import type { SluiceConfig } from '../config/config-schema.ts';
import type { DelegateDefinition, DelegateRequest, DelegateResult } from '../delegate/contract.ts';
import type { SluiceError } from '../errors/sluice-error.ts';
import type { SandboxMode } from '../sandbox/sandbox-choice.ts';
import type { Host } from '../host/host.ts';
import type { HookDriver } from '../hooks/hook-driver.ts';
import type { CommandDefinition, GateDefinition, GateResult, WorkflowDefinition } from '../plugin/types.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import type { StateStore } from '../store/state-store.ts';
import type { WorkspaceTrust } from '../trust/workspace-trust.ts';

export interface Registered<T> {
  plugin: string;
  value: T;
}

/** A name → definition map that remembers which plugin registered what. */
export interface Registry<T> {
  get(name: string): T | undefined;
  require(name: string): T;
  has(name: string): boolean;
  names(): string[];
  entries(): Registered<T>[];
}

export interface PluginInfo {
  name: string;
  version?: string;
  enforce?: 'pre' | 'post';
  source: string;
  loadMs: number;
}

export interface SchemaEntry {
  name: string;
  description: string;
  plugin: string;
  /** The schema, or (declared lazily) `load` to import it: read it with `schemaOf(entry)`. */
  schema?: v.GenericSchema;
  load?: () => Promise<v.GenericSchema>;
  /** A file format (the default), or a command's --json document. */
  kind?: 'file' | 'output';
}

export interface RunOptions {
  signal?: AbortSignal;
}

export interface Kernel {
  readonly host: Host;
  readonly config: SluiceConfig;
  /** Absolute project root: every relative path in files and flags is resolved against it. */
  readonly projectRoot: string;
  readonly hooks: HookDriver;
  readonly queue: JobQueue;
  /**
   * Where top-level durable jobs go (registerDurableJob): an in-process queue by default, Redis with
   * `--queue`. Never the same queue as `queue`, so a requirement job never waits for its own delegate runs' slots.
   */
  readonly dispatcher: JobQueue;
  readonly store: StateStore;
  readonly plugins: readonly PluginInfo[];
  readonly gates: Registry<GateDefinition>;
  readonly delegates: Registry<DelegateDefinition>;
  readonly workflows: Registry<WorkflowDefinition>;
  readonly commands: Registry<CommandDefinition>;
  readonly schemas: Registry<SchemaEntry>;
  /** Whether project content (config plugins, delegate commands, command gates) may run. */
  readonly trust: WorkspaceTrust;
  /** Observer failures collected during the run (also sent to `onWarning`). */
  readonly warnings: readonly SluiceError[];
  /** How AI CLI runs are sandboxed: `--sandbox`, else `sandbox:` of the config, else auto. Optional for hand-made kernels. */
  readonly sandbox?: SandboxMode;
  /** Tells the person one line that is not an error (the CLI prints it on stderr; absent: dropped). */
  notice?(line: string): void;
  /** Runs one prompt through a delegate backend via the queue; never throws for backend failures. */
  runDelegate(backend: string, request: DelegateRequest, options?: RunOptions): Promise<DelegateResult>;
  /** Runs one gate type through the queue. */
  runGate(type: string, input: unknown, options?: RunOptions): Promise<GateResult[]>;
  /** A path as errors should show it (relative to the project root when inside it). */
  display(path: string): string;
  /** Resolves a path given by a user or a file against the project root, refusing escapes. */
  resolveInProject(path: string, what?: string): string;
}
