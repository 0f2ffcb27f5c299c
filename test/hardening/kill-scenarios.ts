import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as v from 'valibot';
import { createKernel, jsonCodec, loadConfig } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { WorkflowStateSchema, type WorkflowState } from '../../plugins/lifecycle/state/workflow-state-schema.ts';
import { safeYamlCodec } from '../../plugins/sdlc/state/safe-yaml-codec.ts';
import { SdlcStateSchema, type SdlcState } from '../../plugins/sdlc/state/state-schema.ts';
import { IterationStateSchema, type IterationState } from '../../plugins/skill-tune/iteration-state-schema.ts';
import { checkSkillText } from '../../plugins/skill-tune/read-skill.ts';
import { startTune } from '../../plugins/skill-tune/tune-setup.ts';
import { evidence, makeRepo, writeFiles } from '../lifecycle/lifecycle-fixture.ts';
import { evaluateScores, executeAny, improveAny, plan, skillText, tuneProject } from '../skill-tune/tune-harness.ts';
import { runSluice } from './cli-bundle.ts';
import { oldOrNewScenario, uncutMs, uncutRuns, type KillScenario } from './kill-trials.ts';
import { scriptBackends } from '../helpers/tune-backends.ts';
import { projectReadyToAdvance } from './projects.ts';
import { withoutTimes } from './state-compare.ts';

/**
 * The commands the crash-consistency tests and the bench SIGKILL, each set up in a fresh project
 * with its invariants: what a killed run may leave, and how a later run must finish.
 */
export interface KillSetup {
  dir: string;
  scenario: KillScenario;
  /** How long an uncut run took. */
  ms: number;
}

/** `sluice next --confirmed` at phase 0: state.yaml is the old file or exactly the advanced one; history never shrinks. */
export async function nextConfirmedScenario(): Promise<KillSetup> {
  const { dir, statePath, oldText, args, restoreRecords } = await projectReadyToAdvance('sluice-crash-sdlc-');
  const { expected, ms } = await uncutRuns(dir, { args, statePath, oldText, parse: parseSdlcState, restore: restoreRecords });
  const scenario = oldOrNewScenario({
    name: 'next --confirmed',
    args,
    statePath,
    oldText,
    restore: restoreRecords,
    parse: parseSdlcState,
    expected,
    keeps(old, now) {
      assert.ok(now.history.length >= old.history.length, `history shrank to ${now.history.length} entries`);
      assert.deepEqual(now.history.slice(0, old.history.length), old.history, 'earlier history entries changed');
    },
  });
  return { dir, scenario, ms };
}

/** `sluice lifecycle record SLUG plan`: the workflow state is the old file or exactly the recorded one; nothing completed is lost. */
export async function lifecycleRecordScenario(): Promise<KillSetup> {
  const dir = await makeRepo();
  const start = await runSluice(dir, ['lifecycle', 'start', 'feat-a', '--goal', 'parse durations']);
  assert.equal(start.code, 0, start.stderr);
  await writeFiles(dir, evidence.plan('feat-a'));
  const statePath = join(dir, '.prizmkit', 'state', 'workflows', 'feat-a.json');
  const oldText = readFileSync(statePath, 'utf8');
  const args = ['lifecycle', 'record', 'feat-a', 'plan', '--json'];
  const { expected, ms } = await uncutRuns(dir, { args, statePath, oldText, parse: parseWorkflowState });
  assert.equal(expected.status, 'PLAN_READY');
  const scenario = oldOrNewScenario({
    name: 'lifecycle record',
    args,
    statePath,
    oldText,
    parse: parseWorkflowState,
    expected,
    keeps(old, now) {
      for (const stage of old.completed_stages) assert.ok(now.completed_stages.includes(stage), `completed stage ${stage} was lost`);
      for (const stage of Object.keys(old.results)) assert.ok(stage in now.results, `the ${stage} result was lost`);
      assert.ok(now.reroutes.length >= old.reroutes.length, 'reroutes shrank');
    },
  });
  return { dir, scenario, ms };
}

const rules = [executeAny, ...evaluateScores([60, 70]), improveAny('w')];
const freshArgs = ['tune', 'w', '--scenario', 'write it', '-y', '--max-iterations', '2', ...scriptBackends, '--json'];

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
  const key = (text: string) => JSON.stringify(withoutTimes(parseIterationState(text)));
  return {
    states: new Set(states.map(key)),
    final: withoutTimes(result.state),
    skills,
    finalSkill: readFileSync(join(dir, '.claude/skills/w/SKILL.md'), 'utf8'),
  };
}

/**
 * A two-iteration tune on the script backend, killed and resumed (`tune --resume`, itself killed)
 * until it finishes: iteration-state.json is always one of the states an uncut run writes, the skill
 * one of the versions it leaves; iterations and scores only grow; a finished run ends as the uncut one.
 */
export async function tuneIterationScenario(): Promise<KillSetup> {
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

  const scenario: KillScenario = {
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
      current ??= readdirSync(runs)
        .map((n) => join(runs, n))
        .find((p) => !done.has(p));
      if (!current) return 'before the run folder';
      const statePath = join(current, 'iteration-state.json');
      if (!existsSync(statePath)) {
        // Killed between creating the folder and claiming it: a new run starts next time.
        finish();
        return 'before the state file';
      }
      const state = parseIterationState(readFileSync(statePath, 'utf8'));
      assert.ok(
        reference.states.has(JSON.stringify(withoutTimes(state))),
        `iteration-state.json is not a state an uncut run writes: ${JSON.stringify(withoutTimes(state)).slice(0, 400)}`,
      );
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
      assert.deepEqual(withoutTimes(parseIterationState(readFileSync(join(runDir, 'iteration-state.json'), 'utf8'))), reference.final);
      assert.equal(readFileSync(skillPath, 'utf8'), reference.finalSkill);
      current ??= runDir;
      finish();
    },
  };
  return { dir, scenario, ms };
}

function parseSdlcState(text: string): SdlcState {
  return v.parse(SdlcStateSchema, safeYamlCodec.parse(text));
}

function parseWorkflowState(text: string): WorkflowState {
  return v.parse(WorkflowStateSchema, jsonCodec.parse(text));
}

function parseIterationState(text: string): IterationState {
  return v.parse(IterationStateSchema, jsonCodec.parse(text));
}
