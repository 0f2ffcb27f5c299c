import type { CommandIO, Kernel } from '../../core/index.ts';

const secs = (ms: number) => `${Math.round(ms / 1000)} s`;

/** Prints the runner's heartbeat on stderr: a long silent AI CLI run is visibly alive (or visibly retrying). */
export function printDelegateHeartbeats(kernel: Kernel, io: CommandIO): void {
  kernel.hooks.on('delegate:heartbeat', 'cli', (e) => {
    const what = e.label ?? `delegate ${e.backend}`;
    const silent = e.silentMs >= 1000 ? `, silent for ${secs(e.silentMs)}` : '';
    io.warn(
      io.style.dim(
        `${what}: ${e.backend} still running after ${secs(e.elapsedMs)} (attempt ${e.attempt}/${e.maxAttempts}${silent}); last event: ${e.lastEvent ?? 'none yet'}`,
      ),
    );
  });
}
