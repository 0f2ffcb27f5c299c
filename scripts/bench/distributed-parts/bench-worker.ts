// One worker process of the distributed bench: `sluice worker`'s engine embedded, so the bench (the
// trusted host here, as `sluice demo` is) can name the key that verifies its commit grants.
// Usage: node --import=tsx bench-worker.ts REDIS_URL WORKDIR GRANT_KEY_FILE
import { createKernel } from '../../../core/index.ts';
import { builtinPlugins } from '../../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../../plugins/host-node/index.ts';
import { configureRequirementJobs } from '../../../plugins/lifecycle/remote/requirement-job.ts';
import { startWorker } from '../../../plugins/queue-redis/index.ts';

const [url, workdir, grantKeyFile] = process.argv.slice(2);
const kernel = await createKernel({ host: createNodeHost({ cwd: workdir }), projectRoot: workdir, plugins: builtinPlugins });
configureRequirementJobs(kernel, { workdir, grantKeyFile });
const worker = await startWorker({ url, dispatcher: kernel.dispatcher, delegates: ['script'], concurrency: 1, workdir, graceMs: 5000 });
process.stdout.write('ready\n');
process.once('SIGTERM', () => void worker.stop().then(() => process.exit(0)));
