import assert from 'node:assert/strict';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSluiceError } from '../../core/index.ts';
import { runTuneJob, tuneJobs } from '../../plugins/skill-tune/tune-job.ts';
import { evaluateScores, executeAny, improveAny, plan, read, skillText, tuneKernel, tuneProject } from './tune-harness.ts';

describe('the tune:skill job', () => {
  it('is one job locally; spread over workers, one job per skill in single mode and one for a chain', () => {
    const p = plan(['a', 'b', 'c']);
    assert.deepEqual(
      tuneJobs('/p', p, { spread: false }).map((j) => j.plan.skillArgs),
      [['a', 'b', 'c']],
    );
    const spread = tuneJobs('/p', p, { spread: true, runDir: 'runs' });
    assert.deepEqual(
      spread.map((j) => j.plan.skillArgs),
      [['a'], ['b'], ['c']],
    );
    assert.ok(spread.every((j) => j.projectRoot === '/p' && j.runDir === 'runs' && j.plan.scenario === p.scenario));
    assert.deepEqual(
      tuneJobs('/p', plan(['a', 'b'], { mode: 'chain' }), { spread: true }).map((j) => j.plan.skillArgs),
      [['a', 'b']],
    );
  });

  it('runs in the job’s project even when the process serving it started elsewhere (a worker)', async () => {
    const project = await tuneProject({ alpha: skillText('alpha') }, [executeAny, ...evaluateScores([60, 85]), improveAny('alpha')]);
    const workerDir = await mkdtemp(join(tmpdir(), 'sluice-tune-worker-'));
    const { kernel } = await tuneKernel(workerDir);
    const [job] = tuneJobs(project, plan(['alpha']), { spread: true, delegateExtra: { script: 'tune.yaml' } });
    const r = await runTuneJob(kernel, job, { signal: new AbortController().signal });
    assert.equal(r.state.termination?.reason, 'quality_threshold_met');
    assert.deepEqual(
      r.state.iterations.map((it) => it.evaluation?.score),
      [60, 85],
    );
    assert.ok(r.runDir.startsWith(join(project, '.sluice', 'runs')), r.runDir);
    assert.match(await read(join(project, '.claude/skills/alpha/SKILL.md')), /Improved in iteration 1/);
    // Nothing of the run lands in the worker's own folder.
    assert.equal(await stat(join(workerDir, '.sluice', 'runs')).catch(() => null), null);
  });

  it('refuses a project this machine does not have, naming the folder (exit 2)', async () => {
    const { kernel } = await tuneKernel(await mkdtemp(join(tmpdir(), 'sluice-tune-worker-')));
    const missing = join(tmpdir(), 'sluice-no-such-project-x9');
    const [job] = tuneJobs(missing, plan(['alpha']), { spread: true });
    await assert.rejects(
      runTuneJob(kernel, job, { signal: new AbortController().signal }),
      (e) => isSluiceError(e, 'TUNE_PROJECT_MISSING') && e.exitCode === 2 && e.message.includes(missing),
    );
  });
});
