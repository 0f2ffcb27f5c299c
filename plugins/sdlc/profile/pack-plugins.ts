import { join } from 'pathe';
import * as v from 'valibot';
import {
  createKernel,
  HostNotFoundError,
  pluginSubjects,
  SluiceError,
  type GateDefinition,
  type Host,
  type Kernel,
  type PluginDefinition,
  type TrustSubject,
} from '../../../core/index.ts';

/**
 * A pack's own gate plugins: `sluice: { plugins: [./gates/acme-gate.ts] }` in its profile.yaml. Each
 * entry is a module file inside the pack (relative, `./…`, no `..`), self-contained apart from the
 * packages it imports (`sluice`, `valibot`). `sluice init` freezes each file into `.sdlc/plugins/`
 * with the profile, and a command that runs gates loads them only when the workspace trust covers
 * their content, like the config's `plugins:` (see profile-trust-subjects.ts).
 */
// Every segment starts with a letter, digit or _@+-, so `.` and `..` segments cannot occur.
const PACK_PLUGIN_PATH = /^\.\/(?:[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*\/)*[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*\.(?:ts|mts|js|mjs)$/;

export const PackPluginsSchema = v.pipe(
  v.array(v.pipe(v.string(), v.regex(PACK_PLUGIN_PATH, 'a pack plugin is a file inside the pack: ./path/to/plugin.ts (.ts, .mts, .js or .mjs; no ..)'))),
  v.maxLength(16),
  v.description('Gate plugins shipped in the pack (./gates/acme-gate.ts): frozen into .sdlc/plugins/ at init, loaded once `sluice trust` covers them.'),
);

/** Where the frozen copy of a pack's plugins lives: `.sdlc/plugins/<path in the pack>`. */
export const frozenPluginsDir = (sdlcDir: string) => join(sdlcDir, 'plugins');
export const packPluginFile = (baseDir: string, spec: string) => join(baseDir, spec.slice(2));

/** The plugin paths a profile lists, read defensively (the profile may not have passed its schema). */
export function packPluginSpecs(profile: unknown): string[] {
  const list = (profile as { sluice?: { plugins?: unknown } } | null)?.sluice?.plugins;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The frozen pack plugins as trust subjects: named by the frozen profile and its `sluice.plugins[i]`,
 * fingerprinted like a config plugin (its path and the bytes of the file).
 */
export async function packPluginSubjects(host: Host, sdlcDir: string, profileDisplay: string, specs: readonly string[]): Promise<TrustSubject[]> {
  const subjects = await pluginSubjects(host, frozenPluginsDir(sdlcDir), profileDisplay, specs);
  return subjects.map((s, i) => ({ ...s, what: `sluice.plugins[${i}]` }));
}

interface AddableRegistry {
  add?(name: string, plugin: string, value: GateDefinition): void;
}

const loaded = new WeakMap<Kernel, Promise<void>>();

/** Whether this kernel has loaded the frozen profile's pack plugins (so their gate types are registered). */
export const packPluginsLoaded = (kernel: Kernel): boolean => loaded.has(kernel);

/**
 * Loads the frozen profile's pack plugins into this kernel (once per kernel): trust first, then each
 * module, set up by a kernel of their own (the kernel's checks, timeouts and error-code registration),
 * whose gate types join this kernel's, so they run through its queue and trust like any gate.
 */
export function loadPackPlugins(kernel: Kernel, sdlcDir: string, profileDisplay: string, specs: readonly string[]): Promise<void> {
  if (specs.length === 0) return Promise.resolve();
  let once = loaded.get(kernel);
  if (!once) {
    once = load(kernel, sdlcDir, profileDisplay, specs);
    loaded.set(kernel, once);
  }
  return once;
}

async function load(kernel: Kernel, sdlcDir: string, profileDisplay: string, specs: readonly string[]): Promise<void> {
  await kernel.trust.require(await packPluginSubjects(kernel.host, sdlcDir, profileDisplay, specs));
  const definitions: PluginDefinition[] = [];
  for (const [i, spec] of specs.entries()) {
    const where = { file: profileDisplay, field: `sluice.plugins[${i}]` };
    const path = packPluginFile(frozenPluginsDir(sdlcDir), spec);
    let mod: Record<string, unknown>;
    try {
      mod = await kernel.host.importModule(path, kernel.projectRoot);
    } catch (error) {
      if (error instanceof HostNotFoundError)
        throw new SluiceError('PLUGIN_NOT_FOUND', {
          ...where,
          plugin: spec,
          message: `pack plugin ${spec} is not in ${kernel.display(path)}: run sluice init --force`,
        });
      if (error instanceof SluiceError) throw error;
      throw new SluiceError('PLUGIN_LOAD_FAILED', {
        ...where,
        plugin: spec,
        message: `pack plugin ${spec} failed to import: ${(error as Error).message}`,
        cause: error,
      });
    }
    const plugin = mod.default ?? mod.plugin;
    if (!plugin || typeof plugin !== 'object')
      throw new SluiceError('PLUGIN_INVALID', { ...where, plugin: spec, message: `pack plugin ${spec} has no default export made with definePlugin` });
    definitions.push(plugin as PluginDefinition);
  }
  const own = await createKernel({
    host: kernel.host,
    projectRoot: kernel.projectRoot,
    config: { ...kernel.config, plugins: [] },
    plugins: definitions,
    trust: kernel.trust,
  });
  const gates = kernel.gates as typeof kernel.gates & AddableRegistry;
  if (typeof gates.add !== 'function') throw new SluiceError('INTERNAL', { message: 'this kernel cannot take the gate types of a pack plugin' });
  for (const entry of own.gates.entries()) gates.add(entry.value.type, entry.plugin, entry.value);
}
