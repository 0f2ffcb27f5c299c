import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startSluice } from '../hardening/cli-bundle.ts';
import { processRuns, startedPids, waitGone } from './fake-cli-harness.ts';
import { daemonPids, env, project, reapAfterTests, remember, sluice } from './real-cli-shapes.ts';

/** Signals to sluice, daemons holding stdout, and one budget across retries (see real-cli-shapes.ts). */
reapAfterTests();

describe('signals to sluice', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} kills the AI CLI's whole process group, then sluice exits ${code}`, async () => {
      const { root, record } = await project();
      const run = startSluice(root, ['delegate', '--to', 'claude', '--mode', 'write', '[[fake:ignore-term]]'], env(root));
      const pids = await startedPids(record, 'claude', 1200);
      assert.ok(pids, 'the fake CLI started');
      remember(pids.child, pids.grandchild);
      run.child.kill(signal);
      const r = await run.done;
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, /cancelled/);
      assert.deepEqual(await waitGone([pids.child, pids.grandchild], 10_000), [], 'nothing of the CLI group survives');
    });
  }
});

describe('timeouts and budgets', () => {
  it('--timeout holds when the CLI leaves a daemon holding stdout', async () => {
    const { root, record } = await project();
    const r = await sluice(root, ['delegate', '--to', 'claude', '--timeout', '2', '--json', '[[fake:daemon]]']);
    const daemons = await daemonPids(record);
    assert.equal(r.hung, false, 'sluice waited for the daemon to close stdout');
    assert.equal(r.code, 1, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, 'timeout');
    assert.ok(daemons.some(processRuns), 'the daemon really outlived the run (the shape under test)');
  });

  it('an answer is not held back by a daemon that keeps stdout open after the CLI exits', async () => {
    const { root, record } = await project();
    const r = await sluice(root, ['delegate', '--to', 'claude', '--timeout', '300', '[[fake:daemon-exit]]']);
    await daemonPids(record);
    assert.equal(r.hung, false);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /fake claude answer/);
  });

  it('an offline CLI failing slowly is bounded by ONE budget across retries, with heartbeat lines meanwhile', async () => {
    const { root } = await project({ heartbeat: 0.2 });
    // Each attempt fails (retryably) after ~2.5 s: after two, less than a retry needs (backoff + 1 s) is
    // left of 6 s however fast the CLI starts (at 2 s a third attempt fit when it started in < 125 ms).
    const r = await sluice(root, ['delegate', '--to', 'claude', '--timeout', '6', '--json', '[[fake:offline=2500]]']);
    assert.equal(r.hung, false);
    const out = JSON.parse(r.stdout);
    assert.ok(out.tries <= 2, `tries ${out.tries}`);
    assert.ok(out.status === 'timeout' || /budget of 6 s is used up/.test(out.error?.message), out.error?.message);
    assert.match(
      r.stderr,
      /delegate claude: claude still running after \d+ s \(attempt 1\/3[^)]*\); last event: system (?:init|api_retry attempt \d+\/10 \(unknown\))/,
    );
  });
});
