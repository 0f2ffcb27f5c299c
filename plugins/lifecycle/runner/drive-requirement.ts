import { isSluiceError, SluiceError, type DelegateResult } from '../../../core/index.ts';
import type { AuthorizeOptions } from '../commit/authorize-commit.ts';
import { runCommitStage } from '../commit/commit-stage.ts';
import { previewCommit } from '../commit/create-commit.ts';
import type { EvidenceStage } from '../evidence/read-stage-evidence.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { readCommitRequest } from '../readers/commit-request-reader.ts';
import { readWorkflowState, recordBlocked, recordStage } from '../record-stage.ts';
import type { WorkflowState } from '../state/workflow-state-schema.ts';
import type { Stage } from '../transition-table.ts';
import { isSluiceRuntimePath } from '../workspace/git-status.ts';
import type { WorkspaceSnapshot } from '../workspace/workspace-fingerprint.ts';
import { withFollower } from './follow-signal.ts';
import { describeSituation } from './stage-situation.ts';
import { writeStageOutput } from './stage-output.ts';
import { loadStagePrompt, renderStagePrompt, type StagePrompt } from './stage-prompts.ts';

export const RUNNER_ORCHESTRATOR = 'sluice-lifecycle-run';

export interface RunContext {
  lc: LifecycleContext;
  backend: string;
  /** `request.extra` of every delegate run (the script backend's file). */
  extra?: Record<string, unknown>;
  model?: string;
  timeoutMs?: number;
  authorize: AuthorizeOptions;
  signal: AbortSignal;
  /** Delegate attempts per stage before the stage is recorded as blocked. */
  maxAttempts: number;
  /** More than one requirement is driven at once (they share the workspace). */
  parallel?: boolean;
  onStage(slug: string, stage: Stage | null): void;
  /** Awaited after each stage's transition is written (a remote job pushes its checkpoint here). */
  afterTransition?(slug: string, state: WorkflowState): Promise<void>;
}

export type Outcome = 'committed' | 'blocked' | 'awaiting-authorization' | 'busy' | 'failed' | 'interrupted';

export interface StageRun {
  stage: Stage;
  attempt: number;
  delegate: DelegateResult['status'];
  transcript: string;
  /** The OS sandbox the stage's CLI ran in, or why none. */
  sandbox?: DelegateResult['sandbox'];
  result?: WorkflowState['status'];
}

/** Codes that mean the whole run is misconfigured, not this requirement: they stop every requirement. */
export const FATAL_CODES = new Set(['DELEGATE_UNKNOWN', 'DELEGATE_UNAVAILABLE', 'SCRIPT_INVALID', 'CONFIG_INVALID', 'CONFIG_MALFORMED']);

/** Evidence problems a stage gets one more attempt for, with the error in its prompt. */
const RETRIED_CODES = new Set(['ARTIFACT_MISSING', 'ARTIFACT_INVALID', 'EVIDENCE_STALE']);

class Interrupted extends Error {}

/**
 * Drives one requirement from its next stage to COMMITTED (or until it blocks): one delegate run per
 * stage, then the stage's evidence is recorded, so a run killed at any point resumes at the first
 * stage without a recorded result and never repeats a finished one. The caller holds the
 * requirement's run lock: this is its only writer.
 */
