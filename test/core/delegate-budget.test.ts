import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryHost } from '../../core/host/memory-host.ts';
import { createKernel } from '../../core/kernel/create-kernel.ts';
import { defineDelegate, definePlugin } from '../../core/index.ts';

/** The delegate runner's retry budget on an injected clock: each attempt "takes" 2.5 s of fake time. */
async function kernelWith(attemptMs: number, outcomes: ('transient' | 'ok')[]) {
  let now = 0;
  const host = createMemoryHost({ files: { '/project/.keep': '' }, now: () => new Date(now) });
  const seen: number[] = [];
  const backend = definePlugin({
    name: 'test:slow-backend',
    setup(ctx) {
      ctx.registerDelegate(
        defineDelegate({
          name: 'slow',
          description: 'fails slowly, like an offline CLI',
          available: async () => ({ ok: true }),
          async run(_request, rc) {
            seen.push(rc.timeoutMs);
            now += attemptMs;
            const outcome = outcomes[seen.length - 1] ?? 'transient';
            return outcome === 'ok'
              ? { status: 'ok', exitCode: 0, text: 'answer', durationMs: attemptMs }
              : { status: 'error', exitCode: 1, text: '', durationMs: attemptMs, error: 'API Error: Connection error.', transient: true };
          },
        }),
      );
    },
  });
  const kernel = await createKernel({ host, projectRoot: '/project', plugins: [backend] });
  return { kernel, seen };
}

describe('delegate retry budget (injected clock)', () => {
  it('gives each retry only what the earlier attempts left, and stops when too little is left', async () => {
    const { kernel, seen } = await kernelWith(2500, []);
    const r = await kernel.runDelegate('slow', { prompt: 'p', mode: 'write', cwd: '/project', timeoutMs: 6000 });
    assert.deepEqual(seen, [6000, 3500], 'the second attempt got the rest of the budget; no third one');
    assert.equal(r.tries, 2);
    assert.equal(r.status, 'error');
    assert.match(r.error!, /no retry: the run's budget of 6 s is used up/);
  });

  it('still retries while the budget allows, and succeeds', async () => {
    const { kernel, seen } = await kernelWith(1000, ['transient', 'ok']);
    const r = await kernel.runDelegate('slow', { prompt: 'p', mode: 'write', cwd: '/project', timeoutMs: 60_000 });
    assert.equal(r.status, 'ok');
    assert.deepEqual(seen, [60_000, 59_000]);
  });
});
