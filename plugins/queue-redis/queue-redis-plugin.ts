import { definePlugin } from '../../core/index.ts';
import { queueCommands } from './queue-commands.ts';
import { queueErrors } from './queue-errors.ts';
import { workerCommand } from './worker-command.ts';

/** `sluice worker` and `sluice queue …`; BullMQ itself loads only when one of them runs. */
export const queueRedisPlugin = definePlugin({
  name: 'sluice:queue-redis',
  setup(ctx) {
    ctx.registerErrorCodes(queueErrors);
    ctx.registerCommand(workerCommand);
    for (const c of queueCommands) ctx.registerCommand(c);
  },
});
