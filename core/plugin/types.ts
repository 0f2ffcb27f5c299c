import type * as v from 'valibot';
import type { SluiceConfig } from '../config/config-schema.ts';
import type { DelegateDefinition } from '../delegate/contract.ts';
import type { Host } from '../host/host.ts';
import type { HookDeclaration, HookDeclarations, HookHandler, HookHandlerOptions, HookKindOf, HookName } from '../hooks/hook-types.ts';
import type { JobHandler, JobName } from '../queue/job-queue.ts';
import type { Kernel } from '../kernel/kernel-types.ts';
import type { CatalogEntry } from '../errors/catalog.ts';
import type { SluiceError } from '../errors/sluice-error.ts';
import type { GateDefinition } from './gate-types.ts';

/** The gate types live in gate-types.ts; re-exported so `plugin/types.ts` imports keep working. */
export type { Severity, GateResult, GateContext, GateDefinition, GateCommand } from './gate-types.ts';

export interface WorkflowDefinition {
  name: string;
  description: string;
  /** Commands this workflow contributes, for `sluice plugins`. */
  commands?: string[];
  /** Names of the schemas of the files it owns. */
  schemas?: string[];
}

export interface CommandOption {
  /** Commander-style flags: `--phase <id>`, `-y, --yes`, `--approve <gate...>`. */
  flags: string;
  description: string;
  default?: string | boolean | string[];
  choices?: string[];
}

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

export interface ProgressHandle {
  update(text: string): void;
  done(): void;
}

export interface CommandIO {
  readonly json: boolean;
  readonly interactive: boolean;
  readonly style: Style;
  /** A human line on stdout; suppressed under --json. */
  print(line: string): void;
  /** A diagnostic line on stderr; allowed under --json. */
  warn(line: string): void;
  /**
   * Progress on stderr: on a terminal a status line shown after a second; off one, a plain line at
   * least every 20 s while the work lasts.
   */
  progress(label: string): ProgressHandle;
  /** Asks on the terminal; throws USAGE when not interactive, so scripts never hang on a question. */
  choose(question: string, choices: string[], defaultChoice?: string): Promise<string>;
  confirm(question: string): Promise<boolean>;
  /** Free text typed at the terminal (trimmed); throws USAGE when not interactive. */
  ask?(question: string): Promise<string>;
}

export interface CommandContext {
  kernel: Kernel;
  host: Host;
  /** The project root (`--cwd`, absolute). */
  cwd: string;
  io: CommandIO;
  signal: AbortSignal;
  /**
   * What the CLI tolerated before the command ran, for a command that must not fail (a session
   * hook run with a broken config gets the config's error here and the defaults instead).
   */
  problems?: readonly SluiceError[];
}

export interface CommandInput {
  /** Positional arguments in declared order (variadic ones as arrays). */
  args: (string | string[] | undefined)[];
  options: Record<string, unknown>;
}

export interface CommandOutcome {
  /** 0 ok, 1 blocked, 2 usage, 3 busy (DESIGN.md). */
  exitCode: number;
  /** The --json document. */
  data: unknown;
  /** What a person sees; printed to stdout unless --json. */
  human?: string;
}

export interface CommandDefinition {
  /** `status`, or a subcommand path like `lifecycle start`. */
  name: string;
  summary: string;
  /** Commander-style: `<slug>`, `[phase]`, `[slugs...]`. */
  args?: string[];
  options?: CommandOption[];
  /** Shown under the command's --help. */
  examples?: string[];
  /** More for --help, after the examples: a file format the command reads, what its output means. */
  help?: string;
  /**
   * Its --json document (build it with `commandOutput`): `sluice schema COMMAND-output` exports it,
   * and the built-in commands' outputs are tested against it. Every built-in command has one.
   */
  output?: v.GenericSchema;
  run(input: CommandInput, ctx: CommandContext): Promise<CommandOutcome>;
}

