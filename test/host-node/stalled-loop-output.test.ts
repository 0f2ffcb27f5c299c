import assert from 'node:assert/strict';
import { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { spawnProcess } from '../../plugins/host-node/spawn-process.ts';

/** Keeps the event loop busy, as a loaded machine or a long synchronous step does. */
function stall(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

it('output that reaches the pipe while the loop is stalled past the drain wait is still read in full', async () => {
  // The program exits at once; what it started (in a session of its own, as a daemon would be) writes
  // the output a moment later and ends. The loop is stalled right after the exit is seen, longer than
  // the drain wait, so the output and the pipe's end are both waiting when the loop runs again.
  const emit = ChildProcess.prototype.emit;
  let stalled = false;
  ChildProcess.prototype.emit = function (this: ChildProcess, event: string | symbol, ...rest: unknown[]) {
    const handled = emit.call(this, event, ...rest);
    if (event === 'exit' && !stalled) {
      stalled = true;
      stall(2600);
    }
    return handled;
  } as typeof emit;
  const out: Uint8Array[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'sluice-stall-'));
  try {
    // The program waits (through a fifo) until the writer has left its process group, then exits.
    const r = await spawnProcess({
      command: 'sh',
      args: ['-c', 'mkfifo ready && { setsid sh -c "echo >ready; sleep 0.3; printf whole-output" & } && read _ <ready; exit 0'],
      cwd: dir,
      onStdout: (chunk) => out.push(chunk),
    });
    assert.ok(stalled, 'the loop was stalled after the exit');
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdioHeld, undefined, 'the output ended: nothing held it open');
    assert.equal(Buffer.concat(out).toString(), 'whole-output');
  } finally {
    ChildProcess.prototype.emit = emit;
    await rm(dir, { recursive: true, force: true });
  }
});
