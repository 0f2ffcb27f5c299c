import { join } from 'pathe';
import { isSluiceError, SluiceError } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { loadRequirement, writeJournaled } from '../journal/journaled-state.ts';
import { emitTransition } from '../record-stage.ts';
import { ARTIFACT_KINDS, artifactDirFor, checkSlug } from '../slug.ts';
import { newWorkflowState } from '../state/new-workflow-state.ts';
import { workflowStateFile } from '../state/workflow-state-file.ts';
import type { WorkflowState } from '../state/workflow-state-schema.ts';
import { type Stage } from '../transition-table.ts';
import { checkOwnership } from '../apply-event.ts';
import { adoptClaims } from './adopt-claims.ts';
import { judgeFreshness, loadRecordedFingerprints } from './freshness.ts';
import { inspectStages, type RecoveryStep, type Trust } from './inspect-stages.ts';
import { reconstructState } from './recovery-plan.ts';

export type { RecoveryStep } from './inspect-stages.ts';

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
 * retrospective or commit authorization. A state without journal only claims stages, each counted when
 * its artifact completes it now (adopt-claims.ts). The commit is trusted only as git has it.
 */
export async function recoverRequirement(lc: LifecycleContext, slug: string, caller: string | null): Promise<RecoveryReport> {
  checkSlug(slug);
  const file = workflowStateFile(lc.root, slug);
  const display = lc.kernel.display(file.path);
  const { previous, movedAside, fromJournal, unjournaled } = await loadPrevious(lc, slug, file.path);
  if (previous) {
    const refused = checkOwnership(previous, caller);
    if (refused && !refused.ok) throw new SluiceError(refused.code, { file: display, message: refused.message });
  }
  const artifactDir = previous?.artifact_dir ?? (await findArtifactDir(lc, slug));
  const trust: Trust = !previous
    ? { kind: 'none' }
    : unjournaled
      ? { kind: 'claims', previous }
      : { kind: 'journaled', previous, freshness: judgeFreshness(previous, await lc.fingerprint(), await loadRecordedFingerprints(lc)) };
  const inspection = await inspectStages(lc, slug, artifactDir, trust);
  const { steps, findings, commit, fingerprint } = inspection;
  const say = (step: number, title: string, finding: string) => steps.push({ step, title, finding });
  if (commit.valid) for (const f of findings) f.valid = true;

  const now = lc.now();
  const base = previous ?? newWorkflowState(artifactDir, caller, now);
  const note = `recovered: ${previous ? `state was ${previous.status ?? 'new'}` : 'state was missing'}`;
  // A blocked requirement stays blocked until its blocker is resolved; a committed one is final.
  const frozen = trust.kind === 'journaled' && (trust.previous.status === 'WORKFLOW_BLOCKED' || trust.previous.status === 'COMMITTED');
  let state =
    trust.kind === 'claims'
      ? adoptClaims(trust.previous, inspection, { now, note: `${note} (without journal: claims re-read from artifacts)` })
      : frozen
        ? base
        : reconstructState(base, findings, { now, fingerprint, note });
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

/**
 * The old state: the journal's replay (the state file must agree with it, else STATE_TAMPERED), or a
 * state file without a journal, or null. An unreadable state file is moved aside (never overwritten)
 * and reported; with a journal the state comes from the journal all the same.
 */
async function loadPrevious(
  lc: LifecycleContext,
  slug: string,
  path: string,
): Promise<{ previous: WorkflowState | null; movedAside?: string; fromJournal: boolean; unjournaled: boolean }> {
  try {
    const loaded = await loadRequirement(lc, slug);
    return {
      previous: loaded?.state ?? null,
      fromJournal: loaded !== null && loaded.provenance !== 'journal' && loaded.provenance !== 'unjournaled',
      unjournaled: loaded?.provenance === 'unjournaled',
    };
  } catch (error) {
    if (!isSluiceError(error) || !['STATE_CORRUPT', 'STATE_INVALID'].includes(error.code)) throw error;
    const aside = `${path}.corrupt-${lc.now().replace(/[:.]/g, '-')}`;
    await lc.host.rename(path, aside);
    const loaded = await loadRequirement(lc, slug);
    return { previous: loaded?.state ?? null, movedAside: lc.kernel.display(aside), fromJournal: loaded !== null, unjournaled: false };
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
