import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryHost } from '../../core/host/memory-host.ts';
import type { Host } from '../../core/host/host.ts';
import { acquireLock } from '../../core/store/file-lock.ts';
import { SluiceError } from '../../core/errors/sluice-error.ts';

/**
 * Locks across hosts (a shared or network folder): a pid says nothing about another machine, so a
 * holder refreshes a heartbeat and only a lapsed heartbeat makes a foreign lock stale. Every clock
 * here is injected: the minutes pass by assignment, not by waiting.
 */
const LOCK = '/project/state.yaml.lock';
const T0 = Date.parse('2026-03-01T10:00:00Z');

function sharedFolder() {
  let now = T0;
  const host = createMemoryHost({ now: () => new Date(now), files: { '/project/state.yaml': 'x: 1\n' } });
  const timers: { ms: number; fn: () => void; stopped: boolean }[] = [];
  /** Two machines on one folder: same files and clock, different host names; A has timers. */
  const a: Host = {
    ...host,
    hostname: () => 'build-a',
    repeat(ms, fn) {
      const t = { ms, fn, stopped: false };
      timers.push(t);
      return () => void (t.stopped = true);
    },
  };
  const b: Host = { ...host, hostname: () => 'build-b', pid: 777 };
  return { host, a, b, timers, advance: (ms: number) => void (now += ms) };
}

const busy = (e: unknown) => e instanceof SluiceError && e.code === 'LOCK_BUSY';

describe('locks held from another host', () => {
  it('a live holder that refreshes its heartbeat is not taken over, however old its lock file is', async () => {
    const { host, a, b, timers, advance } = sharedFolder();
    const held = await acquireLock(a, LOCK, { heartbeatMs: 30_000 });
    assert.deepEqual(
      timers.map((t) => t.ms),
      [30_000],
      'the holder refreshes on the host timer, every heartbeatMs',
    );
    for (let i = 0; i < 40; i++) {
      advance(30_000);
      await held.heartbeat();
    }
    // Twenty minutes held: past the old 10-minute file-age rule, but the heartbeat is fresh.
    await assert.rejects(acquireLock(b, LOCK, { waitMs: 0 }), (e: unknown) => busy(e) && /build-a/.test((e as Error).message));
    assert.equal(JSON.parse(host.files()[LOCK]).heartbeatAt, new Date(T0 + 40 * 30_000).toISOString());
    await held.release();
    assert.equal(timers[0].stopped, true, 'release stops the heartbeat');
    assert.equal(host.files()[LOCK], undefined);
  });

  it('a lock whose heartbeat lapsed is taken over, and the old holder cannot remove the new one', async () => {
    const { host, a, b, advance } = sharedFolder();
    const held = await acquireLock(a, LOCK, { heartbeatMs: 30_000 });
    advance(90_000);
    await assert.rejects(acquireLock(b, LOCK, { waitMs: 0 }), busy, 'three missed beats are not yet a lapse');
    advance(60_000);
    const taken = await acquireLock(b, LOCK, { waitMs: 0 });
    assert.equal(JSON.parse(host.files()[LOCK]).hostname, 'build-b');
    await held.heartbeat();
    await held.release();
    assert.equal(JSON.parse(host.files()[LOCK]).hostname, 'build-b', 'the lapsed holder neither refreshed nor removed the new lock');
    await taken.release();
  });

  it('a held-open lock (a state update) refreshes in place and keeps its identity', async () => {
    const { host, a, b, advance } = sharedFolder();
    const held = await acquireLock(a, LOCK, { heartbeatMs: 30_000, keepOpen: true });
    advance(10 * 60_000);
    await held.heartbeat();
    await assert.rejects(acquireLock(b, LOCK, { waitMs: 0 }), busy);
    await held.release();
    assert.equal(host.files()[LOCK], undefined, 'released by identity after the rewrite');
  });

  it('a lock from an older sluice (no heartbeat) still goes stale by age', async () => {
    const { host, b, advance } = sharedFolder();
    await host.writeExclusive(LOCK, JSON.stringify({ pid: 5, hostname: 'old-host', acquiredAt: new Date(T0).toISOString() }));
    advance(5 * 60_000);
    await assert.rejects(acquireLock(b, LOCK, { waitMs: 0 }), busy);
    advance(6 * 60_000);
    await (await acquireLock(b, LOCK, { waitMs: 0 })).release();
  });

  it('on the same host, liveness is the pid, whatever the heartbeat says', async () => {
    const { host, advance } = sharedFolder();
    const stamp = new Date(T0).toISOString();
    await host.writeExclusive(LOCK, JSON.stringify({ pid: 31337, hostname: host.hostname(), acquiredAt: stamp, heartbeatAt: stamp, heartbeatMs: 30_000 }));
    host.livePids.add(31337);
    advance(60 * 60_000);
    await assert.rejects(acquireLock(host, LOCK, { waitMs: 0 }), busy, 'a live pid keeps its lock without heartbeats');
    host.livePids.delete(31337);
    await (await acquireLock(host, LOCK, { waitMs: 0 })).release();
  });
});
