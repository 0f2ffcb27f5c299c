/**
 * A stage's result read from its evidence, applied by the lifecycle's machine (apply-event.ts) and the
 * production guards of the table (PRODUCTION_GUARDS in transition-table.ts): production edits made where
 * only test infrastructure may change take the production route. Pure, like apply-event.ts.
 */
import { applyEvent, checkCanRecord, type EventContext, type LifecycleEvent, type TransitionOutcome } from './apply-event.ts';
import { type ArtifactHashes, withArtifacts } from './evidence/artifact-hashes.ts';
import { forceProductionRoute, productionChanges } from './evidence/production-route.ts';
import type { WorkflowState } from './state/workflow-state-schema.ts';
import { PRODUCTION_GUARDS, type ProductionGuard } from './transition-table.ts';

/** What a stage's evidence adds to its event: the hashes of its artifacts, and whether the requirement is alone in the workspace. */
export interface EvidenceContext extends EventContext {
  artifacts: ArtifactHashes;
  alone: boolean;
}

/**
 * Applies a stage's result read from its evidence: the event, the artifact hashes on its record, and the
 * production guards of the table (PRODUCTION_GUARDS), which send production edits made where only test
 * infrastructure may change onto the production route.
 */
export function applyEvidence(state: WorkflowState, event: Exclude<LifecycleEvent, { kind: 'unblock' }>, ctx: EvidenceContext): TransitionOutcome {
  const guards = ctx.alone ? PRODUCTION_GUARDS.filter((g) => g.stage === event.stage && guardApplies(g, state)) : [];
  const instead = guards.find((g) => g.order === 'instead');
  if (instead && checkCanRecord(state, event.stage, ctx.caller) === undefined) {
    const forced = productionRoute(state, state, instead, ctx);
    if (forced) return forced;
  }
  const out = applyEvent(state, event, ctx);
  if (!out.ok) return out;
  const recorded = withArtifacts(out.state, event.stage, ctx.artifacts, ctx.now);
  for (const g of guards.filter((x) => x.order === 'after')) {
    const forced = productionRoute(recorded, state, g, ctx);
    if (forced) return forced;
  }
  return { ...out, state: recorded };
}

function guardApplies(g: ProductionGuard, state: WorkflowState): boolean {
  if ('status' in g.on) return state.status === g.on.status;
  const last = state.reroutes.at(-1);
  return last?.kind === 'test-repair' && last.repair_scope === g.on.route && state.completed_stages.includes('code-review');
}

/** The production route from `state`, when production files changed since `before`'s last test. */
function productionRoute(state: WorkflowState, before: WorkflowState, g: ProductionGuard, ctx: EventContext): TransitionOutcome | undefined {
  const changed = productionChanges(before.results.test?.fingerprint, ctx.fingerprint);
  const forced = forceProductionRoute(state, changed, { now: ctx.now, fingerprint: ctx.fingerprint, why: g.why });
  return forced && { ok: true, state: forced, row: 'production-route' };
}
