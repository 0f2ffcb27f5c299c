import type { PluginDefinition } from '../../core/index.ts';
import { delegatePlugins } from '../../delegates/index.ts';
import { lifecyclePlugin } from '../lifecycle/lifecycle-plugin.ts';
import { sdlcPlugins } from '../sdlc/index.ts';
import { sdlcViewsPlugin } from '../sdlc/views/views-plugin.ts';
import { skillTunePlugin } from '../skill-tune/skill-tune-plugin.ts';
import { cliPlugin } from './cli-plugin.ts';

/**
 * Every plugin that ships with sluice, in load order. Plugin entry modules must stay light:
 * they register definitions and import their heavy parts lazily inside handlers.
 */
export const builtinPlugins: PluginDefinition[] = [cliPlugin, ...delegatePlugins, ...sdlcPlugins, sdlcViewsPlugin, lifecyclePlugin, skillTunePlugin];
