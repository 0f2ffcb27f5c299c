import type { ProgressHandle } from '../../../core/index.ts';
import type { Stage } from '../transition-table.ts';
import type { RequirementOutcome } from './run-lifecycle.ts';

/**
 * What a run keeps while it drives requirements, locally or on workers: one abort for all of them (tied
 * to the caller's signal), the stage each one is in, the outcomes so far, and the progress line.
 */
export function createRunTracker(total: number, o: { signal?: AbortSignal; progress?: ProgressHandle }) {
  // Jobs take followers of this signal (follow-signal.ts), not the signal itself: many requirements are expected.
  const abort = new AbortController();
  const onOuterAbort = () => abort.abort();
  o.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const running = new Map<string, Stage>();
  const outcomes = new Map<string, RequirementOutcome>();
  const progress = () => o.progress?.update(progressLine([...outcomes.values()].filter((r) => r.outcome === 'committed').length, total, running));
  return {
    abort,
    running,
    outcomes,
    progress,
    /** The stage a requirement is in (null: none), shown at once. */
    stage(slug: string, stage: Stage | null) {
      if (stage) running.set(slug, stage);
      else running.delete(slug);
      progress();
    },
    dispose() {
      o.signal?.removeEventListener('abort', onOuterAbort);
      o.progress?.done();
    },
  };
}

/** The progress line of a run, local or on workers: committed so far and the first few stages running. */
export function progressLine(committed: number, total: number, running: ReadonlyMap<string, Stage>): string {
  const busy = [...running.entries()]
    .slice(0, 4)
    .map(([s, st]) => `${s}:${st}`)
    .join(', ');
  return `lifecycle ${committed}/${total} committed${running.size ? ` · ${busy}${running.size > 4 ? ` +${running.size - 4}` : ''}` : ''}`;
}
