import { SluiceError } from '../errors/sluice-error.ts';
import type { PluginDefinition } from '../plugin/types.ts';

/**
 * Puts every plugin after the plugins it `needs`, keeping the given order otherwise. A need that is not
 * in the list, or a cycle of needs, is an error naming the plugin.
 */
export function orderByNeeds<T extends { plugin: PluginDefinition }>(list: readonly T[]): T[] {
  const byName = new Map(list.map((item) => [item.plugin.name, item]));
  const out: T[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (item: T) => {
    const name = item.plugin.name;
    if (done.has(name)) return;
    if (path.includes(name)) {
      const cycle = [...path.slice(path.indexOf(name)), name].join(' → ');
      throw new SluiceError('PLUGIN_NEED_CYCLE', { plugin: name, field: 'needs', message: `plugin ${name} needs itself through ${cycle}` });
    }
    path.push(name);
    for (const need of item.plugin.needs ?? []) {
      const needed = byName.get(need);
      if (needed === undefined)
        throw new SluiceError('PLUGIN_NEED_MISSING', { plugin: name, field: 'needs', message: `plugin ${name} needs plugin ${need}, which is not loaded` });
      visit(needed);
    }
    path.pop();
    done.add(name);
    out.push(item);
  };
  for (const item of list) visit(item);
  return out;
}

/** The names of `roots` and of every plugin they need, directly or not (unknown names are kept, for the kernel to report). */
export function needsClosure(plugins: readonly PluginDefinition[], roots: Iterable<string>): Set<string> {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  const out = new Set<string>();
  const add = (name: string) => {
    if (out.has(name)) return;
    out.add(name);
    for (const need of byName.get(name)?.needs ?? []) add(need);
  };
  for (const name of roots) add(name);
  return out;
}
