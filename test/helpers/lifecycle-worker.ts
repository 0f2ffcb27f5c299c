/**
 * A `sluice worker` embedded the way a deployment would embed it, for tests: the same kernel and job
 * handlers as the CLI's worker, verifying jobs with the queue key $SLUICE_QUEUE_KEY_FILE names (the
 * test's, see queue-key.ts). Prints `ready`, then one line per delegate start/finish and per job event,
 * so a test can kill it in the middle of a stage.
 *
 *   node --import=tsx test/helpers/lifecycle-worker.ts REDIS_URL WORKDIR [LEASE_MS]
 */
import { createKernel, readQueueKey } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { configureRequirementJobs } from '../../plugins/lifecycle/remote/requirement-job.ts';
import { startWorker } from '../../plugins/queue-redis/index.ts';

const [url, workdir, lease] = process.argv.slice(2);
const kernel = await createKernel({ host: createNodeHost({ cwd: workdir }), projectRoot: workdir, plugins: builtinPlugins, concurrency: 2 });
configureRequirementJobs(kernel, {});
const queueKey = await readQueueKey(kernel.host);
const say = (line: string): void => void process.stdout.write(`${line}\n`);
kernel.hooks.on('delegate:start', 'test-worker', (e) => void say(`start ${e.label}`));
kernel.hooks.on('delegate:finish', 'test-worker', (e) => {
  say(`finish ${e.label}`);
  say(`result ${e.label} ${e.status}`);
});
const worker = await startWorker({
  queueKey,
  url,
  dispatcher: kernel.dispatcher,
  delegates: ['script'],
  workdir,
  concurrency: 2,
  graceMs: 1000,
  // A killed worker's jobs move on after about this long.
  leaseMs: lease ? Number(lease) : 3000,
  onEvent: (e) => say(`event ${JSON.stringify(e)}`),
});
say('ready');
process.on('SIGTERM', () => void worker.stop().then(() => process.exit(0)));
