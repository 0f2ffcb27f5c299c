import { definePlugin } from '../core/index.ts';
import { agyDelegatePlugin } from './agy/index.ts';
import { claudeDelegatePlugin } from './claude/index.ts';
import { codexDelegatePlugin } from './codex/index.ts';
import { delegateCommand } from './delegate-command.ts';
import { scriptDelegatePlugin } from './script/index.ts';
import { shellDelegatePlugin } from './shell/index.ts';

/** The `sluice delegate` command. Each backend is its own plugin in its own folder. */
export const delegateCommandPlugin = definePlugin({
  name: 'sluice:delegate',
  setup(ctx) {
    ctx.registerCommand(delegateCommand);
  },
});

/** Every bundled delegate backend plus the command, in load order. */
export const delegatePlugins = [claudeDelegatePlugin, agyDelegatePlugin, codexDelegatePlugin, shellDelegatePlugin, scriptDelegatePlugin, delegateCommandPlugin];
