import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../helpers/run-cli.ts';
import { evaluateScores, executeAny, improveAny, read, readState, skillText, tuneProject, type Rule } from './tune-harness.ts';

const scriptBackends = ['--executor', 'script', '--evaluator', 'script', '--improver', 'script', '--allow-self-evaluation'];
const entry = resolve(import.meta.dirname, '../../plugins/cli/main.ts');
const countAttempts = async (path: string) => ((await readFile(path, 'utf8').catch(() => '')).match(/^--- sluice delegate /gm) ?? []).length;

describe('sluice tune on the command line', () => {
  it('resumes a run killed mid-iteration without redoing finished steps', async () => {
    const slowSecondExecute: Rule = {
      match: 'role=execute iteration=2 ',
      // The first call hangs (the process is killed during it); the resumed call answers at once.
      replies: [{ delayMs: 60_000, text: 'slow' }, { text: 'fast', files: { 'output.md': 'second try' } }],
    };
    const dir = await tuneProject({ w: skillText('w') }, [slowSecondExecute, executeAny, ...evaluateScores([60, 70, 85]), improveAny('w')]);
    const child = spawn(process.execPath, ['--import=tsx', entry, 'tune', 'w', '--scenario', 'write it', '-y', ...scriptBackends, '--cwd', dir, '--json'], { stdio: 'ignore' });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const runs = join(dir, '.sluice/runs');
    let runDir = '';
    for (let i = 0; i < 600 && !runDir; i++) {
      await sleep(100);
      const name = (await readdir(runs).catch(() => [] as string[]))[0];
      if (name && (await countAttempts(join(runs, name, 'iteration-2/transcripts/execute.log'))) === 1) runDir = join(runs, name);
    }
    assert.ok(runDir, 'the run reached the second execution');
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
    assert.deepEqual(out.iterations.map((i: { score: number }) => i.score), [60, 70, 85]);
    const final = await readState(runDir);
    assert.deepEqual(final.iterations[0], killed.iterations[0], 'iteration 1 is untouched');
    assert.equal(final.iterations[1].started_at, killed.iterations[1].started_at);
    for (const role of ['execute', 'evaluate', 'improve']) assert.equal(await countAttempts(join(runDir, `iteration-1/transcripts/${role}.log`)), 1, `iteration 1 ${role} ran once`);
    assert.equal(await countAttempts(join(runDir, 'iteration-2/transcripts/execute.log')), 2, 'the killed execution ran again');
    assert.equal(await read(join(runDir, 'iteration-2/artifacts/output.md')), 'second try');

    const again = await runCli(['tune', '--resume', runDir, '--cwd', dir, '--json']);
    assert.equal(again.code, 0);
    assert.equal(JSON.parse(again.stdout).alreadyFinished, true);
  });

  it('restores the original skills, or the version an iteration ran', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, ...evaluateScores([60, 70, 85]), improveAny('w')]);
    const run = await runCli(['tune', '.claude/skills/w', '--scenario', 'write it', '--preset', 'standard', ...scriptBackends, '--cwd', dir, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const { runDir, reportPath } = JSON.parse(run.stdout);
    const skillPath = join(dir, '.claude/skills/w/SKILL.md');
    assert.equal(await read(skillPath), skillText('w', 'Improved in iteration 2.'));
    // The command printed in the report is the one that works.
    const command = /```sh\n(sluice tune --restore .*)\n```/.exec(await read(reportPath))![1].split(' ').slice(1);
    const restored = await runCli([...command, '--json']);
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal(await read(skillPath), skillText('w'));
    assert.deepEqual(JSON.parse(restored.stdout).skills, [{ id: 'w', path: '.claude/skills/w', changed: ['SKILL.md'] }]);
    const second = await runCli(['tune', '--restore', runDir, '--iteration', '2', '--cwd', dir]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /Restored 1 skill from iteration 2/);
    assert.equal(await read(skillPath), skillText('w', 'Improved in iteration 1.'));
    const missing = await runCli(['tune', '--restore', runDir, '--iteration', '9', '--cwd', dir]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /iteration 9 has no skill snapshot/);
  });

  it('without a terminal and without -y it asks nothing and takes the standard preset', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, ...evaluateScores([90])]);
    const r = await runCli(['tune', 'w', '--scenario', 'write it', ...scriptBackends, '--cwd', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /not a terminal: using the standard preset/);
    assert.match(r.stderr, /warning: the evaluator runs on the executor's backend/);
    assert.match(r.stdout, /iteration 1: score 90 \(threshold 80\)/);
    assert.match(r.stdout, /report: +\.sluice\/runs\/skill-tune-\S+\/final-report\.md/);
  });

  it('exits 1 when the error limit stops the run, or when no iteration produced a score', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [{ match: 'role=execute ', reply: { status: 'error', error: 'cannot run' } }]);
    const r = await runCli(['tune', 'w', '--scenario', 'write it', '-y', ...scriptBackends, '--cwd', dir, '--json']);
    assert.equal(r.code, 1);
    assert.equal(JSON.parse(r.stdout).reason, 'error_limit_reached');
    const short = await runCli(['tune', 'w', '--scenario', 'write it', '--max-iterations', '2', '--threshold', '70', ...scriptBackends, '--cwd', dir, '--json']);
    assert.equal(short.code, 1);
    assert.equal(JSON.parse(short.stdout).reason, 'max_iterations_reached');
  });

  it('runs on the default claude / agy / claude backends, and an evaluator that gives no score ends the run without one', async () => {
    const dir = await tuneProject({ w: skillText('w') }, []);
    const record = join(dir, 'calls');
    const fakes = resolve(import.meta.dirname, '../fixtures/bin');
    await writeFile(join(dir, 'sluice.config.yaml'), `delegates:\n  claude: { env: { FAKE_CLI_RECORD: ${JSON.stringify(record)} } }\n  agy: { env: { FAKE_CLI_RECORD: ${JSON.stringify(record)} } }\n`);
    const r = await runCli(['tune', 'w', '--scenario', 'write it', '--preset', 'standard', '--cwd', dir, '--json'], { env: { PATH: `${fakes}:${process.env.PATH}` } });
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.reason, 'error_limit_reached');
    assert.deepEqual(out.iterations.map((i: { score: unknown }) => i.score), [null, null, null]);
    const calls = await Promise.all((await readdir(record)).filter((f) => f.endsWith('.json')).map(async (f) => JSON.parse(await readFile(join(record, f), 'utf8'))));
    const claude = calls.filter((c) => c.cli === 'claude');
    const agy = calls.filter((c) => c.cli === 'agy');
    assert.equal(claude.length, 3, 'one execution per iteration, no improvement without a score');
    assert.equal(agy.length, 6, 'each evaluation retried once');
    for (const c of claude) {
      assert.deepEqual(c.argv.slice(c.argv.indexOf('--permission-mode'), c.argv.indexOf('--permission-mode') + 2), ['--permission-mode', 'acceptEdits']);
      assert.match(c.cwd, /iteration-\d\/artifacts$/);
    }
    for (const c of agy) assert.equal(c.argv[c.argv.indexOf('--mode') + 1], 'plan', 'the evaluator cannot edit');
  });

  it('refuses bad command lines and bad run folders with exit 2 and one line', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny]);
    const cases: [string[], RegExp][] = [
      [['tune', 'w', '--scenario', 's', '-y', '--executor', 'script', '--evaluator', 'script', '--improver', 'script'], /USAGE: .*evaluator \(script\) is also the executor.*--allow-self-evaluation/],
      [['tune', 'w', '--scenario', 's', '-y'], /DELEGATE_(UNKNOWN|UNAVAILABLE).*claude/],
      [['tune', 'w', '--scenario', 's', '-y', '--chain', ...scriptBackends], /--chain needs at least two skills/],
      [['tune', '--resume', '.claude', '--scenario', 'x'], /--resume continues with the run.s saved settings; drop --scenario/],
      [['tune', '--resume', '.claude'], /TUNE_RUN_INVALID: \.claude: no iteration-state\.json/],
      [['tune', '--restore', '../elsewhere'], /PATH_OUTSIDE_PROJECT/],
    ];
    for (const [args, pattern] of cases) {
      const r = await runCli([...args, '--cwd', dir]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
      assert.equal(r.stderr.trim().split('\n').filter((l) => !/^\s*hint:/.test(l)).length, 1, r.stderr);
    }
  });

  it('leaves a corrupt iteration-state.json untouched and names it', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, ...evaluateScores([90])]);
    const run = await runCli(['tune', 'w', '--scenario', 's', '-y', ...scriptBackends, '--cwd', dir, '--json']);
    const { runDir } = JSON.parse(run.stdout);
    const statePath = join(runDir, 'iteration-state.json');
    const broken = (await read(statePath)).replace('"current_iteration": 1', '"current_iteration": "one"');
    await writeFile(statePath, broken);
    const r = await runCli(['tune', '--resume', runDir, '--cwd', dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /STATE_INVALID: \.sluice\/runs\/skill-tune-[^/]+\/iteration-state\.json, field current_iteration/);
    assert.equal(await read(statePath), broken);
  });
});
