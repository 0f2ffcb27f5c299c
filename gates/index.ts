import { definePlugin, type PluginDefinition } from '../core/index.ts';
import { commandGatePlugin } from './command-gate.ts';
import { completenessGatePlugin } from './completeness-gate.ts';
import { complianceGatePlugin } from './compliance-gate.ts';
import { consistencyGatePlugin } from './consistency-gate.ts';
import { exitCriteriaGatePlugin } from './exit-criteria-gate.ts';
import { integrityGatePlugin } from './integrity-gate.ts';
import { metricsGatePlugin } from './metrics-gate.ts';
import { qualityGatePlugin } from './quality-gate.ts';

/** What each built-in gate type takes as input: the SDLC planner builds these (types only, erased at run time). */
export type { CommandGateInput } from './command-gate.ts';
export type { CompletenessInput } from './completeness-gate.ts';
export type { ComplianceCheck, ComplianceInput } from './compliance-gate.ts';
export type { ConsistencyData, ConsistencyInput, MetricReading } from './consistency-gate.ts';
export type { ExitCriteriaInput } from './exit-criteria-gate.ts';
export type { IntegrityInput } from './integrity-gate.ts';
export type { MetricsInput } from './metrics-gate.ts';
export type { QualityInput } from './quality-gate.ts';

/** The built-in gate types, one plugin each. */
export const gateTypePlugins: PluginDefinition[] = [
  integrityGatePlugin,
  completenessGatePlugin,
  metricsGatePlugin,
  complianceGatePlugin,
  consistencyGatePlugin,
  qualityGatePlugin,
  exitCriteriaGatePlugin,
  commandGatePlugin,
];

/** `sluice:gates` names every built-in gate type: a command that checks a phase's gates `needs` it. */
export const gatesPlugin = definePlugin({
  name: 'sluice:gates',
  needs: gateTypePlugins.map((p) => p.name),
});

/** Every built-in gate plugin, in load order. */
export const gatePlugins: PluginDefinition[] = [...gateTypePlugins, gatesPlugin];
