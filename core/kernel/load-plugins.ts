import { SluiceError, isSluiceError } from '../errors/sluice-error.ts';
import { HostNotFoundError, type Host } from '../host/host.ts';
import type { PluginDefinition } from '../plugin/types.ts';
import { checkPluginShape } from './plugin-shape.ts';

export type PluginSource = PluginDefinition | string;

export interface ResolvedPlugin {
  plugin: PluginDefinition;
  /** `builtin` or the specifier it was loaded from. */
  source: string;
}

/** Resolves config-given specifiers (paths or package names) to plugin definitions. */
export async function resolvePlugins(host: Host, projectRoot: string, sources: readonly PluginSource[]): Promise<ResolvedPlugin[]> {
  const out: ResolvedPlugin[] = [];
  for (const source of sources) {
    if (typeof source !== 'string') {
      out.push({ plugin: checkPluginShape(source, 'builtin'), source: 'builtin' });
      continue;
    }
    let mod: Record<string, unknown>;
    try {
      mod = await host.importModule(source, projectRoot);
    } catch (error) {
      if (error instanceof HostNotFoundError)
        throw new SluiceError('PLUGIN_NOT_FOUND', { plugin: source, file: 'sluice.config', field: 'plugins', message: `cannot resolve plugin ${source}` });
      const message = error instanceof Error ? error.message : String(error);
      throw new SluiceError('PLUGIN_LOAD_FAILED', { plugin: source, message: `plugin ${source} failed to import: ${message}`, cause: error });
    }
    const candidate = mod.default ?? mod.plugin;
    const plugin = typeof candidate === 'function' && !('setup' in candidate) ? (candidate as () => unknown)() : candidate;
    out.push({ plugin: checkPluginShape(plugin, source), source });
  }
  return out;
}

/** `pre` plugins first, then the rest, then `post`; stable within each group. */
export function orderPlugins<T extends { plugin: PluginDefinition }>(list: readonly T[]): T[] {
  const rank = (p: PluginDefinition) => (p.enforce === 'pre' ? 0 : p.enforce === 'post' ? 2 : 1);
  return list
    .map((item, i) => ({ item, i }))
    .sort((a, b) => rank(a.item.plugin) - rank(b.item.plugin) || a.i - b.i)
    .map((x) => x.item);
}

/** Runs a plugin's setup with a time limit; any failure names the plugin. */
export async function runSetup(plugin: PluginDefinition, setup: () => void | Promise<void>, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.resolve().then(setup),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new SluiceError('PLUGIN_LOAD_TIMEOUT', { plugin: plugin.name, message: `plugin ${plugin.name} did not finish setup within ${timeoutMs} ms` }),
            ),
          timeoutMs,
        );
      }),
    ]);
  } catch (error) {
    if (isSluiceError(error)) {
      if (error.plugin !== undefined) throw error;
      throw new SluiceError(error.code, {
        message: `plugin ${plugin.name}: ${error.detail}`,
        plugin: plugin.name,
        file: error.file,
        field: error.field,
        hint: error.given.hint,
        cause: error,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new SluiceError('PLUGIN_LOAD_FAILED', { plugin: plugin.name, message: `plugin ${plugin.name} failed in setup: ${message}`, cause: error });
  } finally {
    clearTimeout(timer);
  }
}
