import { dirname, join } from 'pathe';
import { acquireLock, isSluiceError, SluiceError, toSluiceError, type LockHandle, type ProgressHandle, compareText } from '../../../core/index.ts';
import type { AuthorizeOptions } from '../commit/authorize-commit.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { SPEC } from '../readers/plan-tasks-reader.ts';
import { applyTransition, nextInvocation, readWorkflowState } from '../record-stage.ts';
import { judgeFreshness, loadRecordedFingerprints } from '../recovery/freshness.ts';
import { reconstructState, staleFindings } from '../recovery/recovery-plan.ts';
import { ARTIFACT_KINDS, artifactDirFor, checkSlug } from '../slug.ts';
import { claimRequirement, startRequirement } from '../start-requirement.ts';
import { WORKFLOWS_DIR, workflowStatePath } from '../state/workflow-state-file.ts';
import type { WorkflowState } from '../state/workflow-state-schema.ts';
import type { Stage } from '../transition-table.ts';
import { createRunTracker } from './run-tracker.ts';
import { driveRequirement, FATAL_CODES, RUNNER_ORCHESTRATOR, type Outcome, type StageRun } from './drive-requirement.ts';

export interface RunLifecycleOptions {
  /** Requirements to run; default: every requirement with state that is not committed. */
  slugs?: string[];
  backend: string;
  extra?: Record<string, unknown>;
  model?: string;
  timeoutMs?: number;
  authorize?: AuthorizeOptions;
  progress?: ProgressHandle;
  signal?: AbortSignal;
  maxAttempts?: number;
  /** Requirements driven at once; default twice the queue's concurrency, so requirements finish (and commit) as they go. */
  maxInFlight?: number;
  /** Called with the stage a requirement starts (null: it stopped). */
  onStage?(slug: string, stage: Stage | null): void;
  /** Awaited after every stage's transition is written, before the next stage starts (a remote job pushes its checkpoint). */
  afterTransition?(slug: string, state: WorkflowState): Promise<void>;
}

export interface RequirementOutcome {
  slug: string;
  outcome: Outcome;
  status: WorkflowState['status'];
  nextStage: Stage | null;
  /** Code-sensitive results that were redone because the workspace changed since they were recorded. */
  staleReset: Stage[];
  stages: StageRun[];
  commit?: string;
  blocker?: WorkflowState['blocker'];
  /** For a blocked requirement: the exact command that unblocks it (with the runner's --orchestrator). */
  unblock?: string;
  error?: { code: string; message: string };
}

export interface RunSummary {
  requirements: RequirementOutcome[];
  counts: Record<Outcome, number>;
  durationMs: number;
}

/**
 * `sluice lifecycle run`: every requirement in parallel, each driven by its own loop (one writer per
 * requirement: a cross-process run lock plus the state store's lock), every stage a delegate job on the
 * kernel queue, so `--concurrency` bounds the AI runs. Freshness is judged for every requirement
 * before any stage runs, so one requirement's new work never makes another look stale.
 */
export async function runLifecycle(lc: LifecycleContext, o: RunLifecycleOptions): Promise<RunSummary> {
  const started = performance.now();
  lc.kernel.delegates.require(o.backend);
  const slugs = o.slugs && o.slugs.length > 0 ? [...new Set(o.slugs.map(checkSlug))] : await openRequirements(lc);
  const run = createRunTracker(slugs.length, o);
  const { abort, outcomes, progress } = run;
  const rc = {
    lc,
    backend: o.backend,
    extra: o.extra,
    model: o.model,
    timeoutMs: o.timeoutMs,
    authorize: o.authorize ?? {},
    signal: abort.signal,
    maxAttempts: o.maxAttempts ?? 2,
    parallel: slugs.length > 1,
    onStage(slug: string, stage: Stage | null) {
      run.stage(slug, stage);
      o.onStage?.(slug, stage);
    },
    afterTransition: o.afterTransition,
  };
  const locks = new Map<string, LockHandle>();
  try {
    const current = await lc.fingerprint();
    const recorded = await loadRecordedFingerprints(lc);
    const limit = createLimit(o.maxInFlight ?? lc.kernel.queue.stats().concurrency * 2);
    const prepared = await Promise.all(
      slugs.map(async (slug): Promise<{ slug: string; staleReset: Stage[] } | RequirementOutcome> => {
        await limit.acquire();
        try {
          return await prepare(lc, slug, locks, current, recorded);
        } catch (error) {
          return fail(slug, error);
        } finally {
          limit.release();
        }
      }),
    );
    await Promise.all(
      prepared.map(async (p) => {
        if ('outcome' in p) return void outcomes.set(p.slug, p);
        await limit.acquire();
        const stages: StageRun[] = [];
        try {
          const { outcome, state } = await driveRequirement(rc, p.slug, stages);
          outcomes.set(p.slug, describe(p.slug, outcome, state, stages, p.staleReset));
        } catch (error) {
          if (isSluiceError(error) && FATAL_CODES.has(error.code)) abort.abort();
          outcomes.set(p.slug, { ...fail(p.slug, error), stages, staleReset: p.staleReset });
          if (isSluiceError(error) && FATAL_CODES.has(error.code)) throw error;
        } finally {
          limit.release();
          progress();
        }
      }),
    );
  } finally {
    await Promise.all([...locks.values()].map((l) => l.release()));
    run.dispose();
  }
  return summarize(
    slugs.map((s) => outcomes.get(s)!),
    started,
  );
}

