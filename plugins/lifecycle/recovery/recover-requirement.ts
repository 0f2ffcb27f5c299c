import { dirname, join } from 'pathe';
import { isSluiceError, SluiceError } from '../../../core/index.ts';
import { readStageEvidence } from '../evidence/read-stage-evidence.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { readCommitRequest } from '../readers/commit-request-reader.ts';
import { intentMismatch } from '../commit/commit-intent.ts';
import { exactlyCovers } from '../commit/path-coverage.ts';
import { findRequirementCommits, readGitCommit } from '../readers/git-commit-reader.ts';
import { readPlanTasks } from '../readers/plan-tasks-reader.ts';
import { loadRequirement, writeJournaled } from '../journal/journaled-state.ts';
import { emitTransition } from '../record-stage.ts';
import { ARTIFACT_KINDS, artifactDirFor, checkSlug } from '../slug.ts';
import { newWorkflowState } from '../state/new-workflow-state.ts';
import { workflowStateFile } from '../state/workflow-state-file.ts';
import type { WorkflowState } from '../state/workflow-state-schema.ts';
import { type Stage } from '../transition-table.ts';
import { checkOwnership } from '../apply-event.ts';
import { judgeFreshness, loadRecordedFingerprints } from './freshness.ts';
import { reconstructState, type StageFinding } from './recovery-plan.ts';

export interface RecoveryStep {
  step: number;
  title: string;
  finding: string;
}

export interface RecoveryReport {
  slug: string;
  artifactDir: string;
  steps: RecoveryStep[];
  previous: { status: WorkflowState['status']; completed_stages: Stage[]; next_stage: Stage | null } | null;
  state: WorkflowState;
  removed: Stage[];
  added: Stage[];
  /** A trailer commit sluice did not make (COMMIT_UNRECOGNIZED): reported, left for a person. */
  unrecognizedCommit?: string;
  /** Where an unreadable state file was moved before it was rebuilt. */
  movedAside?: string;
  written: boolean;
}

/**
 * The seed's nine recovery steps. Evidence decides; the old state only contributes counters, ownership
 * and the fingerprints that say whether its review/test/retrospective results still describe the code.
 * Without such a fingerprint those results are not trusted: stale state never skips review, test,
 * retrospective or commit authorization. The commit is trusted only as git has it.
 */
