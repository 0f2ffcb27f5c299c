import { relative } from 'pathe';
import { defaultConfig, SluiceConfigSchema, type SluiceConfig } from '../config/config-schema.ts';
import type { DelegateDefinition } from '../delegate/contract.ts';
import { createDelegateJob } from '../delegate/delegate-runner.ts';
import { SluiceError } from '../errors/sluice-error.ts';
import type { Host } from '../host/host.ts';
import { coreHooks } from '../hooks/core-hooks.ts';
import { HookDriver } from '../hooks/hook-driver.ts';
import type { HookName } from '../hooks/hook-types.ts';
import { isInside, resolveInside } from '../paths/inside.ts';
import type { CommandDefinition, GateDefinition, GateResult, PluginContext, PluginDefinition, WorkflowDefinition } from '../plugin/types.ts';
import { ErrorOutputSchema } from '../plugin/command-output.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { createLocalQueue } from '../queue/local-queue.ts';
import { createStateStore } from '../store/state-store.ts';
import type { Kernel, PluginInfo, SchemaEntry } from './kernel-types.ts';
import { orderPlugins, resolvePlugins, runSetup, type PluginSource } from './load-plugins.ts';
import { createRegistry } from './registry.ts';
import { createGateJob } from './gate-job.ts';
import { orderByNeeds } from './plugin-needs.ts';
import { addCommand, addErrorCodes, loadDeclaredCommands, registerDeclarations, type DeclarationTargets } from './register-declarations.ts';
import { delegateSubjects, pluginSubjects, sandboxOffSubject } from '../trust/config-subjects.ts';
import type { SandboxMode } from '../sandbox/sandbox-choice.ts';
import { trustEverything, type WorkspaceTrust } from '../trust/workspace-trust.ts';

declare module '../queue/job-queue.ts' {
  interface Jobs {
    'gate:check': { payload: { type: string; input: unknown }; result: GateResult[] };
  }
}

export interface KernelOptions {
  host: Host;
  /** Defaults to the host's working directory. */
  projectRoot?: string;
  config?: SluiceConfig;
  /** Built-in plugins first; `config.plugins` specifiers are loaded after them. */
  plugins?: readonly PluginSource[];
  /** Overrides `config.concurrency` (the `--concurrency` flag). */
  concurrency?: number;
  /** Overrides `config.sandbox` (the `--sandbox` flag). */
  sandbox?: SandboxMode;
  /** Alternative queue backend; defaults to the in-process p-queue. */
  queue?: (onProgress: Parameters<typeof createLocalQueue>[0]['onProgress']) => JobQueue;
  /** Backend for top-level durable jobs (`kernel.dispatcher`, e.g. Redis); defaults to its own in-process p-queue. */
  dispatcher?: (onProgress: Parameters<typeof createLocalQueue>[0]['onProgress']) => JobQueue;
  /**
   * Whether project content may run. Defaults to trusting everything: an embedder chooses what it
   * loads. The CLI always passes the user's workspace trust.
   */
  trust?: WorkspaceTrust;
  /** The config file as errors name it (default `sluice.config.yaml`). */
  configFile?: string;
  /**
   * Which declared commands (`commands` fields) to import: all of them (the default), or the named ones
   * (the CLI imports only the command it runs). Commands registered in setup are always there.
   */
  commands?: 'all' | readonly string[];
  /** Called for each isolated observer failure. */
  onWarning?(error: SluiceError): void;
  /** Lines for the person that are not errors (`kernel.notice`), such as a run going unsandboxed. */
  onNotice?(line: string): void;
}

