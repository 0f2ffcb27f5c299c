import { definePlugin } from '../../core/index.ts';
import { queueErrors } from './queue-errors.ts';

/** `sluice worker` and `sluice queue …`; BullMQ itself loads only when one of them runs. */
export const queueRedisPlugin = definePlugin({
  name: 'sluice:queue-redis',
  errorCodes: queueErrors,
  commands: {
    // A worker runs whatever durable job arrives, so it sets up every plugin (every one that declares a job).
    worker: { needs: ['*'], load: async () => (await import('./worker-command.ts')).workerCommand },
    'queue status': { load: async () => (await import('./queue-commands.ts')).queueStatusCommand },
    'queue retry': { load: async () => (await import('./queue-commands.ts')).queueRetryCommand },
    'queue drain': { load: async () => (await import('./queue-commands.ts')).queueDrainCommand },
    'queue key': { load: async () => (await import('./queue-key-command.ts')).queueKeyCommand },
  },
});
