import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compositeScore, DIMENSION_WEIGHTS } from '../../plugins/skill-tune/evaluation-scoring.ts';
import { extractScoreHeuristically, parseEvaluationJson } from '../../plugins/skill-tune/parse-evaluation.ts';

const dims = { clarity: 80, completeness: 60, correctness: 90, effectiveness: 70, efficiency: 50 };
// 80*.2 + 60*.25 + 90*.25 + 70*.2 + 50*.1 = 16 + 15 + 22.5 + 14 + 5
const expected = 72.5;

describe('composite score', () => {
  it('weights the five dimensions .20/.25/.25/.20/.10', () => {
    assert.ok(Math.abs(Object.values(DIMENSION_WEIGHTS).reduce((a, b) => a + b, 0) - 1) < 1e-9);
    assert.equal(compositeScore({ clarity: 63, completeness: 63, correctness: 63, effectiveness: 63, efficiency: 63 }), 63);
    assert.equal(compositeScore(dims), expected);
    assert.equal(compositeScore({ clarity: 100, completeness: 0, correctness: 0, effectiveness: 0, efficiency: 0 }), 20);
    assert.equal(compositeScore({ clarity: 0, completeness: 0, correctness: 0, effectiveness: 0, efficiency: 100 }), 10);
  });
});

describe('evaluator JSON', () => {
  it('recomputes the composite and ignores the total the evaluator claims', () => {
    const r = parseEvaluationJson(JSON.stringify({ dimensions: dims, overall: 99, score: 99, strengths: ['a'], weaknesses: ['b'], suggestions: [] }));
    assert.ok(r.ok);
    assert.equal(r.evaluation.score, expected);
    assert.equal(r.evaluation.source, 'json');
  });

  it('accepts {"score": n} dimensions, any key case, fenced or embedded in prose', () => {
    const body = JSON.stringify({
      dimensions: { Clarity: { score: 80, notes: 'x' }, COMPLETENESS: 60, correctness: { score: 90 }, Effectiveness: 70, efficiency: 50 },
    });
    for (const text of [body, `Here you go:\n\`\`\`json\n${body}\n\`\`\`\n`, `Result follows ${body} -- end`]) {
      const r = parseEvaluationJson(text);
      assert.ok(r.ok, text);
      assert.equal(r.evaluation.score, expected);
    }
  });

  it('prefers the structured json of the delegate result', () => {
    const r = parseEvaluationJson('not json', { dimensions: dims });
    assert.ok(r.ok);
    assert.equal(r.evaluation.score, expected);
  });

  it('orders suggestions high → medium → low and normalises their shapes', () => {
    const r = parseEvaluationJson(
      JSON.stringify({
        dimensions: dims,
        suggestions: [
          'plain text',
          { priority: 'low', change: 'later' },
          { priority: 'HIGH', description: 'first', file: 'SKILL.md' },
          { priority: 1, text: 'also first' },
          { priority: 'medium' },
        ],
      }),
    );
    assert.ok(r.ok);
    assert.deepEqual(r.evaluation.suggestions, [
      { priority: 'high', text: 'first', target: 'SKILL.md' },
      { priority: 'high', text: 'also first' },
      { priority: 'medium', text: 'plain text' },
      { priority: 'low', text: 'later' },
    ]);
  });

  it('reads per-skill verdicts (chain mode) with their own recomputed composites', () => {
    const r = parseEvaluationJson(
      JSON.stringify({ dimensions: dims, skills: { a: { dimensions: { ...dims, clarity: 30 } }, b: { dimensions: dims, suggestions: ['fix b'] } } }),
    );
    assert.ok(r.ok);
    assert.equal(r.evaluation.skills.a.score, expected - 10);
    assert.equal(r.evaluation.skills.b.score, expected);
    assert.deepEqual(r.evaluation.skills.b.suggestions, [{ priority: 'medium', text: 'fix b' }]);
  });

  it('refuses a missing dimension, an out-of-range score or a string score, naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [{ dimensions: { ...dims, efficiency: undefined } }, /efficiency/],
      [{ dimensions: { ...dims, clarity: 120 } }, /clarity/],
      [{ dimensions: { ...dims, correctness: '90' } }, /correctness/],
      [{ score: 80 }, /dimensions/],
    ];
    for (const [value, field] of cases) {
      const r = parseEvaluationJson(JSON.stringify(value));
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error, field);
    }
    const none = parseEvaluationJson('The skill is fine, I would say about eighty.');
    assert.equal(none.ok, false);
    if (!none.ok) assert.match(none.error, /no JSON object/);
  });
});

