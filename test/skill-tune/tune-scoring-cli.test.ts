import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runSluice, startSluice } from '../hardening/cli-bundle.ts';
import { evalJson, executeAny, improveAny, skillText, tuneProject, type Rule } from './tune-harness.ts';
import { scriptBackends } from '../helpers/tune-backends.ts';

/** Tune scoring as a user meets it: the built CLI, the script backend standing in for the AI CLIs. */
const tune = (dir: string, ...extra: string[]) => runSluice(dir, ['tune', 'w', '--scenario', 'write it', '-y', ...scriptBackends, ...extra]);
const evaluate = (round: number, text: string): Rule => ({ match: `role=evaluate iteration=${round} `, reply: { text } });
const started: { kill(signal: NodeJS.Signals): boolean }[] = [];
after(() => {
  for (const c of started) c.kill('SIGKILL');
});

const maestro = (scores: Record<string, number | null>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    composite_score: 99,
    dimensions: Object.entries(scores).map(([id, score]) => ({ name: id[0].toUpperCase() + id.slice(1), id, score, weight: 0.2, feedback: `${id} feedback` })),
    strengths: ['clear steps'],
    weaknesses: ['SKILL.md:Output misses an example'],
    suggestions: [
      { priority: 'high', target_file: 'SKILL.md', description: 'add an example output', rationale: 'readers copy examples', code_snippet: '## Example' },
    ],
    ...extra,
  });
const all = (n: number | null) => ({ clarity: n, completeness: n, correctness: n, effectiveness: n, efficiency: n });

