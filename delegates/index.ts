import { definePlugin } from '../core/index.ts';
import { agyDelegatePlugin } from './agy/index.ts';
import { claudeDelegatePlugin } from './claude/index.ts';
import { codexDelegatePlugin } from './codex/index.ts';
import { scriptDelegatePlugin } from './script/index.ts';
import { shellDelegatePlugin } from './shell/index.ts';

/** Every bundled delegate backend, one plugin each in its own folder. */
export const delegateBackendPlugins = [claudeDelegatePlugin, agyDelegatePlugin, codexDelegatePlugin, shellDelegatePlugin, scriptDelegatePlugin];

/**
 * `sluice:delegates` names every bundled backend: a command that runs whichever backend the config or
 * the request names `needs` it, and so gets them all set up.
 */
export const delegatesPlugin = definePlugin({
  name: 'sluice:delegates',
  needs: delegateBackendPlugins.map((p) => p.name),
});

/** The `sluice delegate` command. */
export const delegateCommandPlugin = definePlugin({
  name: 'sluice:delegate',
  commands: { delegate: { needs: [delegatesPlugin.name], load: async () => (await import('./delegate-command.ts')).delegateCommand } },
});

/** Every bundled delegate plugin, in load order. */
export const delegatePlugins = [...delegateBackendPlugins, delegatesPlugin, delegateCommandPlugin];
