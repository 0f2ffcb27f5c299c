import { isSluiceError } from '../../../core/index.ts';
import { readStageEvidence, type EvidenceStage } from '../evidence/read-stage-evidence.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { readCommitRequest } from '../readers/commit-request-reader.ts';
import { foreignHead } from '../commit/commit-history.ts';
import { intentMismatch } from '../commit/commit-intent.ts';
import { exactlyCovers } from '../commit/path-coverage.ts';
import { findRequirementCommits, readGitCommit } from '../readers/git-commit-reader.ts';
import { readPlanTasks } from '../readers/plan-tasks-reader.ts';
import type { ArtifactRef } from '../readers/read-artifact.ts';
import type { Fingerprint, WorkflowState } from '../state/workflow-state-schema.ts';
import type { Stage } from '../transition-table.ts';
import type { Freshness } from './freshness.ts';
import type { StageFinding } from './recovery-plan.ts';

export interface RecoveryStep {
  step: number;
  title: string;
  finding: string;
}

/** One stage as its artifact has it now: valid means it completes the stage. */
export interface StageCheck extends StageFinding {
  why: string;
  format?: string;
  artifacts?: ArtifactRef[];
}

export interface CommitCheck {
  valid: boolean;
  why: string;
  record?: WorkflowState['commit'];
  /** A trailer commit sluice did not make (COMMIT_UNRECOGNIZED): reported, left for a person. */
  unrecognized?: string;
}

export interface Inspection {
  steps: RecoveryStep[];
  /** Every stage in lifecycle order, valid only where the artifact completes it and the old state may be trusted for it. */
  findings: StageCheck[];
  commit: CommitCheck;
  fingerprint: Fingerprint | null;
}

/**
 * What the old state's claims are worth: `journaled` (sluice recorded them; code-sensitive results count
 * while the workspace is as they saw it), `claims` (a state without journal, sluice's or PrizmKit's: each
 * claimed stage counts only when its artifact completes it now; a commit never counts by itself), or
 * `none` (no state: only plan and implement are rebuilt from their artifacts).
 */
export type Trust = { kind: 'journaled'; previous: WorkflowState; freshness: Freshness } | { kind: 'claims'; previous: WorkflowState } | { kind: 'none' };

const NOT_COMPLETING = new Set(['NEEDS_FIXES', 'TEST_FAIL', 'TEST_NEEDS_FIXES', 'TEST_BLOCKED', 'TEST_PASS_PRODUCTION_CHANGED']);

/**
 * The seed's recovery steps 1 to 7: every stage's authoritative artifact read again (spec and plan, task
 * markers and the workspace, the review's final result, the test verdict, the retrospective result), the
 * commit as git has it, and the external checkpoint left alone.
 */
export async function inspectStages(lc: LifecycleContext, slug: string, artifactDir: string, trust: Trust): Promise<Inspection> {
  const steps: RecoveryStep[] = [];
  const say = (step: number, title: string, finding: string) => steps.push({ step, title, finding });
  const previous = trust.kind === 'none' ? null : trust.previous;
  const findings: StageCheck[] = [];
  const plan = await checkStage(lc, artifactDir, 'plan');
  say(1, 'spec.md and plan.md', plan.valid ? `present in ${artifactDir}` : plan.why);
  const claimedPlan = trust.kind !== 'claims' || trust.previous.completed_stages.includes('plan');
  findings.push({ ...plan, valid: plan.valid && claimedPlan });
  const impl = await checkStage(lc, artifactDir, 'implement');
  const tasks = await readPlanTasks(lc.host, lc.root, artifactDir).catch(() => undefined);
  const fingerprint = await withoutGit(() => lc.fingerprint(), null);
  const recorded =
    trust.kind === 'journaled' ? `recorded results are ${trust.freshness}` : trust.kind === 'claims' ? claimsNote(trust.previous) : 'no recorded results';
  say(
    2,
    'task markers and workspace',
    `${tasks ? `${tasks.tasks.filter((t) => t.done).length}/${tasks.tasks.length} tasks checked` : 'no readable tasks'}; workspace ${fingerprint ? `at ${fingerprint.head?.slice(0, 12) ?? '(no commit)'}` : 'is not a git work tree'}; ${recorded}`,
  );
  findings.push({ ...impl, valid: impl.valid && (trust.kind !== 'claims' || trust.previous.completed_stages.includes('implement')) });
  const counts = (stage: Stage): { ok: boolean; why?: string } => {
    if (trust.kind === 'none') return { ok: false, why: 'no recorded fingerprint says it describes this code' };
    if (!trust.previous.completed_stages.includes(stage)) return { ok: false, why: trust.kind === 'claims' ? 'the state does not claim it' : 'not completed' };
    if (trust.kind === 'journaled' && trust.freshness !== 'fresh' && trust.freshness !== 'not-applicable')
      return { ok: false, why: 'the workspace changed since it was recorded' };
    return { ok: true };
  };
  const gates: [number, string, EvidenceStage][] = [
    [3, 'review report final result', 'code-review'],
    [4, 'test verdict and repair_scope', 'test'],
    [5, 'retrospective result', 'retrospective'],
  ];
  for (const [n, title, stage] of gates) {
    const f = await checkStage(lc, artifactDir, stage, findings);
    const c = counts(stage);
    findings.push({ ...f, valid: f.valid && c.ok });
    say(n, title, `${f.why}${f.valid && !c.ok ? ` (not trusted: ${c.why})` : ''}`);
  }
  const commit = await withoutGit(() => verifyCommit(lc, slug, artifactDir, trust), { valid: false, why: 'git is not installed: no commit can be verified' });
  findings.push({ stage: 'commit', valid: commit.valid, why: commit.why });
  say(6, 'commit in git', commit.why);
  say(7, 'external host checkpoint', 'not read: workflow state never merges or replaces a host checkpoint; the host validates its own');
  return { steps, findings, commit, fingerprint };
}

