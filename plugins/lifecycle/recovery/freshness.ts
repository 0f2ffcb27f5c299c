import { join } from 'pathe';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { WORKFLOWS_DIR, workflowStateFile } from '../state/workflow-state-file.ts';
import type { Fingerprint, WorkflowState } from '../state/workflow-state-schema.ts';
import { CODE_SENSITIVE_STAGES } from '../transition-table.ts';
import { sameFingerprint } from '../workspace/workspace-fingerprint.ts';

export interface RecordedFingerprint {
  fingerprint: Fingerprint;
  at: string;
}

export type Freshness = 'fresh' | 'stale' | 'unknown' | 'not-applicable';

/**
 * Every fingerprint any requirement of this project recorded with a stage result. Unreadable states are
 * skipped, and so are states without their journal: their results are claims anyone could have written.
 */
export async function loadRecordedFingerprints(lc: LifecycleContext): Promise<RecordedFingerprint[]> {
  const entries = await lc.host.listDir(join(lc.root, WORKFLOWS_DIR)).catch(() => []);
  const out: RecordedFingerprint[] = [];
  for (const e of entries) {
    if (e.kind !== 'file' || !e.name.endsWith('.json')) continue;
    try {
      const state = await lc.kernel.store.read(workflowStateFile(lc.root, e.name.slice(0, -5)));
      if (!('journal' in state)) continue;
      for (const r of Object.values(state.results)) if (r?.fingerprint) out.push({ fingerprint: r.fingerprint, at: r.at });
    } catch {
      // A broken or foreign file is recover's business, not freshness's.
    }
  }
  return out;
}

/**
 * Whether a requirement's review, test and retrospective results still describe the workspace. They do
 * when nothing changed after the lifecycle last recorded a result: the current fingerprint equals one
 * recorded (by this or a parallel requirement) at or after this requirement's latest result. A change
 * made outside the lifecycle after that (a person editing code, a killed stage's partial writes) makes
 * them stale, so review, test, retrospective and commit authorization run again.
 */
export function judgeFreshness(state: WorkflowState, current: Fingerprint | null, recorded: readonly RecordedFingerprint[]): Freshness {
  if (state.status === 'COMMITTED' || !state.completed_stages.some((s) => CODE_SENSITIVE_STAGES.includes(s))) return 'not-applicable';
  if (current === null) return 'unknown';
  const own = Object.values(state.results).filter((r) => r !== undefined);
  const latest = own.reduce<string>((max, r) => (r.at > max ? r.at : max), '');
  const candidates = [...own.filter((r) => r.at === latest), ...recorded.filter((r) => r.at >= latest)];
  return candidates.some((r) => sameFingerprint(r.fingerprint, current)) ? 'fresh' : 'stale';
}