export async function recoverRequirement(lc: LifecycleContext, slug: string, caller: string | null): Promise<RecoveryReport> {
  checkSlug(slug);
  const steps: RecoveryStep[] = [];
  const say = (step: number, title: string, finding: string) => steps.push({ step, title, finding });
  const file = workflowStateFile(lc.root, slug);
  const display = lc.kernel.display(file.path);
  const { previous, movedAside, fromJournal } = await loadPrevious(lc, slug, file.path);
  if (previous) {
    const refused = checkOwnership(previous, caller);
    if (refused && !refused.ok) throw new SluiceError(refused.code, { file: display, message: refused.message });
  }
  const artifactDir = previous?.artifact_dir ?? (await findArtifactDir(lc, slug));
  const findings: StageFinding[] = [];
  const evidence = async (stage: Exclude<Stage, 'commit'>): Promise<StageFinding & { why: string }> => {
    try {
      const e = await readStageEvidence(lc.host, lc.root, artifactDir, stage);
      if (e.kind === 'blocked') return { stage, valid: false, why: `${e.evidence}: ${e.reason}` };
      const ok = !['NEEDS_FIXES', 'TEST_FAIL', 'TEST_NEEDS_FIXES', 'TEST_BLOCKED', 'TEST_PASS_PRODUCTION_CHANGED'].includes(e.verdict);
      return { stage, valid: ok, stageResult: resultOf(e.verdict), evidence: e.evidence ?? null, why: `${e.evidence}: ${e.verdict}` };
    } catch (error) {
      if (!isSluiceError(error) || !['ARTIFACT_MISSING', 'ARTIFACT_INVALID'].includes(error.code)) throw error;
      return { stage, valid: false, why: error.message };
    }
  };

  const plan = await evidence('plan');
  say(1, 'spec.md and plan.md', plan.valid ? `present in ${artifactDir}` : plan.why);
  findings.push(plan);
  const impl = await evidence('implement');
  const tasks = await readPlanTasks(lc.host, lc.root, artifactDir).catch(() => undefined);
  const fingerprint = await lc.fingerprint();
  const freshness = previous ? judgeFreshness(previous, fingerprint, await loadRecordedFingerprints(lc)) : 'unknown';
  say(
    2,
    'task markers and workspace',
    `${tasks ? `${tasks.tasks.filter((t) => t.done).length}/${tasks.tasks.length} tasks checked` : 'no readable tasks'}; workspace ${fingerprint ? `at ${fingerprint.head?.slice(0, 12) ?? '(no commit)'}` : 'is not a git work tree'}; recorded results are ${freshness}`,
  );
  findings.push(impl);
  // A code-sensitive result counts only if the old state completed it and nothing changed since.
  const trusted = (stage: Stage) => previous !== null && previous.completed_stages.includes(stage) && (freshness === 'fresh' || freshness === 'not-applicable');
  const steps345: [number, string, Exclude<Stage, 'commit'>][] = [
    [3, 'review report final result', 'code-review'],
    [4, 'test verdict and repair_scope', 'test'],
    [5, 'retrospective result', 'retrospective'],
  ];
  for (const [n, title, stage] of steps345) {
    const f = await evidence(stage);
    const valid = f.valid && trusted(stage);
    findings.push({ ...f, valid });
    say(
      n,
      title,
      `${f.why}${f.valid && !valid ? ` (not trusted: ${previous ? 'the workspace changed since it was recorded' : 'no recorded fingerprint says it describes this code'})` : ''}`,
    );
  }
  const commit = await verifyCommit(lc, slug, artifactDir, previous);
  findings.push({ stage: 'commit', valid: commit.valid });
  say(6, 'commit in git', commit.why);
  say(7, 'external host checkpoint', 'not read: workflow state never merges or replaces a host checkpoint; the host validates its own');
  if (commit.valid) for (const f of findings) f.valid = true;

  const now = lc.now();
  const base = previous ?? newWorkflowState(artifactDir, caller, now);
  // A blocked requirement stays blocked until its blocker is resolved; a committed one is final.
  const frozen = previous !== null && (previous.status === 'WORKFLOW_BLOCKED' || previous.status === 'COMMITTED');
  let state = frozen
    ? base
    : reconstructState(base, findings, { now, fingerprint, note: `recovered: ${previous ? `state was ${previous.status ?? 'new'}` : 'state was missing'}` });
  if (commit.valid && commit.record && state.status === 'COMMITTED') state = { ...state, commit: commit.record };
  const removed = base.completed_stages.filter((s) => !state.completed_stages.includes(s));
  const added = state.completed_stages.filter((s) => !base.completed_stages.includes(s));
  say(
    8,
    'latest safe predecessor',
    `${frozen ? `kept as ${previous!.status}: ` : ''}${state.status ?? 'nothing completed'}${removed.length ? `; redo ${removed.join(', ')}` : ''}${added.length ? `; confirmed ${added.join(', ')} from artifacts` : ''}`,
  );
  say(
    9,
    'resume',
    state.status === 'WORKFLOW_BLOCKED'
      ? `blocked (${state.blocker?.rule}); resolve and unblock first`
      : state.next_stage
        ? `at ${state.next_stage} (${state.resume_from})`
        : 'nothing left: committed',
  );

  let written = false;
  // A state rebuilt from the journal (its file was deleted or unreadable) is written back even when unchanged.
  if (!previous || state !== previous || fromJournal) {
    const rebuilt = state;
    const row = previous ? 'recovery' : 'recovery:new';
    state = (await writeJournaled(lc, slug, caller, () => ({ state: rebuilt, row }))).after;
    await emitTransition(lc, { slug, from: previous?.status ?? null, state, row, caller, writeMs: 0 });
    written = true;
  }
  return {
    slug,
    artifactDir,
    steps,
    previous: previous && { status: previous.status, completed_stages: previous.completed_stages, next_stage: previous.next_stage },
    state,
    removed: written ? removed : [],
    added: written ? added : [],
    ...(movedAside ? { movedAside } : {}),
    ...(commit.unrecognized ? { unrecognizedCommit: commit.unrecognized } : {}),
    written,
  };
}

