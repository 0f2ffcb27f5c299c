import type * as v from 'valibot';
import type { DelegateDefinition } from '../delegate/contract.ts';
import { registerErrorCodes } from '../errors/error-codes.ts';
import type { CatalogEntry } from '../errors/catalog.ts';
import { SluiceError } from '../errors/sluice-error.ts';
import type { HookDriver } from '../hooks/hook-driver.ts';
import { commandDocumentSchema, outputSchemaName } from '../plugin/command-output.ts';
import type { CommandDefinition, GateDefinition, JobDeclarations, PluginDefinition, WorkflowDefinition } from '../plugin/types.ts';
import type { JobHandler, JobName, JobQueue } from '../queue/job-queue.ts';
import type { Kernel, SchemaEntry } from './kernel-types.ts';
import type { MutableRegistry } from './registry.ts';

/** The parts of the kernel being built that a plugin's fields go into. */
export interface DeclarationTargets {
  kernel: Kernel;
  hooks: HookDriver;
  gates: MutableRegistry<GateDefinition>;
  delegates: MutableRegistry<DelegateDefinition>;
  workflows: MutableRegistry<WorkflowDefinition>;
  commands: MutableRegistry<CommandDefinition>;
  schemas: MutableRegistry<SchemaEntry>;
  queue: JobQueue;
  dispatcher: JobQueue;
}

/** A plugin's error codes into the catalog, or the rule they break as a load-time error naming the plugins. */
export function addErrorCodes(plugin: string, codes: Record<string, CatalogEntry>, prefix: string | undefined): void {
  const problem = registerErrorCodes(plugin, codes, prefix);
  if (problem)
    throw new SluiceError(problem.kind === 'prefix' ? 'PLUGIN_ERROR_CODE_PREFIX' : 'PLUGIN_ERROR_CODE_COLLISION', {
      plugin,
      field: problem.field,
      message: problem.message,
    });
}

/**
 * Registers what a plugin's description says it provides (everything but commands, which load on
 * demand, and its setup), so every plugin's hooks, codes and definitions exist before any setup runs.
 */
export function registerDeclarations(plugin: PluginDefinition, t: DeclarationTargets): void {
  const name = plugin.name;
  if (plugin.errorCodes || plugin.errorPrefix) addErrorCodes(name, plugin.errorCodes ?? {}, plugin.errorPrefix);
  if (plugin.hooks) t.hooks.declareAll(plugin.hooks, name);
  for (const [schemaName, d] of Object.entries(plugin.schemas ?? {}))
    t.schemas.add(schemaName, name, { name: schemaName, plugin: name, description: d.description, schema: d.schema, load: d.load });
  for (const gate of plugin.gates ?? []) t.gates.add(gate.type, name, gate as GateDefinition);
  for (const delegate of plugin.delegates ?? []) t.delegates.add(delegate.name, name, delegate);
  registerJobs(plugin.jobs, t.queue, t.kernel, name);
  registerJobs(plugin.durableJobs, t.dispatcher, t.kernel, name);
  if (plugin.workflow)
    t.workflows.add(workflowName(name), name, {
      name: workflowName(name),
      description: plugin.workflow.description,
      commands: Object.keys(plugin.commands ?? {}),
      schemas: Object.keys(plugin.schemas ?? {}),
    });
}

/** `sluice:lifecycle` is the workflow `lifecycle`; a plugin outside sluice keeps its name. */
const workflowName = (plugin: string) => plugin.replace(/^sluice:/, '');

function registerJobs(jobs: JobDeclarations | undefined, queue: JobQueue, kernel: Kernel, owner: string): void {
  for (const [job, load] of Object.entries(jobs ?? {}) as [JobName, (k: Kernel) => Promise<JobHandler<JobName>>][]) {
    let handler: Promise<JobHandler<JobName>> | undefined;
    queue.register(job, async (payload, ctx) => (await (handler ??= load(kernel)))(payload, ctx), owner);
  }
}

/** Adds a command and, when it documents its --json output, that output's schema (`sluice schema NAME-output`). */
export function addCommand(t: Pick<DeclarationTargets, 'commands' | 'schemas'>, plugin: string, c: CommandDefinition): void {
  t.commands.add(c.name, plugin, c);
  if (!c.output) return;
  const schemaName = outputSchemaName(c.name);
  t.schemas.add(schemaName, plugin, {
    name: schemaName,
    plugin,
    description: `\`sluice ${c.name} --json\` output`,
    schema: commandDocumentSchema(c.output),
    kind: 'output',
  });
}

/**
 * Imports the modules of the declared commands that are wanted (all, or those named) and adds them.
 * A module whose command has another name than its key is an error naming the plugin.
 */
export async function loadDeclaredCommands(
  plugins: readonly PluginDefinition[],
  wanted: 'all' | readonly string[],
  t: Pick<DeclarationTargets, 'commands' | 'schemas'>,
): Promise<void> {
  const jobs = plugins.flatMap((p) =>
    Object.entries(p.commands ?? {})
      .filter(([command]) => wanted === 'all' || wanted.includes(command))
      .map(async ([command, d]) => ({ plugin: p.name, command, def: await loadCommand(p.name, command, d.load) })),
  );
  for (const { plugin, command, def } of await Promise.all(jobs)) {
    if (def?.name !== command || typeof def.run !== 'function')
      throw new SluiceError('PLUGIN_INVALID', {
        plugin,
        field: `commands.${command}`,
        message: `plugin ${plugin}: commands.${command} loads ${def?.name === undefined ? 'no command' : `command ${JSON.stringify(def.name)}`}, not ${JSON.stringify(command)}`,
      });
    addCommand(t, plugin, def);
  }
}

async function loadCommand(plugin: string, command: string, load: () => Promise<CommandDefinition>): Promise<CommandDefinition | undefined> {
  try {
    return await load();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SluiceError('PLUGIN_LOAD_FAILED', {
      plugin,
      field: `commands.${command}`,
      message: `plugin ${plugin}: command ${command} failed to load: ${message}`,
      cause: error,
    });
  }
}

/** A schema entry's schema, importing it first when it was declared with `load`. */
export async function schemaOf(entry: SchemaEntry): Promise<v.GenericSchema> {
  if (entry.schema) return entry.schema;
  if (!entry.load) throw new SluiceError('SCHEMA_UNKNOWN', { message: `schema ${entry.name} has neither a schema nor a loader` });
  return entry.load();
}
