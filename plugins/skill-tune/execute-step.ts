import { fillPlaceholders, type DelegateResult } from '../../core/index.ts';
import type { ExecutionRecord, IterationState, SkillExecutionRecord } from './iteration-state-schema.ts';
import { filesSection, skillsSection } from './prompt-sections.ts';
import { loadPrompt } from './prompt-templates.ts';
import { copyTree, listTree } from './skill-folders.ts';
import { recordExecutionProgress } from './state-transitions.ts';
import { callRole, failureOf } from './tune-delegate.ts';
import { inRun, updateState, workspacePaths as P, type TuneRun } from './tune-workspace.ts';

/**
 * Phase 2: the executor runs the skill snapshot on the scenario in write mode, with the iteration's
 * artifacts folder as its working directory. Single mode makes one call for all skills; chain mode
 * one call per skill in chain order, each getting the previous skill's artifacts. A failed call is
 * retried once (from a clean folder); in chain mode each finished skill is recorded at once, so a
 * resumed run does not execute it again.
 */
export async function executeIteration(run: TuneRun, state: IterationState, round: number): Promise<ExecutionRecord> {
  const groups = state.execution_mode === 'chain' ? state.chain_order.map((id) => [id]) : [state.chain_order];
  const previous = state.iterations.find((it) => it.round === round)?.execution;
  const done = new Map((previous?.skills ?? []).filter((s) => s.status === 'ok').map((s) => [s.id, s]));
  const records: SkillExecutionRecord[] = [];
  let current = state;
  for (const [index, ids] of groups.entries()) {
    const key = ids.join(',');
    const finished = done.get(key);
    if (finished) {
      records.push(finished);
      continue;
    }
    const chainFrom = state.execution_mode === 'chain' && index > 0 ? groups[index - 1][0] : undefined;
    const record = await executeGroup(run, current, round, ids, chainFrom);
    records.push(record);
    if (record.status !== 'ok') {
      return { status: 'failed', skills: records, error: `${key}: ${record.error ?? 'failed'}` };
    }
    if (state.execution_mode === 'chain' && index < groups.length - 1) {
      current = await updateState(run, (s, now) => recordExecutionProgress(s, round, { status: 'running', skills: records.slice() }, now));
    }
  }
  return { status: 'ok', skills: records };
}

async function executeGroup(run: TuneRun, state: IterationState, round: number, ids: string[], chainFrom: string | undefined): Promise<SkillExecutionRecord> {
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
      skills_section: await skillsSection(host, skills),
      chain_input: chainInput,
      artifacts_dir: artifacts,
      retry_note: attempts > 1 && result ? `\nThe previous attempt failed (${JSON.stringify(failureOf(result))}). Keep to the essentials this time.\n` : '',
    });
    result = await callRole(run, state, 'executor', {
      prompt,
      mode: 'write',
      cwd: artifacts,
      addDirs,
      transcript: P.transcript(round, transcriptName),
      label: `tune ${round} execute ${key}`,
    });
    // A timeout used the run's whole budget already (retries included): trying again doubles the wait for nothing.
    if (result.status === 'ok' || result.status === 'timeout') break;
  }
  const r = result!;
  const outputRel = P.executorOutput(round, chain ? ids[0] : undefined);
  await host.writeAtomic(inRun(run, outputRel), r.text);
  const files = (await listTree(host, artifacts, { special: 'skip' })).length;
  const base = { id: key, attempts: Math.min(attempts, 2), files, transcript: P.transcript(round, transcriptName) };
  return r.status === 'ok' ? { ...base, status: 'ok' } : { ...base, status: 'failed', error: failureOf(r) };
}
