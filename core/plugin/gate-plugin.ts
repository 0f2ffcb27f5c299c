import { definePlugin } from './define.ts';
import type { GateDefinition, GateResult } from './gate-types.ts';
import type { PluginDefinition } from './types.ts';

export interface GatePluginOptions {
  /** The plugin's name; a third-party gate passes its own (`acme-licence`). Default `sluice:gate-<type>`. */
  name?: string;
  version?: string;
}

/** The plugin that provides exactly one gate type (`sluice:gate-<type>` for a built-in one). */
export function gatePlugin<I, D>(gate: GateDefinition<I, D>, o: GatePluginOptions = {}): PluginDefinition {
  return definePlugin({
    name: o.name ?? `sluice:gate-${gate.type}`,
    ...(o.version ? { version: o.version } : {}),
    gates: [gate],
  });
}

/** The `data` a gate's rows carry among a run's results (the first row of that gate with data), typed by the gate. */
export function gateData<D>(gate: Pick<GateDefinition<unknown, D>, 'id'> & { data?: unknown }, results: readonly GateResult[]): D | undefined {
  return results.find((r) => r.gate === gate.id && r.data !== undefined)?.data as D | undefined;
}
