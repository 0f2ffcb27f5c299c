import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runSluice } from '../hardening/cli-bundle.ts';
import { scriptBackends } from '../helpers/tune-backends.ts';
import { evalJson, executeAny, improveAny, skillText, tuneProject, type Rule } from './tune-harness.ts';

/** maestro's skill-iter-tune as its phase files define it: evaluation shapes, run folders, loop rules (built CLI). */
const tune = (dir: string, ...args: string[]) => runSluice(dir, ['tune', ...args, ...scriptBackends]);
const evaluate = (round: number, text: string): Rule => ({ match: `role=evaluate iteration=${round} `, reply: { text } });
const dims = (n: number) =>
  ['Clarity', 'Completeness', 'Correctness', 'Effectiveness', 'Efficiency'].map((name, i) => ({
    name,
    id: name.toLowerCase(),
    score: n,
    weight: [0.2, 0.25, 0.25, 0.2, 0.1][i],
    feedback: `${name} feedback`,
  }));
const suggestion = { priority: 'high', target_file: 'SKILL.md', description: 'add an example', rationale: 'readers copy examples', code_snippet: '## Example' };

describe('maestro runs and maestro\u2019s loop rules', () => {
  it('reads chain_scores given as strings (as maestro\u2019s report prints them) and improves the weakest skill', async () => {
    const answer = JSON.stringify({
      composite_score: 99,
      dimensions: dims(60),
      strengths: ['ordered'],
      weaknesses: ['b drops a field'],
      suggestions: [suggestion],
      chain_scores: { a: '85', b: '40/100' },
    });
    const dir = await tuneProject({ a: skillText('a'), b: skillText('b') }, [
      executeAny,
      evaluate(1, answer),
      evaluate(2, evalJson(90)),
      { ...improveAny('b'), match: 'role=improve iteration=(\\d+) skill=b ' },
    ]);
    const r = await tune(dir, 'a,b', '--chain', '--scenario', 'write it', '-y', '--json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(
      out.iterations.map((i: { score: number }) => i.score),
      [60, 90],
      'the composite comes from the dimensions, not the stated 99',
    );
    const state = JSON.parse(await readFile(join(out.runDir, 'iteration-state.json'), 'utf8'));
    assert.deepEqual(state.iterations[0].evaluation.skill_scores, { a: 85, b: 40 });
    assert.deepEqual(state.iterations[0].improvement.targets, ['b']);
    assert.equal(state.iterations[0].improvement.status, 'applied');
  });

  it('skips the improver when the evaluation made no suggestion, even with weaknesses (as maestro does)', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [
      executeAny,
      { match: 'role=improve ', reply: { status: 'error', error: 'improver called' } },
      evaluate(1, JSON.stringify({ dimensions: dims(60), strengths: ['short'], weaknesses: ['vague'], suggestions: [] })),
      evaluate(2, evalJson(90)),
    ]);
    const r = await tune(dir, 'w', '--scenario', 'write it', '-y', '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).iterations[0].improvement, 'skipped');
  });

  it('continues a chain past a failed skill with the last output there is; --strict-chain ends the iteration instead', async () => {
    const rules: Rule[] = [
      { match: 'role=execute iteration=\\d+ skill=b ', reply: { status: 'error', error: 'b crashed' } },
      { match: 'role=execute iteration=\\d+ skill=c [\\s\\S]*previous skill in the chain \\(a\\)', reply: { text: 'c ran on a', files: { 'c.md': 'c' } } },
      { match: 'role=execute iteration=\\d+ skill=c ', reply: { status: 'error', error: 'c got no input from a' } },
      { match: 'role=execute iteration=\\d+ skill=a ', reply: { text: 'a ran', files: { 'a.md': 'a' } } },
      { match: 'role=evaluate [\\s\\S]*### Skill b \\(it failed', reply: { text: evalJson(85) } },
    ];
    const skills = { a: skillText('a'), b: skillText('b'), c: skillText('c') };
    const dir = await tuneProject(skills, rules);
    const r = await tune(dir, 'a,b,c', '--chain', '--scenario', 'write it', '-y', '--max-iterations', '1', '--json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.finalScore, 85);
    const state = JSON.parse(await readFile(join(out.runDir, 'iteration-state.json'), 'utf8'));
    assert.deepEqual(
      state.iterations[0].execution.skills.map((s: { id: string; status: string }) => [s.id, s.status]),
      [
        ['a', 'ok'],
        ['b', 'failed'],
        ['c', 'ok'],
      ],
    );
    assert.match(await readFile(out.reportPath, 'utf8'), /Passed over in the chain: b/);
    const strict = await tune(
      await tuneProject(skills, rules),
      'a,b,c',
      '--chain',
      '--strict-chain',
      '--scenario',
      'write it',
      '-y',
      '--max-iterations',
      '1',
      '--json',
    );
    assert.equal(strict.code, 1, strict.stderr);
    assert.match(JSON.parse(strict.stdout).failures[0].note, /execution failed: b: script error: b crashed/);
  });

  it('--resume continues a maestro run folder from its iteration-state.json; the report carries what maestro\u2019s does', async () => {
    const dir = await tuneProject({ w: skillText('w', 'Improved by maestro in iteration 1.') }, [
      { match: 'role=execute iteration=3 ', reply: { text: 'ran 3', files: { 'out.md': 'three' } } },
      evaluate(3, evalJson(85, { strengths: ['has an example now'] })),
    ]);
    // The folder maestro's phase files make: 01-setup (state, backups), 02 (snapshots), 03 (evaluations), 04 (improvements).
    const work = join(dir, '.workflow', 'outputs', 'skill-iter-tune-1764650000000');
    const files: Record<string, string> = {
      'backups/w/SKILL.md': skillText('w'),
      'iterations/iteration-1/skill-snapshot/w/SKILL.md': skillText('w'),
      'iterations/iteration-1/iteration-1-eval.md': '# Iteration 1 Evaluation\n\n**Composite Score**: 62/100\n',
      'iterations/iteration-1/iteration-1-changes.md': '# Iteration 1 Changes\n\n## Applied Suggestions\n- [high] add an example: SKILL.md\n',
      'iterations/iteration-2/skill-snapshot/w/SKILL.md': skillText('w', 'Improved by maestro in iteration 1.'),
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(work, path, '..'), { recursive: true });
      await writeFile(join(work, path), text);
    }
    const state = {
      status: 'running',
      started_at: '2026-11-30T10:00:00.000Z',
      updated_at: '2026-11-30T10:20:00.000Z',
      target_skills: [{ name: 'w', path: '.claude/skills/w', files: ['SKILL.md'], primary_file: 'SKILL.md' }],
      test_scenario: { description: 'write it', requirements: ['short'], input_args: '', success_criteria: 'Produces correct, high-quality output' },
      execution_mode: 'single',
      chain_order: [],
      current_iteration: 2,
      max_iterations: 5,
      quality_threshold: 80,
      latest_score: 50,
      score_trend: [62, 50],
      converged: false,
      iterations: [
        {
          round: 1,
          status: 'completed',
          execution: { cli_command: 'maestro delegate ...', artifacts_dir: `${work}/iterations/iteration-1/artifacts`, success: true },
          evaluation: {
            score: 62,
            dimensions: dims(60),
            strengths: ['clear steps'],
            weaknesses: ['SKILL.md:Output has no example'],
            suggestions: [suggestion],
            chain_scores: null,
            eval_file: `${work}/iterations/iteration-1/iteration-1-eval.md`,
          },
          improvement: {
            changes_applied: [{ summary: '[high] add an example', file: '' }],
            changes_file: `${work}/iterations/iteration-1/iteration-1-changes.md`,
            improvement_rationale: 'Applied 1 improvements based on evaluation score 62',
          },
        },
        {
          round: 2,
          status: 'completed',
          execution: { success: true },
          // maestro's fallback when the answer did not parse: a made-up 50 and no dimensions.
          evaluation: {
            score: 50,
            dimensions: [],
            strengths: [],
            weaknesses: ['Evaluation output parsing failed -- raw output saved'],
            suggestions: [],
            chain_scores: null,
          },
          improvement: { changes_applied: [], changes_file: null, improvement_rationale: 'No suggestions provided by evaluation' },
        },
      ],
      errors: [],
      error_count: 0,
      max_errors: 3,
      work_dir: work,
      backup_dir: `${work}/backups`,
    };
    await writeFile(join(work, 'iteration-state.json'), JSON.stringify(state, null, 2));
    const before = await readFile(join(work, 'iteration-state.json'), 'utf8');
    const r = await tune(dir, '--resume', '.workflow/outputs/skill-iter-tune-1764650000000', '--json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.reason, 'quality_threshold_met');
    assert.deepEqual(
      out.iterations.map((i: { iteration: number; score: number | null }) => [i.iteration, i.score]),
      [
        [1, 60],
        [2, null],
        [3, 85],
      ],
      'scores recomputed from the dimensions; maestro\u2019s made-up 50 is no score',
    );
    assert.equal(await readFile(join(work, 'iteration-state.json'), 'utf8'), before, 'the maestro folder is only read');
    const report = await readFile(out.reportPath, 'utf8');
    assert.match(report, /Initial score: 60 · final score: 85/);
    assert.match(report, /completed \d{4}-\d\d-\d\dT/);
    assert.match(report, /\*\*Trend\*\*: 60 → 85/);
    assert.match(
      report,
      /### Iteration 1\n\n- Score: 60\n- Strengths: clear steps\n- Weaknesses: SKILL.md:Output has no example\n- Changes: applied — \[high\] add an example/,
    );
    assert.match(report, /### Iteration 3\n\n- Score: 85\n- Strengths: has an example now/);
    assert.match(report, /## Artifact index[\s\S]*iteration-state\.json[\s\S]*continues the maestro run `\.workflow\/outputs\/skill-iter-tune-1764650000000`/);
    assert.match(await readFile(join(out.runDir, 'iteration-1-changes.md'), 'utf8'), /add an example: SKILL.md/);
    // A second --resume of the maestro folder finds the run it made; --restore goes back to before maestro.
    const again = await tune(dir, '--resume', '.workflow/outputs/skill-iter-tune-1764650000000');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /already finished/);
    const restored = await runSluice(dir, ['tune', '--restore', out.runDir]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal(await readFile(join(dir, '.claude/skills/w/SKILL.md'), 'utf8'), skillText('w'));
  });
});
