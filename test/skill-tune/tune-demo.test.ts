import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSluiceError } from '../../core/index.ts';
import { runTuneDemo } from '../../plugins/skill-tune/demo.ts';
import { restoreSkills } from '../../plugins/skill-tune/restore-skills.ts';
import { read, readState, tuneKernel } from './tune-harness.ts';

describe('tune demo and restore', () => {
  it('runs the bundled demo on the script backend to the threshold in three iterations', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-tune-demo-'));
    const { kernel, events } = await tuneKernel(dir);
    const r = await runTuneDemo(kernel, dir);
    assert.equal(r.reason, 'quality_threshold_met');
    assert.deepEqual(r.scores, [58.5, 67.4, 76.8]);
    assert.equal(r.iterations, 3);
    assert.match(await read(r.reportPath), /Threshold reached/);
    assert.match(await read(join(dir, '.claude/skills/release-notes/SKILL.md')), /## Breaking changes/);
    const state = await readState(r.runDir);
    assert.deepEqual(state.backends, { executor: 'script', evaluator: 'script', improver: 'script' });
    assert.deepEqual(state.delegate_extra, { script: 'tune-demo-script.yaml' });
    assert.equal(events.terminated.length, 1);

    // Restoring puts the bundled skill back; a live run's lock makes restore wait its turn (exit 3).
    const restored = await restoreSkills(kernel, r.runDir);
    assert.deepEqual(restored.skills[0].changed, ['SKILL.md']);
    assert.doesNotMatch(await read(join(dir, '.claude/skills/release-notes/SKILL.md')), /Breaking/);
    await writeFile(join(r.runDir, 'tune.lock'), JSON.stringify({ pid: process.pid, hostname: hostname(), acquiredAt: new Date().toISOString() }));
    await assert.rejects(restoreSkills(kernel, r.runDir), (e) => isSluiceError(e, 'LOCK_BUSY') && e.exitCode === 3);
  });
});
