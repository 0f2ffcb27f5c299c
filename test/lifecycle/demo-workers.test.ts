import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createLocalQueue } from '../../core/index.ts';
import { runLifecycleDemo } from '../../plugins/lifecycle/demo.ts';
import { configureRequirementJobs, runRequirementJob } from '../../plugins/lifecycle/remote/requirement-job.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';
import { gitIn, makeLifecycle, makeRepo } from './lifecycle-fixture.ts';

useTestQueueKey();

describe('lifecycle demo on workers', () => {
  it('ends as the in-process demo does: the same stages, all three COMMITTED, each commit on sluice/<slug> of origin', async () => {
    const local = await makeRepo();
    const inProcess = await runLifecycleDemo((await makeLifecycle(local)).kernel, local);

    const root = await makeRepo();
    const { kernel } = await makeLifecycle(root);
    const keyFile = join(await mkdtemp(join(tmpdir(), 'sluice-key-')), 'commit-grant.key');
    await writeFile(keyFile, 'a-demo-test-signing-key-0123456789\n', { mode: 0o600 });
    configureRequirementJobs(kernel, { workdir: await mkdtemp(join(tmpdir(), 'sluice-workdir-')) });
    // The durable-job queue a worker runs, here in this process: the same handler by name.
    const dispatcher = createLocalQueue({ concurrency: 2 });
    dispatcher.register('lifecycle:requirement', (payload, job) => runRequirementJob(kernel, payload, job));
    const onWorkers = await runLifecycleDemo(kernel, root, { workers: { dispatcher, grantKeyFile: keyFile } });

    const shape = (s: typeof inProcess) => s.requirements.map((r) => ({ slug: r.slug, outcome: r.outcome, status: r.status, stages: r.stages }));
    assert.deepEqual(shape(onWorkers), shape(inProcess));
    assert.ok(onWorkers.requirements.every((r) => r.status === 'COMMITTED'));
    assert.deepEqual(
      onWorkers.commits.map((c) => c.subject),
      inProcess.commits.map((c) => c.subject),
    );
    const remote = `${root}.git`;
    for (const r of onWorkers.requirements) assert.equal(gitIn(remote, 'rev-parse', `refs/heads/sluice/${r.slug}`).trim(), r.commit);
  });
});