/** Where git cannot run at all (not installed), there is no fingerprint and no commit: said so, not an error. */
async function withoutGit<T>(fn: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isSluiceError(error, 'GIT_FAILED') && /^cannot run git/.test(error.detail)) return fallback;
    throw error;
  }
}

function claimsNote(previous: WorkflowState): string {
  const from = (previous as { migrated_from?: { format: string } }).migrated_from?.format ?? 'a sluice state without its journal';
  return `the state (${from}) claims ${previous.completed_stages.join(', ') || 'nothing'}: each claim counts only if its artifact completes it now`;
}

/** A stage's artifact read again; the retrospective is checked against the review and test verdicts just read. */
export async function checkStage(lc: LifecycleContext, artifactDir: string, stage: EvidenceStage, earlier: readonly StageCheck[] = []): Promise<StageCheck> {
  try {
    const verdicts = Object.fromEntries(earlier.filter((f) => f.valid).map((f) => [f.stage, { stage_result: f.stageResult ?? null }]));
    const e = await readStageEvidence(lc.host, lc.root, artifactDir, stage, { results: verdicts } as unknown as WorkflowState);
    const common = { stage, format: e.format, artifacts: e.artifacts, evidence: e.evidence ?? null };
    if (e.kind === 'blocked') return { ...common, valid: false, why: `${e.evidence}: ${e.reason}` };
    return { ...common, valid: !NOT_COMPLETING.has(e.verdict), stageResult: resultOf(e.verdict), why: `${e.evidence}: ${e.verdict}` };
  } catch (error) {
    if (isSluiceError(error, 'GIT_FAILED') && /^cannot run git/.test(error.detail)) return { stage, valid: false, why: `${stage}: git is not installed` };
    if (!isSluiceError(error) || !['ARTIFACT_MISSING', 'ARTIFACT_INVALID'].includes(error.code)) throw error;
    return { stage, valid: false, why: error.message };
  }
}

const resultOf = (verdict: string): StageFinding['stageResult'] =>
  ['PASS', 'TEST_PASS', 'DOCS_UPDATED', 'NO_DOC_CHANGE', 'NEEDS_FIXES', 'TEST_FAIL', 'TEST_NEEDS_FIXES', 'TEST_BLOCKED'].includes(verdict)
    ? (verdict as StageFinding['stageResult'])
    : null;

/**
 * Step 6: the commit counts only as git has it: the recorded sha, or a trailer commit matching the intent
 * sluice journaled before committing. Any other trailer commit (an agent can write the trailer) is
 * COMMIT_UNRECOGNIZED: reported, never counted. A state without journal proves no commit at all: its
 * recorded sha and intent are claims anyone could have written, so only a person adopts such a commit.
 */
async function verifyCommit(lc: LifecycleContext, slug: string, artifactDir: string, trust: Trust): Promise<CommitCheck> {
  const previous = trust.kind === 'journaled' ? trust.previous : null;
  const recorded = previous?.commit?.sha;
  const [found] = recorded ? [recorded] : await findRequirementCommits(lc.host, lc.root, slug);
  const adopt = `a person who knows the commit adopts it: sluice lifecycle adopt-commit ${slug} COMMIT`;
  const claimed = trust.kind === 'claims' && claimsCommit(trust.previous);
  if (!found)
    return {
      valid: false,
      why: claimed ? `the state claims the requirement was committed, but names no commit sluice made; ${adopt}` : 'no commit for this requirement in git',
    };
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
  if (request && previous?.commit?.authorized_by.source !== 'adopted' && !exactlyCovers(request.paths, commit.paths)) {
    return { valid: false, why: `commit ${commit.sha.slice(0, 12)} does not contain exactly the paths of commit-request.json` };
  }
  const record = previous?.commit ?? {
    sha: commit.sha,
    message: commit.message,
    paths: commit.paths,
    authorized_by: { source: 'recovered' as const, mode: 'commit-intent', owner: commit.author },
    at: lc.now(),
  };
  const why = `commit ${commit.sha.slice(0, 12)} is in git with ${commit.paths.length} file(s)`;
  // Still the requirement's commit; a HEAD that replaced it is shown, as `status` shows it.
  const foreign = await foreignHead(lc, commit.sha);
  if (foreign) return { valid: true, record, unrecognized: foreign, why: `${why}; COMMIT_UNRECOGNIZED: HEAD ${foreign.slice(0, 12)} does not contain it` };
  return { valid: true, why, record };
}

/** Whether a state without journal says the requirement was committed (sluice's claim or PrizmKit's). */
export function claimsCommit(state: WorkflowState): boolean {
  const s = state as WorkflowState & { claimed_commit?: unknown; migrated_from?: { original?: Record<string, unknown> } };
  if (s.claimed_commit) return true;
  const o = s.migrated_from?.original;
  if (!o) return false;
  const listed = Array.isArray(o.completed_stages) && o.completed_stages.some((x) => x === 'committer' || x === 'commit');
  return listed || o.status === 'COMMITTED' || o.stage_result === 'COMMITTED';
}
