import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HookDriver } from '../../core/hooks/hook-driver.ts';
import { defineHook } from '../../core/hooks/define-hook.ts';
import type { HookSpecs } from '../../core/hooks/hook-types.ts';
import { SluiceError } from '../../core/errors/sluice-error.ts';

/** Each hook declared once: the kind the driver runs and the types handlers are checked against. */
const testHooks = {
  'test:series': defineHook.series<[string[]]>(),
  'test:parallel': defineHook.parallel<[string[]]>(),
  'test:first': defineHook.first<[number], string>(),
  'test:waterfall': defineHook.waterfall<[number, string]>(),
  'test:observer': defineHook.parallel<[string[]]>({ observer: true }),
  'test:slow': defineHook.series<[]>({ timeoutMs: 30 }),
};

declare module '../../core/hooks/hook-types.ts' {
  interface Hooks extends HookSpecs<typeof testHooks> {}
}

function driver(errors: SluiceError[] = []) {
  const d = new HookDriver({ onObserverError: (e) => errors.push(e) });
  d.declareAll(testHooks, 'test');
  return d;
}

describe('hook driver', () => {
  it('runs series handlers by order, then registration order, mixing sync and async', async () => {
    const d = driver();
    d.on('test:series', 'b', (log) => void log.push('b'));
    d.on('test:series', 'late', async (log) => void log.push('late'), { order: 10 });
    d.on('test:series', 'early', async (log) => void log.push('early'), { order: -5 });
    d.on('test:series', 'c', (log) => void log.push('c'));
    const log: string[] = [];
    await d.call('test:series', log);
    assert.deepEqual(log, ['early', 'b', 'c', 'late']);
  });

  it('names the plugin and the hook when a handler fails', async () => {
    const d = driver();
    d.on('test:series', 'good', () => {});
    d.on('test:series', 'acme-gates', () => {
      throw new Error('boom');
    });
    await assert.rejects(d.call('test:series', []), (e: unknown) => {
      assert.ok(e instanceof SluiceError);
      assert.equal(e.plugin, 'acme-gates');
      assert.equal(e.hook, 'test:series');
      assert.match(e.message, /acme-gates/);
      assert.match(e.message, /test:series/);
      assert.match(e.message, /boom/);
      return true;
    });
  });

  it('decorates async rejections the same way', async () => {
    const d = driver();
    d.on('test:parallel', 'slowpoke', async () => Promise.reject(new Error('late failure')));
    await assert.rejects(d.call('test:parallel', []), { plugin: 'slowpoke', hook: 'test:parallel' });
  });

  it('reports an observer failure without stopping the other observers', async () => {
    const errors: SluiceError[] = [];
    const d = driver(errors);
    d.on('test:observer', 'logger', () => {
      throw new Error('disk full');
    });
    d.on('test:observer', 'progress', async (log) => void log.push('progress ran'));
    const log: string[] = [];
    await d.call('test:observer', log);
    assert.deepEqual(log, ['progress ran']);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].plugin, 'logger');
    assert.match(errors[0].message, /disk full/);
  });

  it('first: the first non-empty answer wins and later handlers do not run', async () => {
    const d = driver();
    const ran: string[] = [];
    d.on('test:first', 'skip', (n) => void ran.push(`skip ${n}`));
    d.on('test:first', 'null', async () => (ran.push('null'), null));
    d.on('test:first', 'winner', async (n) => (ran.push('winner'), `answer ${n}`));
    d.on('test:first', 'never', () => (ran.push('never'), 'too late'));
    assert.equal(await d.call('test:first', 7), 'answer 7');
    assert.deepEqual(ran, ['skip 7', 'null', 'winner']);
  });

  it('first: resolves undefined when nobody answers', async () => {
    const d = driver();
    d.on('test:first', 'quiet', () => undefined);
    assert.equal(await d.call('test:first', 1), undefined);
  });

  it('waterfall: each handler gets the previous value; undefined keeps it', async () => {
    const d = driver();
    d.on('test:waterfall', 'double', (n) => n * 2);
    d.on('test:waterfall', 'noop', () => undefined);
    d.on('test:waterfall', 'plus', async (n, by) => n + Number(by));
    assert.equal(await d.call('test:waterfall', 5, '3'), 13);
  });

  it('parallel: handlers run at the same time', async () => {
    const d = driver();
    let active = 0;
    let peak = 0;
    for (const name of ['a', 'b', 'c']) {
      d.on('test:parallel', name, async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 10));
        active--;
      });
    }
    await d.call('test:parallel', []);
    assert.equal(peak, 3);
  });

  it('fails a handler that exceeds the hook timeout with HOOK_TIMEOUT', async () => {
    const d = driver();
    d.on('test:slow', 'sleepy', () => new Promise((r) => setTimeout(r, 500)));
    await assert.rejects(d.call('test:slow'), { code: 'HOOK_TIMEOUT', plugin: 'sleepy', hook: 'test:slow' });
  });

  it('returns at once for a hook with no handlers, passing a waterfall value through', async () => {
    const d = driver();
    assert.equal(d.hasHandlers('test:series'), false);
    await d.call('test:series', []);
    assert.equal(await d.call('test:waterfall', 42, 'x'), 42);
  });

  it('refuses undeclared hooks, naming the plugin', () => {
    const d = driver();
    assert.throws(() => d.on('nope:hook' as 'test:series', 'stray', () => {}), { code: 'HOOK_UNDECLARED', plugin: 'stray' });
  });

  it('keeps the kind fixed at declaration', () => {
    const d = driver();
    // A typed plugin cannot even write this (the kind comes from the hook's one declaration); a JS plugin is refused at run time.
    // @ts-expect-error 'test:series' is a series hook
    assert.throws(() => d.declare('test:series', { kind: 'parallel' }, 'other'), /already declared as series/);
  });

  it('interceptors see every handler call with timing and errors', async () => {
    const d = driver();
    const seen: string[] = [];
    d.intercept({
      beforeEach: (e) => seen.push(`before ${e.plugin}`),
      afterEach: (e) => seen.push(`after ${e.plugin}${e.error ? ' failed' : ''} ${e.durationMs >= 0}`),
    });
    d.on('test:series', 'one', () => {});
    d.on('test:series', 'two', async () => {});
    await d.call('test:series', []);
    assert.deepEqual(seen, ['before one', 'after one true', 'before two', 'after two true']);
  });

  it('unsubscribes a handler', async () => {
    const d = driver();
    const log: string[] = [];
    const off = d.on('test:series', 'temp', (l) => void l.push('temp'));
    off();
    await d.call('test:series', log);
    assert.deepEqual(log, []);
  });
});
