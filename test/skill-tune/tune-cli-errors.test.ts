import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/run-cli.ts';
import { evaluateScores, executeAny, skillText, tuneProject } from './tune-harness.ts';
import { scriptBackends, scriptRoles } from '../helpers/tune-backends.ts';

const read = (path: string) => readFile(path, 'utf8');

describe('sluice tune refuses bad input', () => {
  it('refuses bad command lines and bad run folders with exit 2 and one line', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny]);
    const cases: [string[], RegExp][] = [
      [['tune', 'w', '--scenario', 's', '-y', ...scriptRoles], /USAGE: .*evaluator \(script\) is also the executor.*--allow-self-evaluation/],
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
      assert.equal(
        r.stderr
          .trim()
          .split('\n')
          .filter((l) => !/^\s*hint:/.test(l)).length,
        1,
        r.stderr,
      );
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