/** The run's summary: outcomes in the order asked, counted. */
export function summarize(requirements: RequirementOutcome[], started: number): RunSummary {
  const counts = { committed: 0, blocked: 0, 'awaiting-authorization': 0, busy: 0, failed: 0, interrupted: 0 } satisfies Record<Outcome, number>;
  for (const r of requirements) counts[r.outcome]++;
  return { requirements, counts, durationMs: Math.round(performance.now() - started) };
}

/** Lock, start or claim, and reset stale results, before any stage of any requirement runs. */
async function prepare(
  lc: LifecycleContext,
  slug: string,
  locks: Map<string, LockHandle>,
  current: Awaited<ReturnType<LifecycleContext['fingerprint']>>,
  recorded: Awaited<ReturnType<typeof loadRecordedFingerprints>>,
): Promise<{ slug: string; staleReset: Stage[] } | RequirementOutcome> {
  const statePath = workflowStatePath(lc.root, slug);
  await lc.host.mkdir(dirname(statePath));
  try {
    locks.set(slug, await acquireLock(lc.host, `${statePath}.run.lock`, { waitMs: 0, purpose: 'sluice lifecycle run', display: lc.kernel.display(statePath) }));
  } catch (error) {
    if (isSluiceError(error, 'LOCK_BUSY')) return { ...fail(slug, error), outcome: 'busy' };
    throw error;
  }
  let state: WorkflowState;
  if (await lc.kernel.store.exists(statePath)) state = (await claimRequirement(lc, slug, RUNNER_ORCHESTRATOR)).state;
  else {
    await requireSpec(lc, slug);
    state = (await startRequirement(lc, slug, { orchestrator: RUNNER_ORCHESTRATOR })).state;
  }
  const freshness = judgeFreshness(state, current, recorded);
  // A blocked requirement stays blocked: only unblock lifts it (and reroutes a changed workspace).
  if ((freshness !== 'stale' && freshness !== 'unknown') || state.status === 'WORKFLOW_BLOCKED') return { slug, staleReset: [] };
  const note =
    freshness === 'stale'
      ? 'the workspace changed outside the lifecycle after the last recorded result'
      : 'the workspace is not a git work tree, so recorded results cannot be trusted';
  const before = state.completed_stages;
  const after = await applyTransition(lc, slug, RUNNER_ORCHESTRATOR, (s) => ({
    ok: true,
    state: reconstructState(s, staleFindings(s), { now: lc.now(), fingerprint: current, note }),
    row: 'recovery:stale',
  }));
  return { slug, staleReset: before.filter((s) => !after.state.completed_stages.includes(s)) };
}

/** A new requirement needs its goal in spec.md (or `sluice lifecycle start SLUG --goal TEXT`). */
async function requireSpec(lc: LifecycleContext, slug: string): Promise<void> {
  for (const kind of ARTIFACT_KINDS) if ((await lc.host.stat(join(lc.root, artifactDirFor(kind, slug), SPEC)))?.kind === 'file') return;
  throw new SluiceError('ARTIFACT_MISSING', {
    file: `${artifactDirFor('specs', slug)}/${SPEC}`,
    message: `${slug} has no spec.md with its goal`,
    hint: `write it, or run \`sluice lifecycle start ${slug} --goal "..."\``,
  });
}

/** Every requirement with state that is not committed yet. */
export async function openRequirements(lc: LifecycleContext): Promise<string[]> {
  const entries = await lc.host.listDir(join(lc.root, WORKFLOWS_DIR)).catch(() => []);
  const slugs: string[] = [];
  for (const e of entries.filter((x) => x.kind === 'file' && x.name.endsWith('.json')).sort((a, b) => compareText(a.name, b.name))) {
    const slug = e.name.slice(0, -5);
    const state = await readWorkflowState(lc, slug).catch(() => undefined);
    if (state?.status !== 'COMMITTED') slugs.push(slug);
  }
  return slugs;
}

/** At most `n` holders at once, first come first served. */
function createLimit(n: number) {
  let free = Math.max(1, n);
  const waiting: (() => void)[] = [];
  return {
    acquire: () => (free > 0 ? (free--, Promise.resolve()) : new Promise<void>((r) => waiting.push(r))),
    release: () => (waiting.length > 0 ? waiting.shift()!() : free++),
  };
}

function describe(slug: string, outcome: Outcome, state: WorkflowState, stages: StageRun[], staleReset: Stage[]): RequirementOutcome {
  return {
    slug,
    outcome,
    status: state.status,
    nextStage: state.next_stage,
    staleReset,
    stages,
    ...(state.commit ? { commit: state.commit.sha } : {}),
    ...(state.blocker ? { blocker: state.blocker } : {}),
    ...(state.status === 'WORKFLOW_BLOCKED' ? { unblock: nextInvocation(slug, state).command ?? undefined } : {}),
  };
}

export function fail(slug: string, error: unknown): RequirementOutcome {
  const e = toSluiceError(error);
  return { slug, outcome: 'failed', status: null, nextStage: null, staleReset: [], stages: [], error: { code: e.code, message: e.message } };
}
