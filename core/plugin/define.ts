import type { DelegateDefinition } from '../delegate/contract.ts';
import type { CommandDefinition, GateDefinition, PluginDefinition, WorkflowDefinition } from './types.ts';

/**
 * Identity factories: they add nothing at runtime but give plugin authors full type inference
 * and one obvious way to write each extension point.
 */
export const definePlugin = (plugin: PluginDefinition): PluginDefinition => plugin;
export const defineGate = <I>(gate: GateDefinition<I>): GateDefinition<I> => gate;
export const defineDelegate = (delegate: DelegateDefinition): DelegateDefinition => delegate;
export const defineWorkflow = (workflow: WorkflowDefinition): WorkflowDefinition => workflow;
export const defineCommand = (command: CommandDefinition): CommandDefinition => command;
