import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { END, step, tableProblems, walkSteps, type StepTable } from '../../plugins/skill-tune/step-machine.ts';
import { RESUME_AT, TUNE_STEPS, type TuneStepName } from '../../plugins/skill-tune/tune-steps.ts';

// The tune loop is a table of steps walked by one driver; these check the table is whole and that the
// driver goes where the table says, with scripted steps in place of the real ones.

describe('tune steps: the table', () => {
  it('routes every outcome to a declared step or the end, and every step is reached and can end', () => {
    assert.deepEqual(tableProblems(TUNE_STEPS, Object.values(RESUME_AT)), []);
  });

  it('resumes every written state at a declared step', () => {
    for (const [position, name] of Object.entries(RESUME_AT)) assert.ok(name === END || name in TUNE_STEPS, `${position} → ${name}`);
    assert.equal(RESUME_AT.terminated, END);
    assert.equal(RESUME_AT.setup, 'backup');
  });

  it('is the table the README shows', () => {
    const readme = readFileSync(new URL('../../plugins/skill-tune/README.md', import.meta.url), 'utf8');
    const shown: Record<string, Record<string, string>> = {};
    for (const [, name, routes] of readme.matchAll(/^\| (\w+) \| [^|]+ \| ([^|]+) \| [^|]+ \|$/gm)) {
      if (name === 'step') continue;
      shown[name] = {};
      for (const route of routes.trim().split(', ')) {
        const [outcomes, to] = route.split(' → ');
        for (const o of outcomes.split(' / ')) shown[name][o] = to;
      }
    }
    assert.deepEqual(shown, Object.fromEntries(Object.entries(TUNE_STEPS).map(([name, s]) => [name, { ...s.next }])));
  });

  it('says what each step does', () => {
    for (const [name, s] of Object.entries(TUNE_STEPS)) assert.ok(s.does.length > 10, name);
  });
});

/** The real table's routes with scripted outcomes in place of the steps' work. */
function scripted(outcomes: Partial<Record<TuneStepName, string[]>>) {
  const walked: string[] = [];
  const table = Object.fromEntries(
    Object.entries(TUNE_STEPS).map(([name, s]) => [
      name,
      {
        ...s,
        run: async () => {
          const outcome = outcomes[name as TuneStepName]?.shift() ?? Object.keys(s.next)[0];
          walked.push(`${name}:${outcome}`);
          return outcome;
        },
      },
    ]),
  ) as unknown as StepTable<undefined, TuneStepName>;
  return { table, walked };
}

describe('tune steps: the driver follows the table', () => {
  it('a run that improves once, fails an iteration, then stops', async () => {
    const { table, walked } = scripted({
      execute: ['ok', 'failed', 'ok'],
      evaluate: ['scored', 'scored'],
      decide: ['improve', 'retry', 'stop'],
      improve: ['rolled_back'],
    });
    await walkSteps(table, RESUME_AT.setup, undefined);
    assert.deepEqual(walked, [
      'backup:ok',
      'begin:ok',
      'snapshot:ok',
      'execute:ok',
      'evaluate:scored',
      'decide:improve',
      'improve:rolled_back',
      'begin:ok',
      'snapshot:ok',
      'execute:failed',
      'decide:retry',
      'begin:ok',
      'snapshot:ok',
      'execute:ok',
      'evaluate:scored',
      'decide:stop',
    ]);
  });

  it('a resumed run starts where its state stands; a finished one runs nothing', async () => {
    const { table, walked } = scripted({ decide: ['stop'] });
    await walkSteps(table, RESUME_AT.executed, undefined);
    assert.deepEqual(walked, ['evaluate:scored', 'decide:stop']);
    await walkSteps(table, RESUME_AT.terminated, undefined);
    assert.equal(walked.length, 2);
  });

  it('checks before every step and before ending, so an interrupt stops between steps', async () => {
    const { table, walked } = scripted({ decide: ['stop'] });
    const checked: string[] = [];
    await walkSteps(table, 'evaluate', undefined, (name) => checked.push(name));
    assert.deepEqual(checked, ['evaluate', 'decide', END]);
    await assert.rejects(
      walkSteps(table, 'evaluate', undefined, (name) => {
        if (name === 'decide') throw new Error('interrupted');
      }),
      /interrupted/,
    );
    assert.deepEqual(walked, ['evaluate:scored', 'decide:stop', 'evaluate:scored']);
  });
});

describe('step machine', () => {
  const fake = (route: Record<string, string>): StepTable<string[], 'a' | 'b'> => ({
    a: step({ does: 'first', run: async (log: string[]) => (log.push('a'), 'go'), next: { go: 'b' } }),
    b: step({ does: 'second', run: async (log: string[]) => (log.push('b'), 'done'), next: route as Record<'done', 'a' | 'b' | typeof END> }),
  });

  it('walks a fake table and carries its context', async () => {
    const log: string[] = [];
    await walkSteps(fake({ done: END }), 'a', log);
    assert.deepEqual(log, ['a', 'b']);
  });

  it('an outcome the table does not route is an error naming step and outcome', async () => {
    await assert.rejects(walkSteps(fake({ other: END }), 'a', []), /step b ended with "done", which its table does not route/);
  });

  it('reports routes to undeclared steps, unreachable steps, and loops without an end', () => {
    assert.deepEqual(tableProblems(fake({ done: 'c' }), ['a']), [
      'b: outcome "done" leads to undeclared step "c"',
      'a: never reaches end',
      'b: never reaches end',
    ]);
    assert.deepEqual(tableProblems(fake({ done: END }), ['b']), ['a: no entry point reaches it']);
    assert.deepEqual(tableProblems(fake({ done: 'a' }), ['a']), ['a: never reaches end', 'b: never reaches end']);
  });
});
