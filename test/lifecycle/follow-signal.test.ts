import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { followSignal, withFollower } from '../../plugins/lifecycle/runner/follow-signal.ts';

/** A run with many requirements cancels every job at once, and Node never warns about the run's signal. */
describe('followSignal', () => {
  it('fifty jobs follow one run signal through a single listener; cancelling the run cancels each job still running', async () => {
    const run = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const jobs = Array.from({ length: 50 }, () => followSignal(run.signal));
    for (const j of jobs) j.signal.addEventListener('abort', () => {});
    assert.equal(getEventListeners(run.signal, 'abort').length, 1);
    jobs[0].release();
    run.abort('stop');
    assert.equal(jobs[0].signal.aborted, false, 'a finished job is not cancelled');
    assert.ok(jobs.slice(1).every((j) => j.signal.aborted && j.signal.reason === 'stop'));
    await new Promise((ok) => setImmediate(ok));
    process.off('warning', onWarning);
    assert.deepEqual(
      warnings.map((w) => w.name),
      [],
    );
  });

  it('a job started after the run was cancelled starts cancelled; withFollower releases its follower when the job settles', async () => {
    const run = new AbortController();
    let seen: AbortSignal | undefined;
    assert.equal(await withFollower(run.signal, async (s) => ((seen = s), 'done')), 'done');
    run.abort();
    assert.equal(seen?.aborted, false, 'released: the settled job is not cancelled later');
    assert.equal(followSignal(run.signal).signal.aborted, true);
  });
});
