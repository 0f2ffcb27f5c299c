import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { createKernel, jsonCodec, loadConfig } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { IterationStateSchema, type IterationState } from '../../plugins/skill-tune/iteration-state-schema.ts';
import { checkSkillText } from '../../plugins/skill-tune/read-skill.ts';
import { startTune } from '../../plugins/skill-tune/tune-setup.ts';
import { evaluateScores, executeAny, improveAny, plan, skillText, tuneProject } from '../skill-tune/tune-harness.ts';
import { runSluice } from './cli-bundle.ts';
import { assertSurvived, describeKills, killTrials, uncutMs } from './kill-trials.ts';
import { withoutTimes } from './state-compare.ts';

/**
 * A two-iteration tune on the script backend, SIGKILLed at random points and resumed
 * (`tune --resume`, itself killed at random) until it finishes. After every kill,
 * iteration-state.json parses, validates and is exactly one of the states an uncut run writes; the
 * skill is one of the versions an uncut run leaves, never half-written; iterations and scores only
 * grow. Every finished run ends as the uncut run ends.
 */
const rules = [executeAny, ...evaluateScores([60, 70]), improveAny('w')];
const backends = ['--executor', 'script', '--evaluator', 'script', '--improver', 'script', '--allow-self-evaluation'];
const freshArgs = ['tune', 'w', '--scenario', 'write it', '-y', '--max-iterations', '2', ...backends, '--json'];

/** Every state an uncut run writes, and every version of the skill, recorded in process. */
async function referenceRun(): Promise<{ states: Set<string>; final: IterationState; skills: Set<string>; finalSkill: string }> {
  const dir = await tuneProject({ w: skillText('w') }, rules);
  const base = createNodeHost({ cwd: dir });
  const states: string[] = [];
  const skills = new Set([skillText('w')]);
  const host = {
    ...base,
    async writeAtomic(path: string, data: string | Uint8Array) {
      if (path.endsWith('iteration-state.json')) states.push(String(data));
      if (path.endsWith('.claude/skills/w/SKILL.md')) skills.add(String(data));
      return base.writeAtomic(path, data);
    },
  };
  const kernel = await createKernel({ host, projectRoot: dir, config: (await loadConfig(host, dir)).config, plugins: builtinPlugins });
  const result = await startTune(kernel, plan(['w'], { scenario: 'write it', preset: 'custom', maxIterations: 2, threshold: 80 }));
  const key = (text: string) => JSON.stringify(withoutTimes(parseState(text)));
  return { states: new Set(states.map(key)), final: withoutTimes(result.state), skills, finalSkill: readFileSync(join(dir, '.claude/skills/w/SKILL.md'), 'utf8') };
}

describe('crash consistency: a skill-tune iteration', () => {
  it('survives SIGKILL at random points, and --resume finishes the run as an uncut run does', async (t) => {
    const reference = await referenceRun();
    const dir = await tuneProject({ w: skillText('w') }, rules);
    const runs = join(dir, '.sluice', 'runs');
    const skillPath = join(dir, '.claude', 'skills', 'w', 'SKILL.md');
    let current: string | undefined;
    let last: IterationState | undefined;
    const done = new Set<string>();
    const finish = () => {
      if (current) done.add(current);
      current = undefined;
      last = undefined;
    };

    const ms = await uncutMs(async () => {
      writeFileSync(skillPath, skillText('w'));
      const run = await runSluice(dir, freshArgs);
      assert.equal(run.code, 0, run.stderr);
      done.add(JSON.parse(run.stdout).runDir);
      return run;
    });

    const stats = await killTrials(
      dir,
      {
        name: 'tune iteration',
        args: () => (current ? ['tune', '--resume', relative(dir, current), '--json'] : freshArgs),
        lockPath: () => (current ? join(current, 'tune.lock') : undefined),
        async prepare() {
          // A new run starts from the original skill; a resumed one from wherever the kill left it.
          if (!current) writeFileSync(skillPath, skillText('w'));
        },
        async checkKilled() {
          const skill = readFileSync(skillPath, 'utf8');
          assert.ok(reference.skills.has(skill) && checkSkillText(skill).ok, `the skill is not a version an uncut run leaves: ${JSON.stringify(skill)}`);
          current ??= readdirSync(runs).map((n) => join(runs, n)).find((p) => !done.has(p));
          if (!current) return 'before the run folder';
          const statePath = join(current, 'iteration-state.json');
          if (!existsSync(statePath)) {
            // Killed between creating the folder and claiming it: a new run starts next time.
            finish();
            return 'before the state file';
          }
          const state = parseState(readFileSync(statePath, 'utf8'));
          assert.ok(reference.states.has(JSON.stringify(withoutTimes(state))), `iteration-state.json is not a state an uncut run writes: ${JSON.stringify(withoutTimes(state)).slice(0, 400)}`);
          if (last) {
            assert.ok(state.iterations.length >= last.iterations.length, 'iterations were removed');
            assert.deepEqual(state.score_trend.slice(0, last.score_trend.length), last.score_trend, 'score_trend was rewritten');
            assert.ok(!last.termination || state.termination, 'a terminated run was reopened');
          }
          last = state;
          const it = state.iterations.at(-1);
          // Killed after terminating but before its report: the resume writes the report.
          const reported = existsSync(join(current, 'final-report.md'));
          if (state.termination && reported) finish();
          return state.termination ? `terminated${reported ? '' : ', no report yet'}` : it ? `iteration ${it.round} ${it.phase}` : state.status;
        },
        async checkCompleted(run) {
          assert.equal(run.code, 0, `a run after a kill did not finish: ${run.stderr}`);
          const { runDir } = JSON.parse(run.stdout) as { runDir: string };
          assert.deepEqual(withoutTimes(parseState(readFileSync(join(runDir, 'iteration-state.json'), 'utf8'))), reference.final);
          assert.equal(readFileSync(skillPath, 'utf8'), reference.finalSkill);
          current ??= runDir;
          finish();
        },
      },
      { trials: 70, seed: 3, uncutMs: ms },
    );
    t.diagnostic(describeKills(stats));
    assertSurvived(stats);
    assert.ok(Object.keys(stats.found).length >= 4, `kills landed in several steps: ${JSON.stringify(stats.found)}`);
  });
});

function parseState(text: string): IterationState {
  return v.parse(IterationStateSchema, jsonCodec.parse(text));
}
