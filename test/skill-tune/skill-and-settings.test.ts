import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSluiceError } from '../../core/index.ts';
import { checkSkillText } from '../../plugins/skill-tune/read-skill.ts';
import { planTune, type Asker } from '../../plugins/skill-tune/tune-settings.ts';

describe('skill validity', () => {
  it('accepts frontmatter with name and description and a body', () => {
    const r = checkSkillText('---\nname: commit-message\ndescription: Writes commit messages.\nallowed-tools: Read\n---\n# Do it\n');
    assert.ok(r.ok);
    assert.equal(r.skill.name, 'commit-message');
    assert.ok(checkSkillText('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n').ok);
  });

  it('names what is wrong', () => {
    const cases: [string, string, RegExp][] = [
      ['# no frontmatter\n', 'frontmatter', /must start with YAML frontmatter/],
      ['---\nname: a\ndescription: b\n', 'frontmatter', /must start/],
      ['---\nname: a\ndescription: b\nname: c\n---\nbody\n', 'line 4', /not valid YAML/],
      ['---\n- a\n- b\n---\nbody\n', 'frontmatter', /mapping/],
      ['---\ndescription: b\n---\nbody\n', 'name', /name is missing/],
      ['---\nname: a\ndescription: "  "\n---\nbody\n', 'description', /must not be empty/],
      ['---\nname: 5\ndescription: b\n---\nbody\n', 'name', /string/],
      ['---\nname: a\ndescription: b\n---\n\n  \n', 'body', /no instructions/],
    ];
    for (const [text, field, message] of cases) {
      const r = checkSkillText(text);
      assert.equal(r.ok, false, text);
      if (!r.ok) {
        assert.equal(r.field, field, text);
        assert.match(r.message, message, text);
      }
    }
  });
});

const notATerminal: Asker = {
  interactive: false,
  choose: () => {
    throw new Error('must not ask');
  },
};

function scriptedAsker(answers: string[]): Asker & { questions: string[] } {
  const questions: string[] = [];
  return {
    interactive: true,
    questions,
    async choose(question, choices) {
      questions.push(question);
      const answer = answers.shift()!;
      return choices.find((c) => c.startsWith(answer))!;
    },
  };
}

const usageError = (pattern: RegExp) => (e: unknown) => isSluiceError(e, 'USAGE') && pattern.test(e.message);

describe('tune settings', () => {
  it('-y takes the standard preset (5/80), single mode and claude/agy/claude, asking nothing', async () => {
    const p = await planTune('a,b', { scenario: 'x', yes: true }, { ...notATerminal, interactive: true });
    assert.deepEqual([p.preset, p.maxIterations, p.threshold, p.mode], ['standard', 5, 80, 'single']);
    assert.deepEqual(p.backends, { executor: 'claude', evaluator: 'agy', improver: 'claude' });
    assert.deepEqual(p.skillArgs, ['a', 'b']);
    assert.deepEqual(p.notes, []);
  });

  it('presets quick 3/70 and thorough 8/90; flags override them', async () => {
    const quick = await planTune('a', { scenario: 'x', preset: 'quick' }, notATerminal);
    assert.deepEqual([quick.maxIterations, quick.threshold, quick.preset], [3, 70, 'quick']);
    const thorough = await planTune('a', { scenario: 'x', preset: 'thorough' }, notATerminal);
    assert.deepEqual([thorough.maxIterations, thorough.threshold], [8, 90]);
    const custom = await planTune('a', { scenario: 'x', preset: 'quick', maxIterations: '4' }, notATerminal);
    assert.deepEqual([custom.maxIterations, custom.threshold, custom.preset], [4, 70, 'custom']);
  });

  it('never asks without a terminal: standard preset and single mode, with a note', async () => {
    const p = await planTune('a,b', { scenario: 'x' }, notATerminal);
    assert.deepEqual([p.preset, p.mode], ['standard', 'single']);
    assert.match(p.notes[0], /not a terminal.*standard/);
  });

  it('asks preset and mode on a terminal without -y', async () => {
    const asker = scriptedAsker(['thorough', 'chain']);
    const p = await planTune('a,b,c', { scenario: 'x' }, asker);
    assert.deepEqual(asker.questions, ['Tune preset:', 'Tune mode:']);
    assert.deepEqual([p.preset, p.maxIterations, p.mode], ['thorough', 8, 'chain']);
    const one = scriptedAsker(['quick']);
    await planTune('a', { scenario: 'x' }, one);
    assert.deepEqual(one.questions, ['Tune preset:'], 'one skill: no mode question');
    const flagged = scriptedAsker([]);
    await planTune('a,b', { scenario: 'x', preset: 'quick', chain: true }, flagged);
    assert.deepEqual(flagged.questions, [], 'flags answer the questions');
  });

  it('refuses an evaluator on the executor backend unless acknowledged', async () => {
    await assert.rejects(
      planTune('a', { scenario: 'x', yes: true, executor: 'codex', evaluator: 'codex' }, notATerminal),
      usageError(/--allow-self-evaluation/),
    );
    const p = await planTune('a', { scenario: 'x', yes: true, evaluator: 'claude', allowSelfEvaluation: true }, notATerminal);
    assert.equal(p.selfEvaluationAcknowledged, true);
  });

  it('rejects bad input with a usage error', async () => {
    await assert.rejects(planTune(undefined, { scenario: 'x', yes: true }, notATerminal), usageError(/name the skill/));
    await assert.rejects(planTune('a,,b', { scenario: 'x', yes: true }, notATerminal), usageError(/empty skill name/));
    await assert.rejects(planTune('a', { yes: true }, notATerminal), usageError(/--scenario/));
    await assert.rejects(planTune('a', { scenario: 'x', yes: true, chain: true }, notATerminal), usageError(/at least two skills/));
    await assert.rejects(planTune('a', { scenario: 'x', preset: 'fast' }, notATerminal), usageError(/--preset/));
    await assert.rejects(planTune('a', { scenario: 'x', yes: true, maxIterations: '0' }, notATerminal), usageError(/--max-iterations/));
    await assert.rejects(planTune('a', { scenario: 'x', yes: true, threshold: '101' }, notATerminal), usageError(/--threshold/));
    await assert.rejects(planTune('a', { scenario: 'x', yes: true, threshold: 'high' }, notATerminal), usageError(/--threshold/));
  });
});
