import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/run-cli.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';
import { evaluateScores, executeAny, improveAny, read, skillText, tuneProject } from './tune-harness.ts';
import { scriptBackends } from '../helpers/tune-backends.ts';

describe('sluice tune on the command line', () => {
  it('restores the original skills, or the version an iteration ran', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, ...evaluateScores([60, 70, 85]), improveAny('w')]);
    const run = await runCli(['tune', '.claude/skills/w', '--scenario', 'write it', '--preset', 'standard', ...scriptBackends, '--cwd', dir, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const { runDir, reportPath } = JSON.parse(run.stdout);
    const skillPath = join(dir, '.claude/skills/w/SKILL.md');
    assert.equal(await read(skillPath), skillText('w', 'Improved in iteration 2.'));
    // The command printed in the report is the one that works.
    const command = /```sh\n(sluice tune --restore .*)\n```/
      .exec(await read(reportPath))![1]
      .split(' ')
      .slice(1);
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
    const short = await runCli([
      'tune',
      'w',
      '--scenario',
      'write it',
      '--max-iterations',
      '2',
      '--threshold',
      '70',
      ...scriptBackends,
      '--cwd',
      dir,
      '--json',
    ]);
    assert.equal(short.code, 1);
    assert.equal(JSON.parse(short.stdout).reason, 'max_iterations_reached');
  });

  it('runs on the default claude / agy / claude backends, and an evaluator that gives no score ends the run without one', async () => {
    const dir = await tuneProject({ w: skillText('w') }, []);
    // Outside the project: the executor's fake writes it, and a write in the project outside its folder is rolled back.
    const record = `${dir}-calls`;
    const fakes = resolve(import.meta.dirname, '../fixtures/bin');
    await writeFile(
      join(dir, 'sluice.config.yaml'),
      `delegates:\n  claude: { env: { FAKE_CLI_RECORD: ${JSON.stringify(record)} } }\n  agy: { env: { FAKE_CLI_RECORD: ${JSON.stringify(record)} } }\n`,
    );
    const r = await runCli(['tune', 'w', '--scenario', 'write it', '--preset', 'standard', '--cwd', dir, '--json'], {
      env: { PATH: `${fakes}:${process.env.PATH}`, ...(await trustedEnv(dir)) },
    });
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.reason, 'error_limit_reached');
    assert.deepEqual(
      out.iterations.map((i: { score: unknown }) => i.score),
      [null, null, null],
    );
    const calls = await Promise.all(
      (await readdir(record)).filter((f) => f.endsWith('.json')).map(async (f) => JSON.parse(await readFile(join(record, f), 'utf8'))),
    );
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
});