export async function driveRequirement(rc: RunContext, slug: string, runs: StageRun[]): Promise<{ outcome: Outcome; state: WorkflowState }> {
  let state = await readWorkflowState(rc.lc, slug);
  try {
    // Bounded by the lifecycle's own limits; the guard only protects against a bug looping forever.
    for (let guard = 0; guard < 200; guard++) {
      if (rc.signal.aborted) throw new Interrupted();
      if (state.status === 'COMMITTED') return { outcome: 'committed', state };
      if (state.status === 'WORKFLOW_BLOCKED' || state.next_stage === null) return { outcome: 'blocked', state };
      rc.onStage(slug, state.next_stage);
      state = state.next_stage === 'commit' ? await commitStage(rc, slug, state, runs) : await evidenceStage(rc, slug, state, state.next_stage, runs);
      await rc.afterTransition?.(slug, state);
    }
    throw new SluiceError('INTERNAL', { message: `${slug}: more than 200 transitions in one run` });
  } catch (error) {
    // A stage cancelled before its delegate started (still queued) is interrupted too, not a failure.
    if (error instanceof Interrupted || (rc.signal.aborted && isSluiceError(error, 'QUEUE_CANCELLED')))
      return { outcome: 'interrupted', state: await readWorkflowState(rc.lc, slug) };
    if (isSluiceError(error, 'COMMIT_NOT_AUTHORIZED') || isSluiceError(error, 'SECRET_PATH_REFUSED'))
      return { outcome: 'awaiting-authorization', state: await readWorkflowState(rc.lc, slug) };
    // Left for a person: a trailer commit sluice did not make.
    if (isSluiceError(error, 'COMMIT_UNRECOGNIZED')) return { outcome: 'blocked', state: await readWorkflowState(rc.lc, slug) };
    throw error;
  } finally {
    rc.onStage(slug, null);
  }
}

/**
 * Every attempt of a stage ended without an answer (the CLI cannot start, is not logged in, is
 * offline): that is the machine's problem, not the requirement's, so nothing is recorded (no
 * WORKFLOW_BLOCKED that would then need an unblock) and the run says how to go on.
 */
function backendDown(rc: RunContext, slug: string, stage: string, problem: string): SluiceError {
  return new SluiceError('DELEGATE_FAILED', {
    message: `${slug} ${stage}: the ${rc.backend} backend gave no answer in ${rc.maxAttempts} attempt${rc.maxAttempts === 1 ? '' : 's'} (${problem}); nothing was recorded. Fix the backend, then run \`sluice lifecycle run ${slug} --to ${rc.backend}\` again`,
  });
}

async function evidenceStage(rc: RunContext, slug: string, state: WorkflowState, stage: EvidenceStage, runs: StageRun[]): Promise<WorkflowState> {
  const prompt = await loadStagePrompt(rc.lc.host, stage);
  let problem = '';
  let answered = false;
  for (let attempt = 1; attempt <= rc.maxAttempts; attempt++) {
    const result = await runStageDelegate(rc, slug, state, prompt, problem, attempt, runs);
    if (result.status !== 'ok') {
      problem = `the ${rc.backend} run ended with ${result.status}${result.error ? `: ${result.error}` : ''}`;
      continue;
    }
    answered = true;
    try {
      await writeStageOutput(rc.lc.host, rc.lc.root, state.artifact_dir, prompt, result);
      const next = (await recordStage(rc.lc, slug, stage, RUNNER_ORCHESTRATOR)).state;
      runs[runs.length - 1].result = next.status;
      return next;
    } catch (error) {
      if (!isSluiceError(error) || !RETRIED_CODES.has(error.code)) throw error;
      problem = error.message;
    }
  }
  if (!answered) throw backendDown(rc, slug, stage, problem);
  return (await recordBlocked(rc.lc, slug, stage, `no valid evidence after ${rc.maxAttempts} attempts: ${problem}`, RUNNER_ORCHESTRATOR)).state;
}

/**
 * The commit stage: the delegate proposes message and paths (commit-request.json), sluice checks them,
 * then previews, authorizes and commits. A request already accepted (COMMIT_PENDING) is not asked again.
 */