describe('tune scoring through the built CLI', () => {
  it('stops at the error limit after a score fall (60, 50, 55, then unparseable) and exits non-zero, saying what failed', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [
      executeAny,
      improveAny('w'),
      evaluate(1, evalJson(60)),
      evaluate(2, evalJson(50)),
      evaluate(3, evalJson(55)),
      { match: 'role=evaluate ', reply: { text: 'I cannot grade this, sorry.' } },
    ]);
    const r = await tune(dir, '--max-iterations', '10', '--threshold', '90', '--json');
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.reason, 'error_limit_reached');
    assert.deepEqual(
      out.iterations.map((i: { score: number | null }) => i.score),
      [60, 50, 55, null, null, null],
    );
    assert.equal(out.failures.length, 3);
    assert.match(out.failures[0].note, /evaluation failed: EVALUATION_UNPARSEABLE/);
    const report = await readFile(out.reportPath, 'utf8');
    assert.match(report, /What failed:\n\n- iteration 4: evaluation failed: EVALUATION_UNPARSEABLE/);
    const human = await tune(dir, '--max-iterations', '10', '--threshold', '90');
    assert.match(human.stdout, /failed iteration 6: evaluation failed/);
  });

  it('gives no score for a negative, null, out-of-range or missing dimension, never the stated total', async () => {
    const bad = [
      JSON.stringify({ dimensions: { ...all(70), clarity: -5 }, overall: 80 }),
      JSON.stringify({ dimensions: { ...all(70), correctness: null }, overall_score: 80 }),
      maestro({ ...all(70), effectiveness: 140 }),
      maestro({ clarity: 70, completeness: 70, correctness: 70, effectiveness: 70 }),
      'Clarity: -5\nCompleteness: 80\nCorrectness: 80\nEffectiveness: 80\nEfficiency: 80\nOverall score: 80',
    ];
    for (const text of bad) {
      const dir = await tuneProject({ w: skillText('w') }, [executeAny, improveAny('w'), { match: 'role=evaluate ', reply: { text } }]);
      const r = await tune(dir, '--max-iterations', '1', '--json');
      assert.equal(r.code, 1, text);
      const out = JSON.parse(r.stdout);
      assert.deepEqual(
        out.iterations.map((i: { score: number | null }) => i.score),
        [null],
        text,
      );
      assert.equal(out.finalScore, null, text);
    }
  });

  it('reads maestro\u2019s format, recomputes the composite and hands weaknesses and suggestions to the improver', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [
      executeAny,
      {
        match: 'role=improve iteration=1 [\\s\\S]*SKILL.md:Output misses an example[\\s\\S]*add an example output \\(why: readers copy examples\\)',
        reply: { text: 'improved', files: { 'w/SKILL.md': skillText('w', 'With an example.') } },
      },
      { match: 'role=improve ', reply: { status: 'error', error: 'the improver saw no suggestions' } },
      evaluate(1, maestro({ clarity: 80, completeness: 60, correctness: 90, effectiveness: 70, efficiency: 50 })),
      evaluate(2, maestro(all(95))),
    ]);
    const r = await tune(dir, '--json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(
      out.iterations.map((i: { score: number }) => i.score),
      [72.5, 95],
      'the composite is recomputed, not the stated 99',
    );
    assert.equal(out.iterations[0].improvement, 'applied');
  });

  it('skips the improve step when the evaluation names nothing to act on', async () => {
    const silent = JSON.stringify({ dimensions: all(60), strengths: ['fine'], weaknesses: [], suggestions: [] });
    const dir = await tuneProject({ w: skillText('w') }, [
      executeAny,
      { match: 'role=improve ', reply: { status: 'error', error: 'improver called' } },
      evaluate(1, silent),
      evaluate(2, evalJson(90)),
    ]);
    const r = await tune(dir, '--json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.iterations[0].improvement, 'skipped');
    assert.equal(out.finalScore, 90);
  });

  it('takes the real JSON, not an echoed all-zero template before it', async () => {
    const template = JSON.stringify({
      dimensions: all(0),
      strengths: ['what the skill does well'],
      weaknesses: ['what holds the output back'],
      suggestions: [],
    });
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, evaluate(1, `You asked for:\n${template}\nMy grading:\n${evalJson(85)}`)]);
    const r = await tune(dir, '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).finalScore, 85);
  });

  it('--fail-below makes a finished run fail when its final score is low', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, improveAny('w'), { match: 'role=evaluate ', reply: { text: evalJson(62) } }]);
    const low = await tune(dir, '--max-iterations', '1', '--fail-below', '75');
    assert.equal(low.code, 1, low.stderr);
    assert.match(low.stderr, /final score 62 is below --fail-below 75/);
    const ok = await tune(dir, '--max-iterations', '1', '--fail-below', '60');
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await tune(dir, '--fail-below', 'high');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--fail-below must be a score from 0 to 100/);
  });

  it('refuses a second tune of the same skill while one runs (exit 3), leaving no run folder behind', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [{ match: 'role=execute ', reply: { text: 'slow', delayMs: 120_000 } }]);
    const first = startSluice(dir, ['tune', 'w', '--scenario', 'write it', '-y', ...scriptBackends]);
    started.push(first.child);
    // The first run holds its locks once it announces the first iteration.
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      first.child.stdout!.on('data', (d) => ((seen += d), /iteration 1\//.test(seen) && resolve()));
      first.done.then((r) => reject(new Error(`first run ended early: ${r.stderr}`)), reject);
    });
    const second = await tune(dir);
    assert.equal(second.code, 3, second.stderr);
    assert.match(second.stderr, /skill \.claude\/skills\/w is already being tuned by process \d+/);
    assert.equal((await readdir(join(dir, '.sluice/runs'))).length, 1, 'the refused run made no folder');
    first.child.kill('SIGTERM');
    const ended = await first.done;
    assert.notEqual(ended.code, 0);
  });
});

describe('tune and timeouts', () => {
  it('does not retry a step whose delegate timed out (the run\u2019s budget is spent), executor or evaluator', async () => {
    const executorTimesOut = await tuneProject({ w: skillText('w') }, [
      { match: 'role=execute ', reply: { status: 'timeout', error: 'did not finish within 600 s' } },
    ]);
    const r1 = await tune(executorTimesOut, '--max-iterations', '1', '--json');
    assert.equal(r1.code, 1, r1.stderr);
    const s1 = JSON.parse(await readFile(join(JSON.parse(r1.stdout).runDir, 'iteration-state.json'), 'utf8'));
    assert.equal(s1.iterations[0].execution.skills[0].attempts, 1);
    const evaluatorTimesOut = await tuneProject({ w: skillText('w') }, [
      executeAny,
      { match: 'role=evaluate ', reply: { status: 'timeout', error: 'did not finish within 600 s' } },
    ]);
    const r2 = await tune(evaluatorTimesOut, '--max-iterations', '1', '--json');
    assert.equal(r2.code, 1, r2.stderr);
    const s2 = JSON.parse(await readFile(join(JSON.parse(r2.stdout).runDir, 'iteration-state.json'), 'utf8'));
    assert.equal(s2.iterations[0].evaluation.attempts, 1);
  });
});
