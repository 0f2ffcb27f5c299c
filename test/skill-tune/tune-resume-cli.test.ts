import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli, sluiceEntry } from '../helpers/run-cli.ts';
import { evaluateScores, executeAny, improveAny, read, readState, skillText, tuneProject, type Rule } from './tune-harness.ts';
import { spawnReaped } from '../helpers/reap-children.ts';
import { scriptBackends } from '../helpers/tune-backends.ts';

/** Delegate attempts recorded in a (closed) transcript: the runner writes one header per attempt. */
const countAttempts = async (path: string) => ((await readFile(path, 'utf8').catch(() => '')).match(/^--- sluice delegate /gm) ?? []).length;
/** Calls the `replies:` rule has answered, from the script backend's persisted sequence positions. */
async function slowCalls(project: string): Promise<number> {
  const dir = join(project, '.sluice/script-delegate');
  // Only the state files: a temp file of an atomic write (`.NAME.json.PID.TAG.tmp`) holds a position not yet recorded, and locks hold none.
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json') && !f.startsWith('.'));
  let calls = 0;
  for (const f of files) {
    const state = JSON.parse(await readFile(join(dir, f), 'utf8').catch(() => '{}')) as { positions?: Record<string, number> };
    calls += Object.values(state.positions ?? {}).reduce((a, b) => a + b, 0);
  }
  return calls;
}

describe('sluice tune --resume after SIGKILL', () => {
  it('resumes a run killed mid-iteration without redoing finished steps', async () => {
    const slowSecondExecute: Rule = {
      match: 'role=execute iteration=2 ',
      // The first call hangs (the process is killed during it); the resumed call answers at once.
      // An hour: the kill always lands during it, however slowly a loaded machine got there.
      replies: [
        { delayMs: 3_600_000, text: 'slow' },
        { text: 'fast', files: { 'output.md': 'second try' } },
      ],
    };
    const dir = await tuneProject({ w: skillText('w') }, [slowSecondExecute, executeAny, ...evaluateScores([60, 70, 85]), improveAny('w')]);
    const child = spawnReaped(process.execPath, [sluiceEntry(), 'tune', 'w', '--scenario', 'write it', '-y', ...scriptBackends, '--cwd', dir, '--json'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    let exitCode: number | null | undefined;
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done((exitCode = code))));
    const runs = join(dir, '.sluice/runs');
    let runDir = '';
    // No deadline (the file's time limit catches a hang): the child may need long to start on a loaded machine.
    // The kill lands once the slow call has begun: the script backend has taken its first reply.
    while (!runDir && exitCode === undefined) {
      await sleep(100);
      const name = (await readdir(runs).catch(() => [] as string[]))[0];
      if (name && (await slowCalls(dir)) === 1) runDir = join(runs, name);
    }
    assert.ok(runDir, `the run did not reach its second execution (exit ${exitCode}): ${stderr}`);
    child.kill('SIGKILL');
    assert.equal(await exited, null);

    const killed = await readState(runDir);
    assert.equal(killed.current_iteration, 2);
    assert.equal(killed.iterations[1].phase, 'snapshotted');
    assert.equal(killed.termination, null);
    assert.ok(await read(join(runDir, 'tune.lock')), 'the dead process left its lock behind');

    const resumed = await runCli(['tune', '--resume', runDir.slice(dir.length + 1), '--cwd', dir, '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const out = JSON.parse(resumed.stdout);
    assert.equal(out.reason, 'quality_threshold_met');
    assert.deepEqual(
      out.iterations.map((i: { score: number }) => i.score),
      [60, 70, 85],
    );
    const final = await readState(runDir);
    assert.deepEqual(final.iterations[0], killed.iterations[0], 'iteration 1 is untouched');
    assert.equal(final.iterations[1].started_at, killed.iterations[1].started_at);
    for (const role of ['execute', 'evaluate', 'improve'])
      assert.equal(await countAttempts(join(runDir, `iteration-1/transcripts/${role}.log`)), 1, `iteration 1 ${role} ran once`);
    assert.equal(await slowCalls(dir), 2, 'the killed execution ran again, once');
    assert.equal(await read(join(runDir, 'iteration-2/artifacts/output.md')), 'second try');

    const again = await runCli(['tune', '--resume', runDir, '--cwd', dir, '--json']);
    assert.equal(again.code, 0);
    assert.equal(JSON.parse(again.stdout).alreadyFinished, true);
  });
});
