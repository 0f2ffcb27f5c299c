import type { DelegateDefinition } from '../delegate/contract.ts';
import type { CommandDefinition, GateDefinition, PluginDefinition, WorkflowDefinition } from './types.ts';

/**
 * Identity factories: they add nothing at runtime but give plugin authors full type inference
 * and one obvious way to write each extension point.
 */
export const definePlugin = (plugin: PluginDefinition): PluginDefinition => plugin;
/** Infer the input and data types from the gate's `input` and `data` schemas. */
export const defineGate = <I, D = unknown>(gate: GateDefinition<I, D>): GateDefinition<I, D> => gate;
export const defineDelegate = (delegate: DelegateDefinition): DelegateDefinition => delegate;
export const defineWorkflow = (workflow: WorkflowDefinition): WorkflowDefinition => workflow;
export const defineCommand = (command: CommandDefinition): CommandDefinition => command;