describe('maestro\u2019s evaluator format and hostile answers', () => {
  const maestroDims = Object.entries(dims).map(([id, score]) => ({ name: id, id, score, weight: 0.2, feedback: 'f' }));

  it('reads dimensions as an array, recomputes the composite and keeps suggestion details', () => {
    const r = parseEvaluationJson(
      JSON.stringify({
        composite_score: 99,
        dimensions: maestroDims,
        weaknesses: ['w1'],
        suggestions: [{ priority: 'high', target_file: 'SKILL.md', description: 'd', rationale: 'r' }],
        chain_scores: { a: 40 },
      }),
    );
    assert.ok(r.ok);
    assert.equal(r.evaluation.score, expected);
    assert.deepEqual(r.evaluation.suggestions, [{ priority: 'high', text: 'd (why: r)', target: 'SKILL.md' }]);
    assert.equal(r.evaluation.skills.a.score, 40);
  });

  it('gives no score for a negative, null or duplicated dimension, and says the JSON was evaluation-shaped', () => {
    for (const bad of [
      { dimensions: { ...dims, clarity: -5 } },
      { dimensions: { ...dims, clarity: null } },
      { dimensions: [...maestroDims, { id: 'clarity', score: 10 }] },
    ]) {
      const r = parseEvaluationJson(JSON.stringify(bad));
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.shaped, true);
    }
    assert.equal(
      extractScoreHeuristically('"clarity": -5, "completeness": 80, "correctness": 80, "effectiveness": 80, "efficiency": 80, "overall": 80'),
      undefined,
    );
    assert.equal(extractScoreHeuristically('Clarity: null\nOverall score: 80'), undefined);
  });

  it('prefers the real answer over an echoed all-zero template', () => {
    const zero = JSON.stringify({ dimensions: { clarity: 0, completeness: 0, correctness: 0, effectiveness: 0, efficiency: 0 } });
    const r = parseEvaluationJson(`${zero}\n${JSON.stringify({ dimensions: dims })}`);
    assert.ok(r.ok);
    assert.equal(r.evaluation.score, expected);
  });
});

describe('heuristic extraction', () => {
  it('takes all five labelled dimension scores and recomputes the composite', () => {
    const text = `**Clarity**: 80/100\n- Completeness — 60\n| Correctness | 90 |\nEffectiveness (20%): 70\n"efficiency": {"score": 50}`;
    const r = extractScoreHeuristically(text);
    assert.equal(r?.source, 'heuristic-dimensions');
    assert.equal(r?.score, expected);
    assert.deepEqual(r?.dimensions, dims);
  });

  it('never takes a stated total: a missing dimension leaves the answer without a score', () => {
    for (const text of ['Overall score: 74/100', 'The composite score is 74.', 'FINAL SCORE = 74', '**Overall**: 74', '"composite_score": 74']) {
      assert.equal(extractScoreHeuristically(`Some review text.\n${text}\nClarity: 70`), undefined, text);
    }
  });

  it('refuses two JSON evaluations that disagree, naming their scores', () => {
    const r = parseEvaluationJson(`${JSON.stringify({ dimensions: dims })}\n\`\`\`json\n${JSON.stringify({ dimensions: { ...dims, clarity: 100 } })}\n\`\`\``);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.match(r.error, /2 different evaluations \(scores 72.5, 76.5\)/);
      assert.equal(r.shaped, true, 'no heuristic may then pick one');
    }
  });

  it('finds nothing rather than guessing', () => {
    const cases = [
      'The skill is decent. Clarity improved since iteration 2, completeness is fine.',
      'Clarity: 8/10, Completeness: 7/10, Correctness: 9/10, Effectiveness: 8/10, Efficiency: 6/10',
      'Overall score: 70. Later: overall score: 85.',
      'Overall, the output was good and 3 files were written.',
      'Overall score: 740',
      '',
    ];
    for (const text of cases) assert.equal(extractScoreHeuristically(text), undefined, text);
  });

  it('does not take a dimension named twice with different numbers', () => {
    const text = 'Clarity: 70 Completeness: 70 Correctness: 70 Effectiveness: 70 Efficiency: 70 ... on reflection Clarity: 40';
    assert.equal(extractScoreHeuristically(text), undefined);
  });
});