export interface PluginContext {
  readonly name: string;
  readonly host: Host;
  readonly config: SluiceConfig;
  /** The kernel being built; registries are complete only after every plugin has loaded. */
  readonly kernel: Kernel;
  declareHook<N extends HookName>(name: N, decl: HookDeclaration<HookKindOf<N>>): void;
  /** Declares a set of hooks made with `defineHook` (the same object their `Hooks` types come from). */
  declareHooks(hooks: HookDeclarations): void;
  hook<N extends HookName>(name: N, handler: HookHandler<N>, options?: HookHandlerOptions): void;
  registerGate<I>(gate: GateDefinition<I>): void;
  registerDelegate(delegate: DelegateDefinition): void;
  registerWorkflow(workflow: WorkflowDefinition): void;
  registerCommand(command: CommandDefinition): void;
  registerJob<N extends JobName>(name: N, handler: JobHandler<N>): void;
  /**
   * A top-level durable job (one requirement, one tune run) on `kernel.dispatcher`: run in-process by
   * default, by `sluice worker` processes with `--queue redis://…`. Its handler may run leaf jobs on `kernel.queue`.
   */
  registerDurableJob<N extends JobName>(name: N, handler: JobHandler<N>): void;
  /** Makes a file format available to `sluice schema NAME`. */
  registerSchema(name: string, schema: v.GenericSchema, description: string): void;
  /**
   * The error codes this plugin raises (made with `defineErrorCodes`, or a plain object owned by this
   * plugin): in the catalog from then on, for `sluice errors` and for the exit code and hint of any
   * error with one of them, wherever it was thrown. A plugin outside sluice declares `errorPrefix` and
   * names every code with it. Prefer the `errorCodes` field, which is there before any setup runs.
   */
  registerErrorCodes(codes: Record<string, CatalogEntry>): void;
}

/** A file format a plugin owns, for `sluice schema NAME`: the schema itself, or a loader for it (imported only when asked). */
export interface SchemaDeclaration {
  description: string;
  schema?: v.GenericSchema;
  load?: () => Promise<v.GenericSchema>;
}

/** A command a plugin provides, by name (`status`, `lifecycle start`); its module is imported only when it runs or help lists it. */
export interface CommandDeclaration {
  /**
   * Plugins this command uses besides its own plugin and that plugin's `needs` (`sluice next` runs the
   * gate plugins). `'*'` means every plugin (a command that lists or serves all of them).
   */
  needs?: readonly string[];
  load: () => Promise<CommandDefinition>;
}

/** Job handlers by name, each made on first use from the kernel it runs in (so the module loads only then). */
export type JobDeclarations = { [N in JobName]?: (kernel: Kernel) => Promise<JobHandler<N>> };

/**
 * A plugin is a description: what it provides and needs are fields the kernel and the CLI read
 * without running it; `setup` holds behaviour only (hook handlers).
 */
export interface PluginDefinition {
  name: string;
  version?: string;
  /** `pre` plugins load first, `post` last; others in the order given. */
  enforce?: 'pre' | 'post';
  /** Plugins this one uses at run time: set up before it; a missing one is an error naming this plugin. */
  needs?: readonly string[];
  /**
   * The owner prefix of this plugin's error codes (`ACME` for `ACME_BAD_INPUT`), as Fastify's `FST_ERR_*`.
   * Required of a plugin outside sluice that declares codes.
   */
  errorPrefix?: string;
  /** The error codes this plugin raises, in the catalog before its setup runs (see `registerErrorCodes`). */
  errorCodes?: Record<string, CatalogEntry>;
  /** Hooks this plugin declares (made with `defineHook`), declared before any setup runs. */
  hooks?: HookDeclarations;
  schemas?: Record<string, SchemaDeclaration>;
  commands?: Record<string, CommandDeclaration>;
  /** Leaf jobs on `kernel.queue`. */
  jobs?: JobDeclarations;
  /** Top-level durable jobs on `kernel.dispatcher` (see `registerDurableJob`). */
  durableJobs?: JobDeclarations;
  gates?: readonly GateDefinition[];
  delegates?: readonly DelegateDefinition[];
  /** The workflow this plugin is, for `sluice plugins`: its commands and schemas are this plugin's. */
  workflow?: { description: string };
  setup?(ctx: PluginContext): void | Promise<void>;
}
