import type { Kernel, ProgressHandle } from '../../core/index.ts';
import { createProgressLine } from './progress-line.ts';

/** Shows how many jobs are running and done while a command works (after a second, on a terminal). */
export function watchQueueProgress(kernel: Kernel): () => void {
  let line: ProgressHandle | undefined;
  let lastLabel = '';
  kernel.hooks.on('queue:progress', 'cli', (event) => {
    const { running, queued, done, failed } = event.stats;
    if (event.state === 'started' && event.label) lastLabel = event.label;
    if (running + queued === 0) {
      line?.done();
      line = undefined;
      return;
    }
    line ??= createProgressLine(process.stderr, '');
    line.update(`${done} done${failed ? `, ${failed} failed` : ''}, ${running} running, ${queued} waiting${lastLabel ? ` · ${lastLabel}` : ''}`);
  });
  return () => line?.done();
}
