import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLocalQueue } from '../../core/queue/local-queue.ts';
import type { QueueProgressEvent } from '../../core/queue/job-queue.ts';

declare module '../../core/queue/job-queue.ts' {
  interface Jobs {
    'test:sleep': { payload: { ms: number; key?: string; tag?: string }; result: string };
    'test:fn': { payload: { f: unknown }; result: void };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('local queue', () => {
  it('never runs more jobs than the concurrency limit, over 100 queued jobs', async () => {
    const q = createLocalQueue({ concurrency: 4 });
    let running = 0;
    let peak = 0;
    q.register('test:sleep', async ({ ms, tag }) => {
      running++;
      peak = Math.max(peak, running);
      await sleep(ms);
      running--;
      return tag ?? '';
    });
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => q.run('test:sleep', { ms: 1 + (i % 3), tag: String(i) })));
    assert.equal(peak, 4);
    assert.equal(results.length, 100);
    assert.equal(results[99], '99');
    assert.equal(q.stats().done, 100);
  });

  it('runs jobs with the same key one at a time, in submission order', async () => {
    const q = createLocalQueue({ concurrency: 8 });
    const active = new Map<string, number>();
    const order: string[] = [];
    let overlap = false;
    q.register('test:sleep', async ({ ms, key, tag }) => {
      const n = (active.get(key!) ?? 0) + 1;
      active.set(key!, n);
      if (n > 1) overlap = true;
      await sleep(ms);
      order.push(tag!);
      active.set(key!, n - 1);
      return tag!;
    });
    const jobs = [];
    for (let i = 0; i < 12; i++) {
      const key = i % 2 === 0 ? 'state-a' : 'state-b';
      jobs.push(q.run('test:sleep', { ms: 5 - (i % 5), key, tag: `${key}:${i}` }, { key }));
    }
    await Promise.all(jobs);
    assert.equal(overlap, false);
    assert.deepEqual(
      order.filter((t) => t.startsWith('state-a')),
      ['state-a:0', 'state-a:2', 'state-a:4', 'state-a:6', 'state-a:8', 'state-a:10'],
    );
  });

  it('rejects payloads that are not plain JSON', async () => {
    const q = createLocalQueue({ concurrency: 1 });
    q.register('test:fn', async () => {});
    assert.throws(() => q.run('test:fn', { f: () => 1 }), { code: 'JOB_PAYLOAD_NOT_JSON' });
    assert.throws(() => q.run('test:fn', { f: new Date() }), /Date instance/);
    assert.throws(() => q.run('test:fn', { f: NaN }), /not JSON at f/);
  });

  it('rejects an unknown job name', async () => {
    const q = createLocalQueue({ concurrency: 1 });
    await assert.rejects(q.run('test:sleep', { ms: 1 }), { code: 'JOB_UNKNOWN' });
  });

  it('cancels a waiting job when its signal aborts, without running it', async () => {
    const q = createLocalQueue({ concurrency: 1 });
    const ran: string[] = [];
    q.register('test:sleep', async ({ ms, tag }) => {
      ran.push(tag!);
      await sleep(ms);
      return tag!;
    });
    const controller = new AbortController();
    const first = q.run('test:sleep', { ms: 30, tag: 'first' });
    const second = q.run('test:sleep', { ms: 1, tag: 'second' }, { signal: controller.signal });
    controller.abort();
    await assert.rejects(second, { code: 'QUEUE_CANCELLED' });
    assert.equal(await first, 'first');
    assert.deepEqual(ran, ['first']);
  });

  it('lets a started job answer cancellation itself (a delegate returns status cancelled)', async () => {
    const q = createLocalQueue({ concurrency: 1 });
    q.register('test:sleep', (_p, ctx) => new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped cleanly'))));
    const controller = new AbortController();
    const running = q.run('test:sleep', { ms: 0 }, { signal: controller.signal });
    await sleep(10);
    controller.abort();
    assert.equal(await running, 'stopped cleanly');
  });

  it('reports progress: queued, started, done', async () => {
    const events: QueueProgressEvent[] = [];
    const q = createLocalQueue({ concurrency: 2, onProgress: (e) => events.push(e) });
    q.register('test:sleep', async () => 'x');
    await q.run('test:sleep', { ms: 0 }, { label: 'one' });
    assert.deepEqual(
      events.map((e) => e.state),
      ['queued', 'started', 'done'],
    );
    assert.equal(events[2].stats.done, 1);
    assert.equal(events[0].label, 'one');
  });

  it('refuses a concurrency outside 1..256', () => {
    assert.throws(() => createLocalQueue({ concurrency: 0 }), { code: 'CONFIG_INVALID' });
  });
});
