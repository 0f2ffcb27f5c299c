import { dirname, join } from 'pathe';
import { realPathInside, SluiceError } from '../../core/index.ts';
import type { LifecycleContext } from './lifecycle-context.ts';
import { SPEC } from './readers/plan-tasks-reader.ts';
import { loadRequirement, writeJournaled } from './journal/journaled-state.ts';
import { applyTransition, emitTransition, readWorkflowState } from './record-stage.ts';
import { ARTIFACT_KINDS, artifactDirFor, checkSlug, type ArtifactKind } from './slug.ts';
import { newWorkflowState } from './state/new-workflow-state.ts';
import { workflowStateFile } from './state/workflow-state-file.ts';
import type { WorkflowState } from './state/workflow-state-schema.ts';
import { checkOwnership } from './apply-event.ts';

export interface StartOptions {
  kind?: ArtifactKind;
  /** The coordinator that will own the requirement; null for direct stage use. */
  orchestrator?: string | null;
  /** Written to spec.md as the requirement's goal when there is no spec yet. */
  goal?: string;
}

export interface StartResult {
  state: WorkflowState;
  created: boolean;
  specWritten: boolean;
}

/**
 * Creates a requirement's workflow state (plan is the first stage). Starting an existing requirement is
 * a no-op that reports its state, or claims it for an orchestrator when nobody owns it yet.
 */
export async function startRequirement(lc: LifecycleContext, slug: string, o: StartOptions = {}): Promise<StartResult> {
  checkSlug(slug);
  const file = workflowStateFile(lc.root, slug);
  const orchestrator = o.orchestrator ?? null;
  const existing = await loadRequirement(lc, slug);
  if (existing) {
    // A journal without its state file is recover's to rebuild, never a fresh start (that would reset its counters).
    const state = await readWorkflowState(lc, slug);
    // PrizmKit v4: the state's identity is its artifact folder's name; a state of another folder is a collision, never reused.
    if (state.artifact_dir.split('/').pop() !== slug) {
      throw new SluiceError('INVARIANT_VIOLATED', {
        file: lc.kernel.display(file.path),
        field: 'artifact_dir',
        message: `this state belongs to ${state.artifact_dir}, not to ${slug}; resolve the collision explicitly`,
      });
    }
    if (o.kind && state.artifact_dir !== artifactDirFor(o.kind, slug)) {
      throw new SluiceError('INVARIANT_VIOLATED', {
        file: lc.kernel.display(file.path),
        field: 'artifact_dir',
        message: `artifact_dir is fixed at ${state.artifact_dir}`,
      });
    }
    const claimed = orchestrator === null || state.orchestrator === orchestrator ? state : (await claimRequirement(lc, slug, orchestrator)).state;
    return { state: claimed, created: false, specWritten: false };
  }
  const artifactDir = await chooseArtifactDir(lc, slug, o.kind);
  // A symlinked .prizmkit/specs (or state folder) must not take the mkdir and the spec out of the project.
  await realPathInside(lc.host, lc.root, artifactDir, 'artifact folder');
  await realPathInside(lc.host, lc.root, file.path, 'workflow state');
  await lc.host.mkdir(join(lc.root, artifactDir));
  let specWritten = false;
  const spec = join(lc.root, artifactDir, SPEC);
  if (o.goal !== undefined && o.goal.trim() !== '' && (await lc.host.stat(spec)) === null) {
    await lc.host.writeAtomic(spec, `# ${slug}\n\n## Goal\n\n${o.goal.trim()}\n`);
    specWritten = true;
  }
  const fresh = newWorkflowState(artifactDir, orchestrator, lc.now());
  const started = performance.now();
  const { after: state } = await writeJournaled(lc, slug, orchestrator, (current) => {
    if (current) throw new SluiceError('STATE_EXISTS', { file: lc.kernel.display(file.path), message: `requirement ${slug} was started meanwhile` });
    return { state: fresh, row: 'start' };
  });
  await emitTransition(lc, { slug, from: null, state, row: 'start', caller: orchestrator, writeMs: performance.now() - started });
  return { state, created: true, specWritten };
}

/** Gives an unowned requirement to an orchestrator; refuses to take it from another one. */
export function claimRequirement(lc: LifecycleContext, slug: string, orchestrator: string) {
  return applyTransition(lc, slug, orchestrator, (s) => {
    if (s.orchestrator === orchestrator) return { ok: true, state: s, row: 'claim' };
    const refused = checkOwnership(s, orchestrator);
    if (refused) return refused;
    return { ok: true, state: { ...s, orchestrator, updated_at: lc.now() }, row: 'claim' };
  });
}

/** The one artifact folder of this slug: an existing one is reused, never a different most-recent one. */
async function chooseArtifactDir(lc: LifecycleContext, slug: string, kind: ArtifactKind | undefined): Promise<string> {
  if (kind) return artifactDirFor(kind, slug);
  const existing: string[] = [];
  for (const k of ARTIFACT_KINDS) if ((await lc.host.stat(join(lc.root, artifactDirFor(k, slug))))?.kind === 'dir') existing.push(artifactDirFor(k, slug));
  if (existing.length > 1) throw new SluiceError('USAGE', { message: `${slug} has artifacts in ${existing.join(' and ')}; pass --kind to choose one` });
  return existing[0] ?? artifactDirFor('specs', slug);
}