const resultOf = (verdict: string): StageFinding['stageResult'] =>
  ['PASS', 'TEST_PASS', 'DOCS_UPDATED', 'NO_DOC_CHANGE', 'NEEDS_FIXES', 'TEST_FAIL', 'TEST_BLOCKED'].includes(verdict)
    ? (verdict as StageFinding['stageResult'])
    : null;

/**
 * The old state: the journal's replay (the state file must agree with it, else STATE_TAMPERED), or a
 * state file without a journal, or null. An unreadable state file is moved aside (never overwritten)
 * and reported; with a journal the state comes from the journal all the same.
 */
async function loadPrevious(
  lc: LifecycleContext,
  slug: string,
  path: string,
): Promise<{ previous: WorkflowState | null; movedAside?: string; fromJournal: boolean }> {
  try {
    const loaded = await loadRequirement(lc, slug);
    return { previous: loaded?.state ?? null, fromJournal: loaded !== null && loaded.provenance !== 'journal' && loaded.provenance !== 'unjournaled' };
  } catch (error) {
    if (!isSluiceError(error) || !['STATE_CORRUPT', 'STATE_INVALID'].includes(error.code)) throw error;
    const aside = `${path}.corrupt-${lc.now().replace(/[:.]/g, '-')}`;
    await lc.host.rename(path, aside);
    const loaded = await loadRequirement(lc, slug);
    return { previous: loaded?.state ?? null, movedAside: lc.kernel.display(aside), fromJournal: loaded !== null };
  }
}

async function findArtifactDir(lc: LifecycleContext, slug: string): Promise<string> {
  const found: string[] = [];
  for (const k of ARTIFACT_KINDS) if ((await lc.host.stat(join(lc.root, artifactDirFor(k, slug))))?.kind === 'dir') found.push(artifactDirFor(k, slug));
  if (found.length === 1) return found[0];
  if (found.length === 0)
    throw new SluiceError('ARTIFACT_MISSING', {
      file: artifactDirFor('specs', slug),
      message: `no artifacts for ${slug} under .prizmkit/specs, bugfix or refactor: nothing to recover`,
    });
  throw new SluiceError('USAGE', { message: `${slug} has artifacts in ${found.join(' and ')}; recovery never picks one for you, start it with --kind` });
}

/**
 * Step 6: the commit counts only as git has it: the recorded sha, or a trailer commit matching the intent
 * sluice journaled before committing. Any other trailer commit (an agent can write the trailer) is
 * COMMIT_UNRECOGNIZED: reported, never counted.
 */
async function verifyCommit(
  lc: LifecycleContext,
  slug: string,
  artifactDir: string,
  previous: WorkflowState | null,
): Promise<{ valid: boolean; why: string; record?: WorkflowState['commit']; unrecognized?: string }> {
  const recorded = previous?.commit?.sha;
  const [found] = recorded ? [recorded] : await findRequirementCommits(lc.host, lc.root, slug);
  if (!found) return { valid: false, why: 'no commit for this requirement in git' };
  const commit = await readGitCommit(lc.host, lc.root, found).catch(() => undefined);
  if (!commit) return { valid: false, why: `recorded commit ${found.slice(0, 12)} is not in git` };
  if (!recorded) {
    const mismatch = intentMismatch(previous?.commit_intent, commit);
    if (mismatch)
      return {
        valid: false,
        unrecognized: commit.sha,
        why: `COMMIT_UNRECOGNIZED: commit ${commit.sha.slice(0, 12)} carries the requirement's trailer, but ${mismatch}; not counted, left for a person`,
      };
  }
  const request = await readCommitRequest(lc.host, lc.root, artifactDir).catch(() => undefined);
  if (request && !exactlyCovers(request.paths, commit.paths)) {
    return { valid: false, why: `commit ${commit.sha.slice(0, 12)} does not contain exactly the paths of commit-request.json` };
  }
  const record = previous?.commit ?? {
    sha: commit.sha,
    message: commit.message,
    paths: commit.paths,
    authorized_by: { source: 'recovered' as const, mode: 'commit-intent', owner: commit.author },
    at: lc.now(),
  };
  return { valid: true, why: `commit ${commit.sha.slice(0, 12)} is in git with ${commit.paths.length} file(s)`, record };
}