async function commitStage(rc: RunContext, slug: string, state: WorkflowState, runs: StageRun[]): Promise<WorkflowState> {
  const interactive = rc.authorize.io?.interactive === true;
  // The workspace after the delegate wrote its request: the commit stage starts from it, unless it may first wait
  // its turn (to ask a person, or behind another requirement's commit in this workspace).
  let seen: WorkspaceSnapshot | null | undefined;
  if (state.status !== 'COMMIT_PENDING') {
    const prompt = await loadStagePrompt(rc.lc.host, 'commit');
    let problem = '';
    let ok = false;
    let answered = false;
    for (let attempt = 1; attempt <= rc.maxAttempts && !ok; attempt++) {
      const result = await runStageDelegate(rc, slug, state, prompt, problem, attempt, runs);
      if (result.status !== 'ok') {
        problem = `the ${rc.backend} run ended with ${result.status}${result.error ? `: ${result.error}` : ''}`;
        continue;
      }
      answered = true;
      try {
        await writeStageOutput(rc.lc.host, rc.lc.root, state.artifact_dir, prompt, result);
        const request = await readCommitRequest(rc.lc.host, rc.lc.root, state.artifact_dir);
        const workspace = await rc.lc.workspace();
        await previewCommit(rc.lc, slug, request, workspace);
        if (!interactive && !rc.parallel) seen = workspace;
        ok = true;
      } catch (error) {
        if (!isSluiceError(error) || (error.code !== 'ARTIFACT_MISSING' && error.code !== 'ARTIFACT_INVALID')) throw error;
        problem = error.message;
      }
    }
    if (!answered) throw backendDown(rc, slug, 'commit', problem);
    if (!ok)
      return (await recordBlocked(rc.lc, slug, 'commit', `no valid commit request after ${rc.maxAttempts} attempts: ${problem}`, RUNNER_ORCHESTRATOR)).state;
  }
  // Interactive confirmations are asked one at a time.
  const commit = () => runCommitStage(rc.lc, slug, RUNNER_ORCHESTRATOR, rc.authorize, seen);
  let next: WorkflowState;
  try {
    next = (interactive ? await rc.lc.kernel.queue.exclusive('lifecycle:commit-confirmation', commit) : await commit()).state;
  } catch (error) {
    // Stale evidence was routed back (to code review): the loop runs those stages again.
    if (!isSluiceError(error, 'EVIDENCE_STALE')) throw error;
    next = await readWorkflowState(rc.lc, slug);
  }
  const last = runs.findLast((r) => r.stage === 'commit');
  if (last) last.result = next.status;
  return next;
}

async function runStageDelegate(
  rc: RunContext,
  slug: string,
  state: WorkflowState,
  prompt: StagePrompt,
  problem: string,
  attempt: number,
  runs: StageRun[],
): Promise<DelegateResult> {
  const stage = prompt.meta.stage;
  const text = renderStagePrompt(prompt, {
    slug,
    stage,
    skill: prompt.meta.skill,
    artifact_dir: state.artifact_dir,
    situation: describeSituation(state, stage),
    changed_files: stage === 'code-review' || stage === 'commit' ? await changedFiles(rc) : '',
    previous_error: problem ? `\nYour previous attempt did not produce valid evidence: ${problem}\nFix exactly that.` : '',
  });
  const result = await withFollower(rc.signal, (signal) =>
    rc.lc.kernel.runDelegate(
      rc.backend,
      // Parallel requirements write the shared workspace while another's analysis stage runs: that run cannot be judged by it.
      {
        prompt: text,
        mode: prompt.meta.mode,
        cwd: rc.lc.root,
        label: `${slug} ${stage}`,
        ...(rc.parallel ? { workspaceCheck: false } : {}),
        ...(rc.extra ? { extra: rc.extra } : {}),
        ...(rc.model ? { model: rc.model } : {}),
        ...(rc.timeoutMs ? { timeoutMs: rc.timeoutMs } : {}),
      },
      { signal },
    ),
  );
  runs.push({
    stage,
    attempt,
    delegate: result.status,
    transcript: rc.lc.kernel.display(result.transcriptPath),
    ...(result.sandbox === undefined ? {} : { sandbox: result.sandbox }),
  });
  if (result.status === 'cancelled' || rc.signal.aborted) throw new Interrupted();
  return result;
}

/**
 * The prompt's list. One requirement at a time, the snapshot its last transition took is as good (only sluice's
 * records were written since); parallel requirements' delegates may have changed the workspace meanwhile.
 */
async function changedFiles(rc: RunContext): Promise<string> {
  const status = (await (rc.parallel ? rc.lc.workspace() : rc.lc.lastWorkspace()))?.status;
  const lines = (status?.entries ?? []).filter((e) => !isSluiceRuntimePath(e.path)).map((e) => `- ${e.type === '?' ? 'A' : e.xy.replace(/\./g, '')} ${e.path}`);
  return lines.length === 0 ? '(none)' : lines.slice(0, 500).join('\n');
}
