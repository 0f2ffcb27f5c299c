// One worker process of the distributed bench: `sluice worker`'s engine embedded, one job at a time. It
// verifies jobs with the queue key $SLUICE_QUEUE_KEY_FILE names (the bench's own, see bench-queue-key.ts).
// Usage: node --import=tsx bench-worker.ts REDIS_URL WORKDIR
import { createKernel, readQueueKey } from '../../../core/index.ts';
import { builtinPlugins } from '../../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../../plugins/host-node/index.ts';
import { configureRequirementJobs } from '../../../plugins/lifecycle/remote/requirement-job.ts';
import { startWorker } from '../../../plugins/queue-redis/index.ts';

const [url, workdir] = process.argv.slice(2);
const kernel = await createKernel({ host: createNodeHost({ cwd: workdir }), projectRoot: workdir, plugins: builtinPlugins });
configureRequirementJobs(kernel, { workdir });
const queueKey = await readQueueKey(kernel.host);
const worker = await startWorker({ queueKey, url, dispatcher: kernel.dispatcher, delegates: ['script'], concurrency: 1, workdir, graceMs: 5000 });
process.stdout.write('ready\n');
process.once('SIGTERM', () => void worker.stop().then(() => process.exit(0)));
