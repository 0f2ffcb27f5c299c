import type { PluginDefinition } from '../core/index.ts';
import { commandGatePlugin } from './command-gate.ts';
import { completenessGatePlugin } from './completeness-gate.ts';
import { complianceGatePlugin } from './compliance-gate.ts';
import { consistencyGatePlugin } from './consistency-gate.ts';
import { exitCriteriaGatePlugin } from './exit-criteria-gate.ts';
import { integrityGatePlugin } from './integrity-gate.ts';
import { metricsGatePlugin } from './metrics-gate.ts';
import { qualityGatePlugin } from './quality-gate.ts';

/** The built-in gate types, one plugin each. */
export const gatePlugins: PluginDefinition[] = [
  integrityGatePlugin,
  completenessGatePlugin,
  metricsGatePlugin,
  complianceGatePlugin,
  consistencyGatePlugin,
  qualityGatePlugin,
  exitCriteriaGatePlugin,
  commandGatePlugin,
];
