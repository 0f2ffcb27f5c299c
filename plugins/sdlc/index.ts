import type { PluginDefinition } from '../../core/index.ts';
import { gatePlugins } from '../../gates/index.ts';
import { sdlcPlugin } from './sdlc-plugin.ts';

/** The SDLC workflow and the built-in gate types it runs. */
export const sdlcPlugins: PluginDefinition[] = [sdlcPlugin, ...gatePlugins];
