import { join } from 'pathe';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { WORKFLOWS_DIR, workflowStateFile } from '../state/workflow-state-file.ts';
import type { Fingerprint, WorkflowState } from '../state/workflow-state-schema.ts';
import { reconstructState, staleFindings } from '../recovery/recovery-plan.ts';
import { isDocumentationPath, isTestPath } from '../workspace/test-paths.ts';

/** Production files (not tests, not documentation) whose content differs between two fingerprints. */
export function productionChanges(before: Fingerprint | null | undefined, now: Fingerprint | null): string[] {
  if (!before?.files || !now?.files) return [];
  const paths = new Set([...Object.keys(before.files), ...Object.keys(now.files)]);
  return [...paths].filter((p) => before.files![p] !== now.files![p] && !isTestPath(p) && !isDocumentationPath(p)).sort();
}

/**
 * The production route for production edits made where only test infrastructure may change (where, is
 * PRODUCTION_GUARDS in transition-table.ts; apply-event.ts applies it): back to code review, recorded as a
 * reroute. Returns the rerouted state, or undefined when nothing forces it.
 */
export function forceProductionRoute(
  state: WorkflowState,
  changed: readonly string[],
  ctx: { now: string; fingerprint: Fingerprint | null; why: string },
): WorkflowState | undefined {
  if (changed.length === 0 || !state.completed_stages.includes('code-review')) return undefined;
  const findings = staleFindings(state).map((f) => (f.stage === 'implement' ? { ...f, valid: state.completed_stages.includes('implement') } : f));
  return reconstructState(state, findings, {
    ...ctx,
    note: `${ctx.why}: ${changed.slice(0, 10).join(', ')}${changed.length > 10 ? ', …' : ''} changed; production route (code review) instead`,
  });
}

/**
 * Whether another requirement of the project is open: then the workspace is shared and a production edit
 * may be that requirement's; the check moves to the commit, which compares only the files it carries.
 */
export async function othersOpen(lc: LifecycleContext, slug: string): Promise<boolean> {
  const entries = await lc.host.listDir(join(lc.root, WORKFLOWS_DIR)).catch(() => []);
  for (const e of entries) {
    if (e.kind !== 'file' || !e.name.endsWith('.json') || e.name === `${slug}.json`) continue;
    const state = await lc.kernel.store.read(workflowStateFile(lc.root, e.name.slice(0, -5))).catch(() => undefined);
    if (state && state.status !== 'COMMITTED') return true;
  }
  return false;
}