export async function createKernel(options: KernelOptions): Promise<Kernel> {
  const { host } = options;
  const elapsedMs = () => host.monotonicMs?.() ?? performance.now();
  const config = options.config ?? defaultConfig();
  const projectRoot = options.projectRoot ?? host.cwd();
  const trust = options.trust ?? trustEverything;
  const configFile = options.configFile ?? 'sluice.config.yaml';
  const warnings: SluiceError[] = [];
  const hooks = new HookDriver({
    onObserverError(error) {
      if (warnings.length < 100) warnings.push(error);
      options.onWarning?.(error);
    },
  });
  hooks.declareAll(coreHooks, 'core');

  const onProgress = (event: Parameters<NonNullable<Parameters<typeof createLocalQueue>[0]['onProgress']>>[0]) => {
    if (hooks.hasHandlers('queue:progress')) void hooks.call('queue:progress', event);
  };
  const concurrency = options.concurrency ?? config.concurrency;
  const queue = options.queue ? options.queue(onProgress) : createLocalQueue({ concurrency, onProgress });
  const dispatcher = options.dispatcher ? options.dispatcher(onProgress) : createLocalQueue({ concurrency, onProgress });
  const display = (path: string) => (isInside(projectRoot, path) ? relative(projectRoot, path) || '.' : path);
  const store = createStateStore({ host, queue, lockWaitMs: config.lockWaitMs, display });

  const gates = createRegistry<GateDefinition>('gate type', 'GATE_TYPE_UNKNOWN');
  const delegates = createRegistry<DelegateDefinition>('delegate', 'DELEGATE_UNKNOWN');
  const workflows = createRegistry<WorkflowDefinition>('workflow', 'UNKNOWN_COMMAND');
  const commands = createRegistry<CommandDefinition>('command', 'UNKNOWN_COMMAND');
  const schemas = createRegistry<SchemaEntry>('schema', 'SCHEMA_UNKNOWN');
  const plugins: PluginInfo[] = [];

  const kernel: Kernel = {
    host,
    config,
    projectRoot,
    hooks,
    queue,
    dispatcher,
    store,
    plugins,
    trust,
    gates,
    delegates,
    workflows,
    commands,
    schemas,
    warnings,
    sandbox: options.sandbox ?? config.sandbox ?? 'auto',
    notice: (line) => options.onNotice?.(line),
    runDelegate: (backend, request, o = {}) =>
      queue.run('delegate:run', { backend, request: { ...request } }, { signal: o.signal, label: request.label ?? backend }),
    runGate: (type, input, o = {}) => queue.run('gate:check', { type, input }, { signal: o.signal, label: type }),
    display,
    resolveInProject: (path, what) => resolveInside(projectRoot, path, what),
  };

  const runDelegateJob = createDelegateJob(kernel);
  queue.register('delegate:run', async (payload, job) => {
    // A delegate whose command, arguments or environment come from the config runs only when trusted,
    // and so do the project files that command runs (`./ai.sh`), as they are now.
    const scripts = { host, projectRoot, pathEnv: host.env('PATH') };
    const subjects = await delegateSubjects(scripts, configFile, payload.backend, config.delegates?.[payload.backend]);
    // `sandbox: off` from the project's config (not the flag) is a choice a person makes, like a command.
    if (options.sandbox === undefined && config.sandbox === 'off') subjects.push(await sandboxOffSubject(configFile));
    if (subjects.length > 0) await trust.require(subjects);
    return runDelegateJob(payload, job);
  });
  queue.register('gate:check', createGateJob({ gates, host, projectRoot, trust }));
  schemas.add('config', 'core', { name: 'config', plugin: 'core', description: 'sluice.config.yaml / sluice.config.json', schema: SluiceConfigSchema });
  schemas.add('error-output', 'core', {
    name: 'error-output',
    plugin: 'core',
    description: 'any command --json when it fails with an error',
    schema: ErrorOutputSchema,
    kind: 'output',
  });

  // Project plugins are code from the work tree: nothing of them is read as a module until trusted.
  if (config.plugins.length > 0) await trust.require(await pluginSubjects(host, projectRoot, configFile, config.plugins));
  const sources: PluginSource[] = [...(options.plugins ?? []), ...config.plugins];
  const resolved = orderPlugins(await resolvePlugins(host, projectRoot, sources));
  const seen = new Map<string, string>();
  for (const { plugin, source } of resolved) {
    const previous = seen.get(plugin.name);
    if (previous !== undefined)
      throw new SluiceError('PLUGIN_DUPLICATE', { plugin: plugin.name, message: `plugin ${plugin.name} is loaded twice (${previous} and ${source})` });
    seen.set(plugin.name, source);
  }
  const ordered = orderByNeeds(resolved);
  const wanted = options.commands ?? 'all';
  if (wanted !== 'all')
    checkCommandNeeds(
      ordered.map((r) => r.plugin),
      wanted,
      seen,
    );
  // What plugins say they provide exists before any setup runs: every hook is declared, every code known.
  const targets: DeclarationTargets = { kernel, hooks, gates, delegates, workflows, commands, schemas, queue, dispatcher };
  for (const { plugin } of ordered) registerDeclarations(plugin, targets);
  for (const { plugin, source } of ordered) {
    const name = plugin.name;
    const ctx: PluginContext = {
      name,
      host,
      config,
      kernel,
      declareHook: (hook, decl) => hooks.declare(hook, decl, name),
      declareHooks: (set) => hooks.declareAll(set, name),
      hook: (hook, handler, o) => void hooks.on(hook, name, handler, o),
      registerGate: (gate) => gates.add(gate.type, name, gate as GateDefinition),
      registerDelegate: (d) => delegates.add(d.name, name, d),
      registerWorkflow: (w) => workflows.add(w.name, name, w),
      registerCommand: (c) => addCommand(targets, name, c),
      registerJob: (job, handler) => queue.register(job, handler, name),
      registerDurableJob: (job, handler) => dispatcher.register(job, handler, name),
      registerSchema: (schemaName, schema, description) => schemas.add(schemaName, name, { name: schemaName, plugin: name, description, schema }),
      registerErrorCodes: (codes) => addErrorCodes(name, codes, plugin.errorPrefix),
    };
    const started = elapsedMs();
    const setup = plugin.setup;
    if (setup) await runSetup(plugin, () => setup(ctx), config.pluginTimeoutMs);
    plugins.push({ name, version: plugin.version, enforce: plugin.enforce, source, loadMs: Math.round((elapsedMs() - started) * 100) / 100 });
  }
  await loadDeclaredCommands(
    ordered.map((r) => r.plugin),
    wanted,
    targets,
  );
  await hooks.call('kernel:ready', kernel);
  return kernel;
}

/** The plugins a command to be imported names in its own `needs` must be loaded too (`*` asks for all of them). */
function checkCommandNeeds(list: readonly PluginDefinition[], wanted: readonly string[], loaded: ReadonlyMap<string, string>): void {
  for (const plugin of list)
    for (const [command, d] of Object.entries(plugin.commands ?? {})) {
      if (!wanted.includes(command)) continue;
      const missing = (d.needs ?? []).find((need) => need !== '*' && !loaded.has(need));
      if (missing !== undefined)
        throw new SluiceError('PLUGIN_NEED_MISSING', {
          plugin: plugin.name,
          field: `commands.${command}.needs`,
          message: `plugin ${plugin.name}: command ${command} needs plugin ${missing}, which is not loaded`,
        });
    }
}
