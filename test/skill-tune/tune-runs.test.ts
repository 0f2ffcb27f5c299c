import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { isSluiceError } from '../../core/index.ts';
import { IterationStateSchema } from '../../plugins/skill-tune/iteration-state-schema.ts';
import { resumeTune, startTune } from '../../plugins/skill-tune/tune-setup.ts';
import {
  evalJson,
  evaluateScores,
  executeAny,
  improveAny,
  plan,
  read,
  readState,
  runTune,
  scoresOf,
  skillText,
  tuneKernel,
  tuneProject,
} from './tune-harness.ts';

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );
const skill = (dir: string, id: string) => read(join(dir, '.claude', 'skills', id, 'SKILL.md'));

describe('whole tuning runs on the script backend', () => {
  it('stops when the threshold is met, leaving the full workspace, report and chart', async () => {
    const dir = await tuneProject({ writer: skillText('writer') }, [executeAny, ...evaluateScores([60, 75, 85]), improveAny('writer')]);
    const { result, events, state } = await runTune(dir, ['writer']);
    assert.equal(state.termination?.reason, 'quality_threshold_met');
    assert.deepEqual(scoresOf(state), [60, 75, 85]);
    assert.equal(state.current_iteration, 3);
    assert.deepEqual(
      state.iterations.map((it) => it.improvement?.status ?? null),
      ['applied', 'applied', null],
      'no improvement after the last iteration',
    );
    const w = result.runDir;
    assert.equal(await read(join(w, 'backup/writer/SKILL.md')), skillText('writer'));
    assert.equal(await skill(dir, 'writer'), skillText('writer', 'Improved in iteration 2.'));
    assert.equal(await read(join(w, 'iteration-2/skill-snapshot/writer/SKILL.md')), skillText('writer', 'Improved in iteration 1.'));
    assert.equal(await read(join(w, 'iteration-3/artifacts/output.md')), 'output of iteration 3\n');
    for (const f of ['iteration-1-eval.md', 'iteration-1-changes.md', 'iteration-3-eval.md', 'final-report.md', 'score-chart.svg'])
      assert.ok(await exists(join(w, f)), f);
    assert.equal(await exists(join(w, 'iteration-3-changes.md')), false);
    assert.match(await read(join(w, 'iteration-1-changes.md')), /\+Improved in iteration 1\./);
    // The state on disk is what the run returned, and it validates.
    const onDisk = await readState(w);
    assert.deepEqual(onDisk, JSON.parse(JSON.stringify(state)));
    assert.ok(v.safeParse(IterationStateSchema, onDisk).success);
    const report = await read(result.reportPath);
    assert.match(report, /Threshold reached.*quality_threshold_met/);
    assert.match(report, /!\[Score by iteration\]\(score-chart\.svg\)/);
    assert.match(report, /\| \[2\]\(iteration-2-eval\.md\) \| 75 \| 75 \| 75 \| 75 \| 75 \| 75 \| rising \| \[applied\]\(iteration-2-changes\.md\) \|/);
    assert.match(report, /sluice tune --restore \.sluice\/runs\/skill-tune-\S+ --cwd /);
    const svg = await read(result.chartPath);
    assert.match(svg, /^<svg /);
    assert.equal((svg.match(/<circle /g) ?? []).length, 3);
    assert.deepEqual(
      events.iteration.map((e) => e.iteration),
      [1, 2, 3],
    );
    assert.deepEqual(
      events.scored.map((e) => e.score),
      [60, 75, 85],
    );
    assert.equal(events.terminated.length, 1);
    assert.equal(events.terminated[0].reason, 'quality_threshold_met');
    assert.equal(events.terminated[0].reportPath, result.reportPath);
  });

  it('stops at max iterations when scores keep rising below the threshold', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, ...evaluateScores([50, 55, 60]), improveAny('w')]);
    const { state } = await runTune(dir, ['w'], { preset: 'quick', maxIterations: 3, threshold: 70 });
    assert.equal(state.termination?.reason, 'max_iterations_reached');
    assert.deepEqual(scoresOf(state), [50, 55, 60]);
    assert.match(state.termination!.message, /maximum of 3 iterations.*best 60/);
  });

  it('stops on convergence when three real scores gain at most 2 points', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, ...evaluateScores([60, 61, 62, 90]), improveAny('w')]);
    const { state, result } = await runTune(dir, ['w']);
    assert.equal(state.termination?.reason, 'convergence_detected');
    assert.equal(state.current_iteration, 3);
    assert.match(await read(result.reportPath), /Converged/);
  });

  it('does not stop a falling score as "converged"; it runs on and reports the fall', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, ...evaluateScores([70, 65, 60, 55, 50]), improveAny('w')]);
    const { state, result, lines } = await runTune(dir, ['w']);
    assert.equal(state.termination?.reason, 'max_iterations_reached');
    assert.equal(state.current_iteration, 5);
    assert.equal(state.termination?.falling, true);
    assert.deepEqual(
      state.iterations.map((it) => it.trend),
      ['first', 'falling', 'falling', 'falling', 'falling'],
    );
    assert.deepEqual(state.best, { iteration: 1, score: 70 });
    assert.ok(lines.some((l) => /fell from 70 to 65/.test(l)));
    const report = await read(result.reportPath);
    assert.match(report, /\*\*falling\*\*/);
    assert.match(report, /--restore \S+ --iteration 1 /, 'offers the best version');
  });

  it('stops after three consecutive failed iterations, with no made-up score', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [
      executeAny,
      { match: 'role=evaluate ', reply: { status: 'error', error: 'evaluator crashed', text: '' } },
      improveAny('w'),
    ]);
    const { state, result } = await runTune(dir, ['w']);
    assert.equal(state.termination?.reason, 'error_limit_reached');
    assert.equal(state.current_iteration, 3);
    assert.deepEqual(state.score_trend, []);
    assert.equal(state.latest_score, null);
    for (const it of state.iterations) {
      assert.equal(it.phase, 'failed');
      assert.equal(it.evaluation?.score, null);
      assert.equal(it.evaluation?.attempts, 2, 'one retry');
      assert.match(it.note ?? '', /evaluator crashed/);
    }
    assert.match(await read(join(result.runDir, 'iteration-2-eval.md')), /No score/);
    assert.equal(await skill(dir, 'w'), skillText('w'), 'nothing to improve without a score');
  });

  it('counts only consecutive failures and keeps failures out of the convergence window', async () => {
    const failing = { reply: { status: 'error' as const, error: 'boom' } };
    const dir = await tuneProject({ w: skillText('w') }, [
      executeAny,
      { match: 'role=evaluate iteration=1 ', reply: { text: evalJson(60) } },
      { match: 'role=evaluate iteration=2 ', ...failing },
      { match: 'role=evaluate iteration=3 ', reply: { text: evalJson(61) } },
      { match: 'role=evaluate iteration=[4-6] ', ...failing },
      improveAny('w'),
    ]);
    const { state } = await runTune(dir, ['w'], { maxIterations: 8 });
    assert.equal(state.termination?.reason, 'error_limit_reached');
    assert.equal(state.current_iteration, 6);
    assert.deepEqual(state.score_trend, [60, 61]);
  });

  it('retries an executor failure once, then fails the iteration', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [
      { match: 'role=execute iteration=1 skill=w attempt=1', reply: { status: 'error', error: 'flaky' } },
      { match: 'role=execute iteration=2 ', reply: { status: 'timeout' } },
      executeAny,
      ...evaluateScores([70, 0, 85]),
      improveAny('w'),
    ]);
    const { state } = await runTune(dir, ['w']);
    assert.equal(state.iterations[0].execution?.skills[0].attempts, 2);
    assert.equal(state.iterations[0].evaluation?.score, 70);
    assert.equal(state.iterations[1].phase, 'failed');
    assert.match(state.iterations[1].note ?? '', /execution failed: .*timeout/);
    assert.equal(state.iterations[1].evaluation, null, 'no evaluation of a failed execution');
    assert.deepEqual(state.score_trend, [70, 85]);
  });

  it('reads prose evaluations: retry, heuristic dimensions, else no score (never a labelled total)', async () => {
    const prose = 'The skill did fine overall.';
    const labelled = 'Clarity: 60\nCompleteness: 60\nCorrectness: 60\nEffectiveness: 60\nEfficiency: 60\nGood enough.';
    const dir = await tuneProject({ w: skillText('w') }, [
      executeAny,
      { match: 'role=evaluate iteration=1 skill=w attempt=1', reply: prose },
      { match: 'role=evaluate iteration=1 skill=w attempt=2', reply: labelled },
      { match: 'role=evaluate iteration=2 skill=w attempt=1', reply: prose },
      { match: 'role=evaluate iteration=2 skill=w attempt=2.*could not be used', reply: { text: evalJson(70) } },
      { match: 'role=evaluate iteration=3 ', reply: prose },
      { match: 'role=evaluate iteration=4 ', reply: 'Detailed review...\nOverall score: 85/100' },
      { match: 'role=evaluate iteration=5 ', reply: { text: evalJson(85) } },
      improveAny('w'),
    ]);
    const { state, result } = await runTune(dir, ['w']);
    const [one, two, three, four, five] = state.iterations.map((it) => it.evaluation!);
    assert.deepEqual([one.source, one.score, one.attempts], ['heuristic-dimensions', 60, 2]);
    assert.ok(one.raw_file && (await read(join(result.runDir, one.raw_file))) === labelled);
    assert.deepEqual([two.source, two.score, two.attempts], ['json', 70, 2]);
    assert.deepEqual([three.status, three.score, three.source], ['failed', null, null]);
    assert.match(three.error ?? '', /EVALUATION_UNPARSEABLE/);
    assert.deepEqual([four.status, four.score], ['failed', null], 'a labelled total alone is no score');
    assert.deepEqual([five.source, five.score], ['json', 85]);
    assert.deepEqual(state.score_trend, [60, 70, 85], 'the failed iteration adds no score');
    assert.equal(state.termination?.reason, 'quality_threshold_met');
    assert.match(await read(join(result.runDir, 'iteration-3-eval.md')), /No score/);
    assert.match(await read(result.reportPath), /\| 60\* \|/);
  });

  it('rolls back an improver that breaks the skill or fails, and keeps the rejected copy', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [
      executeAny,
      ...evaluateScores([50, 55, 60]),
      { match: 'role=improve iteration=1 ', reply: { text: 'rewrote it', files: { 'w/SKILL.md': '# lost the frontmatter\n', 'w/extra.md': 'new file' } } },
      { match: 'role=improve iteration=2 ', reply: { status: 'error', error: 'improver crashed', files: { 'w/SKILL.md': 'garbage' } } },
    ]);
    const { state, result } = await runTune(dir, ['w'], { maxIterations: 3, threshold: 70 });
    const [one, two] = state.iterations.map((it) => it.improvement);
    assert.equal(one?.status, 'rolled_back');
    assert.match(one?.reason ?? '', /left w\/SKILL\.md invalid \(frontmatter: .*must start with YAML frontmatter/);
    assert.equal(two?.status, 'rolled_back');
    assert.match(two?.reason ?? '', /improver failed: script error: improver crashed/);
    assert.equal(await skill(dir, 'w'), skillText('w'), 'the skill is as it was');
    assert.equal(await exists(join(dir, '.claude/skills/w/extra.md')), false, 'files the broken improvement added are gone too');
    assert.equal(await read(join(result.runDir, 'iteration-1/improve-work/w/SKILL.md')), '# lost the frontmatter\n');
    assert.match(await read(join(result.runDir, 'iteration-1-changes.md')), /\*\*rolled back\*\*/);
    assert.match(await read(result.reportPath), /rolled back in iterations 1, 2/);
  });

  it('chain mode: runs a → b → c passing artifacts on, scores each, improves the weakest', async () => {
    const chainEval = (iteration: number, total: number, a: number, b: number, c: number) => ({
      match: `role=evaluate iteration=${iteration} skill=a,b,c `,
      reply: { text: evalJson(total, { skills: { a: JSON.parse(evalJson(a)), b: JSON.parse(evalJson(b)), c: JSON.parse(evalJson(c)) } }) },
    });
    const improve = (id: string) => ({
      match: `role=improve iteration=(\\d+) skill=${id} `,
      reply: { files: { [`${id}/SKILL.md`]: skillText(id, 'Improved in iteration $1.') }, text: `improved ${id}` },
    });
    const dir = await tuneProject({ a: skillText('a'), b: skillText('b'), c: skillText('c') }, [
      { match: 'role=execute iteration=(\\d+) skill=a ', reply: { text: 'a done', files: { 'a-out.md': 'A-OUTPUT-ITER-$1' } } },
      // b only answers when its prompt carries a's output of the same iteration; c likewise for b.
      {
        match: 'role=execute iteration=(\\d+) skill=b .*previous skill in the chain \\(a\\).*A-OUTPUT-ITER-\\1',
        reply: { text: 'b done', files: { 'b-out.md': 'B-OUTPUT-ITER-$1' } },
      },
      {
        match: 'role=execute iteration=(\\d+) skill=c .*previous skill in the chain \\(b\\).*B-OUTPUT-ITER-\\1',
        reply: { text: 'c done', files: { 'c-out.md': 'C' } },
      },
      chainEval(1, 60, 70, 50, 60),
      chainEval(2, 70, 70, 72, 55),
      chainEval(3, 82, 80, 80, 85),
      improve('a'),
      improve('b'),
      improve('c'),
    ]);
    const { state, result, events } = await runTune(dir, ['.claude/skills/a', '.claude/skills/b/SKILL.md', 'c'], { mode: 'chain' });
    assert.equal(state.termination?.reason, 'quality_threshold_met');
    assert.deepEqual(state.chain_order, ['a', 'b', 'c']);
    assert.deepEqual(
      state.iterations.map((it) => it.execution?.skills.map((s) => s.id)),
      [
        ['a', 'b', 'c'],
        ['a', 'b', 'c'],
        ['a', 'b', 'c'],
      ],
    );
    assert.deepEqual(state.iterations[0].evaluation?.skill_scores, { a: 70, b: 50, c: 60 });
    assert.deepEqual(
      state.iterations.map((it) => it.improvement?.targets ?? null),
      [['b'], ['c'], null],
    );
    assert.equal(await skill(dir, 'a'), skillText('a'), 'the strongest skill is left alone');
    assert.equal(await skill(dir, 'b'), skillText('b', 'Improved in iteration 1.'));
    assert.equal(await skill(dir, 'c'), skillText('c', 'Improved in iteration 2.'));
    assert.deepEqual(await readdir(join(result.runDir, 'iteration-1/artifacts')), ['a', 'b', 'c']);
    assert.equal(await read(join(result.runDir, 'iteration-2/artifacts/b/b-out.md')), 'B-OUTPUT-ITER-2');
    assert.deepEqual(events.scored[0].skillScores, { a: 70, b: 50, c: 60 });
    assert.match(await read(result.reportPath), /a 70, b 50, c 60/);
  });

  it('an interrupted run stops at its last finished step, releases the run, and resumes', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [
      {
        match: 'role=execute iteration=2 ',
        replies: [
          { delayMs: 60_000, text: 'never' },
          { text: 'done', files: { 'output.md': 'resumed' } },
        ],
      },
      executeAny,
      ...evaluateScores([60, 70, 85]),
      improveAny('w'),
    ]);
    const { kernel } = await tuneKernel(dir);
    const controller = new AbortController();
    // Ctrl-C once the slow call has started (the backend then takes its first, slow reply).
    kernel.hooks.on('delegate:start', 'test', (e) => {
      if (e.label === 'tune 2 execute w') controller.abort();
    });
    await assert.rejects(startTune(kernel, plan(['w']), { signal: controller.signal }), (e) => isSluiceError(e, 'QUEUE_CANCELLED') && /--resume/.test(e.hint));
    const runDir = join(dir, '.sluice/runs', (await readdir(join(dir, '.sluice/runs')))[0]);
    const stopped = await readState(runDir);
    assert.deepEqual([stopped.current_iteration, stopped.iterations[1].phase, stopped.termination], [2, 'snapshotted', null]);
    assert.equal(await exists(join(runDir, 'tune.lock')), false);
    const resumed = await resumeTune(kernel, runDir);
    assert.equal(resumed.state.termination?.reason, 'quality_threshold_met');
    assert.deepEqual(resumed.state.iterations[0], stopped.iterations[0]);
    assert.equal(await read(join(runDir, 'iteration-2/artifacts/output.md')), 'resumed');
  });

  it('refuses invalid input before writing anything', async () => {
    const dir = await tuneProject({ ok: skillText('ok'), broken: '---\nname: broken\n---\nbody\n' }, [executeAny]);
    await assert.rejects(
      runTune(dir, ['broken']),
      /SKILL_INVALID: \.claude\/skills\/broken\/SKILL\.md, field description: frontmatter field description is missing/,
    );
    await assert.rejects(runTune(dir, ['nope']), /SKILL_NOT_FOUND/);
    await assert.rejects(runTune(dir, ['../outside']), /PATH_OUTSIDE_PROJECT/);
    await assert.rejects(runTune(dir, ['ok'], { backends: { executor: 'script', evaluator: 'nosuch', improver: 'script' } }), /DELEGATE_UNKNOWN.*nosuch/);
    await assert.rejects(runTune(dir, ['ok', '.claude/skills/ok/SKILL.md']), /two skills share the folder name "ok"/);
    assert.equal(await exists(join(dir, '.sluice/runs')), false);
  });
});
