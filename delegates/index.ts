import { definePlugin } from '../core/index.ts';
import { delegateCommand } from './delegate-command.ts';
import { scriptDelegatePlugin } from './script/index.ts';

/** The `sluice delegate` command. Each backend is its own plugin in its own folder. */
export const delegateCommandPlugin = definePlugin({
  name: 'sluice:delegate',
  setup(ctx) {
    ctx.registerCommand(delegateCommand);
  },
});

/** Every bundled delegate backend plus the command, in load order. */
export const delegatePlugins = [scriptDelegatePlugin, delegateCommandPlugin];
