import type { Kernel, ProgressHandle } from '../../core/index.ts';
import type { StatusLine } from './status-line.ts';

/** Puts how many jobs are running, waiting and done on the status line while any job is in the queue. */
export function watchQueueProgress(kernel: Kernel, status: StatusLine): () => void {
  let part: ProgressHandle | undefined;
  let lastLabel = '';
  kernel.hooks.on('queue:progress', 'cli', (event) => {
    const { running, queued, done, failed } = event.stats;
    if (event.state === 'started' && event.label) lastLabel = event.label;
    if (running + queued === 0) {
      part?.done();
      part = undefined;
      return;
    }
    const text = `${done} done${failed ? `, ${failed} failed` : ''}, ${running} running, ${queued} waiting${lastLabel ? ` · ${lastLabel}` : ''}`;
    if (part) part.update(text);
    else part = status.open(text);
  });
  return () => part?.done();
}
