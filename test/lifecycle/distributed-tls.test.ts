import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createKernel } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { createLifecycleContext } from '../../plugins/lifecycle/lifecycle-context.ts';
import { runLifecycleOnWorkers } from '../../plugins/lifecycle/remote/run-on-workers.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { createRedisQueue } from '../../plugins/queue-redis/index.ts';
import { passingScript } from '../fixtures/lifecycle/passing-script.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';
import { runCli, sluiceEntry } from '../helpers/run-cli.ts';
import { startWorkerProcess } from '../helpers/sluice-worker.ts';
import { startTlsRedisServer, tlsRedisMissing } from '../helpers/tls-redis-server.ts';
import { gitIn, HOST_GRANT, makeRepo } from './lifecycle-fixture.ts';

const queueKey = useTestQueueKey();
const IDENTITY = { GIT_AUTHOR_NAME: 'Worker', GIT_AUTHOR_EMAIL: 'w@example.invalid', GIT_COMMITTER_NAME: 'Worker', GIT_COMMITTER_EMAIL: 'w@example.invalid' };
const SLUGS = ['north', 'south'];

describe('a distributed run over TLS (redis-server --tls-port, certificates made by openssl)', { skip: tlsRedisMissing() }, () => {
  it('a `sluice worker` with the CA in its user config and the URL in its environment carries the run to two commits; no password on any command line', async (t) => {
    const redis = await startTlsRedisServer(t);
    // The worker machine's person: the CA in their own sluice config (owner-only), the URL in the service's environment.
    const config = await mkdtemp(join(tmpdir(), 'sluice-user-config-'));
    await mkdir(join(config, 'sluice'), { mode: 0o700 });
    await writeFile(join(config, 'sluice', 'config.yaml'), `queue:\n  tls:\n    ca: ${redis.caFile}\n`, { mode: 0o600 });
    const workerHome = await mkdtemp(join(tmpdir(), 'sluice-worker-'));
    const worker = startWorkerProcess(
      { after: (fn) => redis.beforeStop(fn) },
      { bin: sluiceEntry(), cwd: workerHome, url: redis.url, args: ['--concurrency', '2'], env: { ...IDENTITY, XDG_CONFIG_HOME: config } },
    );
    await worker.ready;
    assert.match(worker.stdout(), /queue rediss:\/\/127\.0\.0\.1:\d+\/0/);
    const cmdline = readFileSync(`/proc/${worker.child.pid}/cmdline`, 'utf8');
    assert.ok(!cmdline.includes(redis.password), 'the password is not on the worker’s command line');
    assert.ok(!worker.stdout().includes(redis.password) && !worker.stderr().includes(redis.password), 'nor in its output');

    // Without the CA a client refuses the server's certificate: the worker above really checked it.
    const untrusting = await runCli(['queue', 'status'], { cwd: workerHome, env: { SLUICE_QUEUE_URL: redis.url, XDG_CONFIG_HOME: workerHome } });
    assert.equal(untrusting.code, 2, untrusting.stderr);
    assert.match(untrusting.stderr, /QUEUE_UNREACHABLE/);

    const root = await makeRepo({ 'script.json': JSON.stringify(passingScript()) });
    const remote = join(await mkdtemp(join(tmpdir(), 'sluice-remote-')), 'project.git');
    gitIn(root, 'clone', '-q', '--bare', root, remote);
    gitIn(root, 'remote', 'add', 'origin', remote);
    const keyFile = join(await mkdtemp(join(tmpdir(), 'sluice-keys-')), 'commit-grant.key');
    await writeFile(keyFile, 'the-shared-grant-key-of-this-team\n', { mode: 0o600 });
    const kernel = await createKernel({
      host: createNodeHost({ cwd: root }),
      projectRoot: root,
      plugins: builtinPlugins,
      dispatcher: () => createRedisQueue({ url: redis.url, tls: { ca: readFileSync(redis.caFile, 'utf8') }, queueKey }),
    });
    redis.beforeStop(() => kernel.dispatcher.close?.());
    const lc = createLifecycleContext(kernel, root);
    for (const slug of SLUGS) await startRequirement(lc, slug, { goal: `goal of ${slug}` });
    const base = gitIn(root, 'rev-parse', 'HEAD').trim();
    const summary = await runLifecycleOnWorkers(lc, {
      slugs: SLUGS,
      backend: 'script',
      extra: { script: 'script.json' },
      dispatcher: kernel.dispatcher,
      authorize: { hostGrant: { ...HOST_GRANT, requirements: SLUGS }, grantKeyFile: keyFile },
    });
    assert.deepEqual(
      summary.requirements.map((r) => [r.slug, r.outcome, r.error?.message]),
      SLUGS.map((s) => [s, 'committed', undefined]),
    );
    for (const slug of SLUGS) assert.equal(gitIn(remote, 'rev-list', `${base}..refs/heads/sluice/${slug}`).trim().split('\n').length, 1);
    assert.equal((worker.stdout().match(/ done lifecycle:requirement /g) ?? []).length, 2, worker.stdout());
    worker.child.kill('SIGTERM');
    await worker.exited;
  });
});
