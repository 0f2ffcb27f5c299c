import { fillPlaceholders, type DelegateResult } from '../../core/index.ts';
import type { ExecutionRecord, IterationState, OutsideChangeRecord, SkillExecutionRecord } from './iteration-state-schema.ts';
import { describeOutside, watchOutside } from './outside-changes.ts';
import { filesSection, skillsSection } from './prompt-sections.ts';
import { loadPrompt } from './prompt-templates.ts';
import { copyTree, listTree } from './skill-folders.ts';
import { recordExecutionProgress } from './state-transitions.ts';
import { callRole, failureOf } from './tune-delegate.ts';
import { inRun, updateState, workspacePaths as P, type TuneRun } from './tune-workspace.ts';

/**
 * Phase 2: the executor runs the skill snapshot on the scenario in write mode, with the iteration's
 * artifacts folder as its working directory. Single mode makes one call for all skills; chain mode
 * one call per skill in chain order, each getting the output of the last skill that produced one. A
 * failed call is retried once (from a clean folder). In chain mode a skill that still fails is passed
 * over and the chain goes on, as maestro's does (`--strict-chain`: the iteration fails instead); each
 * finished skill is recorded at once, so a resumed run does not execute it again. A call that changed
 * anything outside its folder is rolled back and fails the iteration, whatever the mode.
 */
export async function executeIteration(run: TuneRun, state: IterationState, round: number): Promise<ExecutionRecord> {
  const chain = state.execution_mode === 'chain';
  const groups = chain ? state.chain_order.map((id) => [id]) : [state.chain_order];
  const previous = state.iterations.find((it) => it.round === round)?.execution;
  const done = new Map((previous?.skills ?? []).filter((s) => s.status === 'ok').map((s) => [s.id, s]));
  const records: SkillExecutionRecord[] = [];
  const outside: OutsideChangeRecord[] = [];
  const goOn = chain && (state.chain_on_failure ?? 'stop') === 'continue';
  let lastOutput: string | undefined;
  let current = state;
  for (const [index, ids] of groups.entries()) {
    const key = ids.join(',');
    const finished = done.get(key);
    if (finished) {
      records.push(finished);
      lastOutput = key;
      continue;
    }
    const group = await executeGroup(run, current, round, ids, chain ? lastOutput : undefined);
    records.push(group.record);
    outside.push(...group.outside);
    const failed = group.record.status !== 'ok';
    if (failed && (!goOn || group.outside.length)) {
      return { status: 'failed', skills: records, error: `${key}: ${group.record.error ?? 'failed'}`, ...(outside.length ? { outside_changes: outside } : {}) };
    }
    if (failed) run.say(`iteration ${round}: ${key} failed (${group.record.error ?? 'failed'}); the chain goes on without its output`);
    else lastOutput = key;
    if (chain && index < groups.length - 1) {
      current = await updateState(run, (s, now) => recordExecutionProgress(s, round, { status: 'running', skills: records.slice() }, now));
    }
  }
  const failed = records.filter((r) => r.status !== 'ok');
  if (failed.length === records.length) return { status: 'failed', skills: records, error: `every skill of the chain failed: ${failed[0].error ?? 'failed'}` };
  return {
    status: 'ok',
    skills: records,
    ...(failed.length ? { error: `passed over: ${failed.map((f) => `${f.id} (${f.error ?? 'failed'})`).join('; ')}` } : {}),
  };
}

async function executeGroup(
  run: TuneRun,
  state: IterationState,
  round: number,
  ids: string[],
  chainFrom: string | undefined,
): Promise<{ record: SkillExecutionRecord; outside: OutsideChangeRecord[] }> {
  const { host } = run.kernel;
  const chain = state.execution_mode === 'chain';
  const artifactsRel = chain ? P.artifacts(round, ids[0]) : P.artifacts(round);
  const artifacts = inRun(run, artifactsRel);
  const key = ids.join(',');
  // The executor runs in write mode, so it reads a copy: the snapshot stays the iteration's rollback point.
  const skills = state.skills.filter((s) => ids.includes(s.id)).map((s) => ({ id: s.id, name: s.name, dir: inRun(run, P.executorSkill(round, s.id)) }));
  for (const s of skills) await copyTree(host, inRun(run, P.snapshot(round, s.id)), s.dir);
  const template = await loadPrompt(host, 'execute');
  let chainInput = '';
  const addDirs = skills.map((s) => s.dir);
  if (chainFrom !== undefined) {
    const from = inRun(run, P.artifacts(round, chainFrom));
    const files = await filesSection(host, from);
    chainInput = `\n## Input from the previous skill in the chain (${chainFrom})\n\nThe skill "${chainFrom}" ran before this one; its output is in \`${from}\`. Use it as this skill's input.\n\n${files.text}\n`;
    addDirs.push(from);
  }
  const transcriptName = chain ? `execute-${ids[0]}` : 'execute';
  let result: DelegateResult | undefined;
  let outside: OutsideChangeRecord[] = [];
  let attempts = 0;
  for (attempts = 1; attempts <= 2; attempts++) {
    // A clean folder per attempt: a retried or resumed call never sees a half-written earlier try.
    await host.remove(artifacts, { recursive: true });
    await host.mkdir(artifacts);
    run.say(`iteration ${round}: executing ${key} on ${state.backends.executor}${attempts > 1 ? ' (retry)' : ''}`);
    const prompt = fillPlaceholders(template, {
      iteration: round,
      max_iterations: state.max_iterations,
      skill: key,
      attempt: attempts,
      scenario: state.scenario,
      skills_section: await skillsSection(host, skills, { follow: true }),
      chain_input: chainInput,
      artifacts_dir: artifacts,
      retry_note: attempts > 1 && result ? `\nThe previous attempt failed (${JSON.stringify(failureOf(result))}). Keep to the essentials this time.\n` : '',
    });
    const watch = await watchOutside(run, 'executor', round, [artifacts, ...skills.map((s) => s.dir)]);
    result = await callRole(run, state, 'executor', {
      prompt,
      mode: 'write',
      cwd: artifacts,
      addDirs,
      transcript: P.transcript(round, transcriptName),
      label: `tune ${round} execute ${key}`,
    });
    outside = await watch.settle();
    // A run that wrote outside its folder is not tried again: it was rolled back and the iteration fails.
    if (outside.length) break;
    // A timeout used the run's whole budget already (retries included): trying again doubles the wait for nothing.
    if (result.status === 'ok' || result.status === 'timeout') break;
  }
  const r = result!;
  const outputRel = P.executorOutput(round, chain ? ids[0] : undefined);
  await host.writeAtomic(inRun(run, outputRel), r.text);
  const files = (await listTree(host, artifacts, { special: 'skip' })).length;
  const base = { id: key, attempts: Math.min(attempts, 2), files, transcript: P.transcript(round, transcriptName) };
  if (outside.length) return { record: { ...base, status: 'failed', error: describeOutside('executor', outside) }, outside };
  return { record: r.status === 'ok' ? { ...base, status: 'ok' } : { ...base, status: 'failed', error: failureOf(r) }, outside };
}
