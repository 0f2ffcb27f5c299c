import { definePlugin } from '../../core/index.ts';
import { queueCommands } from './queue-commands.ts';
import { workerCommand } from './worker-command.ts';
import './queue-errors.ts';

/** `sluice worker` and `sluice queue …`; BullMQ itself loads only when one of them runs. */
export const queueRedisPlugin = definePlugin({
  name: 'sluice:queue-redis',
  setup(ctx) {
    ctx.registerCommand(workerCommand);
    for (const c of queueCommands) ctx.registerCommand(c);
  },
});
