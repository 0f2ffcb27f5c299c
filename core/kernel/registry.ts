import { SluiceError } from '../errors/sluice-error.ts';
import type { ErrorCode } from '../errors/catalog.ts';
import type { Registered, Registry } from './kernel-types.ts';

export interface MutableRegistry<T> extends Registry<T> {
  add(name: string, plugin: string, value: T): void;
}

/** A registry for one kind of extension; a second registration of a name names both plugins. */
export function createRegistry<T>(kind: string, unknownCode: ErrorCode): MutableRegistry<T> {
  const items = new Map<string, Registered<T>>();
  return {
    add(name, plugin, value) {
      const existing = items.get(name);
      if (existing) {
        throw new SluiceError('PLUGIN_DUPLICATE', { plugin, message: `${kind} ${name} is registered by both ${existing.plugin} and ${plugin}` });
      }
      items.set(name, { plugin, value });
    },
    get: (name) => items.get(name)?.value,
    require(name) {
      const found = items.get(name);
      if (!found) {
        const known = [...items.keys()].sort().join(', ');
        throw new SluiceError(unknownCode, { message: `unknown ${kind} ${JSON.stringify(name)}${known ? ` (known: ${known})` : ''}` });
      }
      return found.value;
    },
    has: (name) => items.has(name),
    names: () => [...items.keys()].sort(),
    entries: () => [...items.values()],
  };
}
