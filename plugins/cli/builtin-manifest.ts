import type { PluginDefinition } from '../../core/index.ts';

/**
 * Every plugin that ships with sluice, in load order, each behind a dynamic import. The CLI loads
 * only what the command it runs needs (the bundle splits on these imports), so `sluice status`
 * does not pay for the lifecycle runner or the delegate backends.
 */
export interface BuiltinEntry {
  name: string;
  /** Top-level command words the entry registers, each with the other entries its run needs. */
  commands: Record<string, readonly string[]>;
  load(): Promise<PluginDefinition[]>;
  /**
   * Its error catalog alone (the module that calls defineErrorCodes): what `sluice errors` lists, and
   * what an error raised before its plugin was loaded (or by a module of another) is resolved against.
   */
  errorCodes?(): Promise<unknown>;
}

const ALL = ['*'];

export const builtinManifest: readonly BuiltinEntry[] = [
  {
    name: 'cli',
    commands: { plugins: ALL, schema: ALL, demo: ALL, trust: [], errors: [], doctor: [] },
    load: async () => [(await import('./cli-plugin.ts')).cliPlugin],
    errorCodes: () => import('./cli-errors.ts'),
  },
  {
    name: 'delegates',
    commands: { delegate: [] },
    load: async () => (await import('../../delegates/index.ts')).delegatePlugins,
    errorCodes: () => import('../../delegates/script/script-errors.ts'),
  },
  { name: 'gates', commands: {}, load: async () => (await import('../../gates/index.ts')).gatePlugins },
  // `next`/`gate` run the gate types and, in the Build loop, the views' spec-backlog gate; `reenter`
  // checks the profile's extra gate types (a `type: command` gate) as every writing command does.
  {
    name: 'sdlc',
    commands: {
      init: ['gates'],
      gate: ['gates', 'sdlc-views'],
      next: ['gates', 'sdlc-views'],
      skip: ['gates', 'sdlc-views'],
      reenter: ['gates'],
      waivers: ['gates', 'sdlc-views'],
    },
    load: async () => [(await import('../sdlc/sdlc-plugin.ts')).sdlcPlugin],
    errorCodes: () => import('../sdlc/sdlc-errors.ts'),
  },
  // `profile validate` checks extra gate types against the registered ones.
  {
    name: 'sdlc-views',
    commands: { status: [], audit: [], report: [], specs: [], handoff: [], profile: ['gates'] },
    load: async () => [(await import('../sdlc-views/index.ts')).sdlcViewsPlugin],
  },
  {
    name: 'lifecycle',
    commands: { lifecycle: ['delegates'] },
    load: async () => [(await import('../lifecycle/lifecycle-plugin.ts')).lifecyclePlugin],
    errorCodes: () => import('../lifecycle/lifecycle-errors.ts'),
  },
  {
    name: 'guard',
    commands: { guard: [], hooks: [] },
    load: async () => [(await import('../guard/guard-plugin.ts')).guardPlugin],
    errorCodes: () => import('../guard/guard-errors.ts'),
  },
  {
    name: 'skill-tune',
    commands: { tune: ['delegates'] },
    load: async () => [(await import('../skill-tune/skill-tune-plugin.ts')).skillTunePlugin],
    errorCodes: () => import('../skill-tune/tune-errors.ts'),
  },
  // The MCP server answers for every command an agent may run, over one kernel: it loads them all.
  {
    name: 'mcp',
    commands: { mcp: ALL },
    load: async () => [(await import('../mcp/index.ts')).mcpPlugin],
    errorCodes: () => import('../mcp/mcp-errors.ts'),
  },
  // A worker runs whatever durable job arrives, so it loads every plugin that registers one.
  {
    name: 'queue-redis',
    commands: { worker: ALL, queue: [] },
    load: async () => [(await import('../queue-redis/queue-redis-plugin.ts')).queueRedisPlugin],
    errorCodes: () => import('../queue-redis/queue-errors.ts'),
  },
];

/**
 * The built-in plugins a command needs: the entry that registers it plus the entries it uses.
 * Without a command (help, unknown commands, commands from config plugins) everything loads.
 */
export async function loadBuiltinPlugins(command?: string): Promise<PluginDefinition[]> {
  const owner = command === undefined ? undefined : builtinManifest.find((e) => command in e.commands);
  const uses = owner?.commands[command!] ?? ALL;
  const wanted = uses.includes('*') ? undefined : new Set([owner!.name, ...uses]);
  const entries = builtinManifest.filter((e) => wanted === undefined || wanted.has(e.name));
  return (await Promise.all(entries.map((e) => e.load()))).flat();
}

/** Every built-in plugin's error catalog, without loading the plugins. */
export async function loadBuiltinErrorCodes(): Promise<void> {
  await Promise.all(builtinManifest.map((e) => e.errorCodes?.()));
}
