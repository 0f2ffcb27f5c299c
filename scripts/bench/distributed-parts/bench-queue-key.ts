import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createQueueKey, QUEUE_KEY_ENV, readQueueKey, type QueueKey } from '../../../core/index.ts';
import { createNodeHost } from '../../../plugins/host-node/index.ts';

/**
 * The bench's own queue key (never the person's): made once per bench run and named in the environment,
 * so the orchestrator here and every bench worker it starts sign and verify with it, as a team's machines do.
 */
let made: Promise<QueueKey> | undefined;
export function benchQueueKey(): Promise<QueueKey> {
  made ??= (async () => {
    const host = createNodeHost();
    const file = join(await mkdtemp(join(tmpdir(), 'sluice-bench-queue-key-')), 'queue.key');
    await createQueueKey(host, file);
    process.env[QUEUE_KEY_ENV] = file;
    return readQueueKey(host, file);
  })();
  return made;
}
