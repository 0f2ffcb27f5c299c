import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { createKernel } from '../../core/kernel/create-kernel.ts';
import { createMemoryHost } from '../../core/host/memory-host.ts';
import { defaultConfig } from '../../core/config/config-schema.ts';
import { defineDelegate, defineGate, definePlugin } from '../../core/plugin/define.ts';
import type { DelegateAttempt } from '../../core/delegate/contract.ts';
import { defineHook } from '../../core/hooks/define-hook.ts';
import type { HookSpecs } from '../../core/hooks/hook-types.ts';

const kernelTestHooks = { 'test:kernel': defineHook.series<[string[]]>() };
declare module '../../core/hooks/hook-types.ts' {
  interface Hooks extends HookSpecs<typeof kernelTestHooks> {}
}

const host = () => createMemoryHost({ files: { '/project/.keep': '' } });

describe('kernel', () => {
  it('loads pre plugins first and post plugins last, keeping the given order otherwise', async () => {
    const order: string[] = [];
    const p = (name: string, enforce?: 'pre' | 'post') => definePlugin({ name, enforce, setup: () => void order.push(name) });
    const k = await createKernel({ host: host(), plugins: [p('a'), p('late', 'post'), p('b'), p('early', 'pre')] });
    assert.deepEqual(order, ['early', 'a', 'b', 'late']);
    assert.deepEqual(
      k.plugins.map((x) => x.name),
      ['early', 'a', 'b', 'late'],
    );
  });

  it('names the plugin whose setup throws', async () => {
    const bad = definePlugin({
      name: 'acme-broken',
      setup() {
        throw new Error('missing API key');
      },
    });
    await assert.rejects(createKernel({ host: host(), plugins: [bad] }), (e: Error & { code?: string; plugin?: string }) => {
      assert.equal(e.code, 'PLUGIN_LOAD_FAILED');
      assert.equal(e.plugin, 'acme-broken');
      assert.match(e.message, /acme-broken.*missing API key/);
      return true;
    });
  });

  it('times out a plugin whose setup hangs, naming it', async () => {
    const hang = definePlugin({ name: 'acme-hang', setup: () => new Promise(() => {}) });
    const config = { ...defaultConfig(), pluginTimeoutMs: 50 };
    await assert.rejects(createKernel({ host: host(), config, plugins: [hang] }), { code: 'PLUGIN_LOAD_TIMEOUT', plugin: 'acme-hang' });
  });

  it('refuses two plugins registering the same gate type, naming both', async () => {
    const gate = defineGate({ type: 'lint', id: 'X-lint', description: 'lint', input: v.unknown(), check: async () => [] });
    const one = definePlugin({ name: 'one', setup: (ctx) => ctx.registerGate(gate) });
    const two = definePlugin({ name: 'two', setup: (ctx) => ctx.registerGate(gate) });
    await assert.rejects(createKernel({ host: host(), plugins: [one, two] }), /registered by both one and two/);
  });

  it('loads plugins named in the config through the host, after the built-ins', async () => {
    const h = createMemoryHost({
      files: { '/project/.keep': '' },
      modules: { './acme.mjs': { default: definePlugin({ name: 'acme', setup: (ctx) => ctx.registerWorkflow({ name: 'acme-flow', description: 'x' }) }) } },
    });
    const k = await createKernel({ host: h, config: { ...defaultConfig(), plugins: ['./acme.mjs'] } });
    assert.equal(k.workflows.get('acme-flow')?.name, 'acme-flow');
    assert.equal(k.plugins[0].source, './acme.mjs');
  });

  it('reports a config plugin that cannot be resolved, with its name', async () => {
    await assert.rejects(createKernel({ host: host(), config: { ...defaultConfig(), plugins: ['@acme/missing'] } }), {
      code: 'PLUGIN_NOT_FOUND',
      plugin: '@acme/missing',
    });
  });

  it('a plugin hook error during a run names plugin and hook', async () => {
    const declares = definePlugin({ name: 'declarer', setup: (ctx) => ctx.declareHooks(kernelTestHooks) });
    const faulty = definePlugin({
      name: 'faulty',
      setup: (ctx) =>
        ctx.hook('test:kernel', () => {
          throw new Error('nope');
        }),
    });
    const k = await createKernel({ host: host(), plugins: [declares, faulty] });
    await assert.rejects(k.hooks.call('test:kernel', []), { plugin: 'faulty', hook: 'test:kernel' });
  });

  it('runs gates through the queue', async () => {
    const gate = defineGate({
      type: 'exists',
      id: 'X-exists',
      description: 'file exists',
      input: v.object({ file: v.string() }),
      check: async (input, ctx) => [
        { gate: 'X-exists', artifact: input.file, passed: (await ctx.host.stat(input.file)) !== null, message: 'checked', severity: 'MUST' },
      ],
    });
    const k = await createKernel({ host: host(), plugins: [definePlugin({ name: 'g', setup: (ctx) => ctx.registerGate(gate) })] });
    const [r] = await k.runGate('exists', { file: '/project/.keep' });
    assert.equal(r.passed, true);
    assert.equal(k.queue.stats().done, 1);
    await assert.rejects(k.runGate('nope', {}), { code: 'GATE_TYPE_UNKNOWN' });
  });

  describe('delegates', () => {
    const attempts: string[] = [];
    const fake = defineDelegate({
      name: 'fake',
      description: 'in-memory backend',
      available: async () => ({ ok: true }),
      async run(request, ctx): Promise<DelegateAttempt> {
        attempts.push(request.prompt);
        ctx.output(`echo: ${request.prompt}\n`, 'stdout');
        if (request.prompt === 'flaky' && attempts.filter((p) => p === 'flaky').length < 3) {
          return { status: 'error', exitCode: 1, text: '', durationMs: 1, error: 'overloaded', transient: true };
        }
        if (request.prompt === 'silent') return { status: 'ok', exitCode: 0, text: '  ', durationMs: 1 };
        if (request.prompt === 'crash') throw new Error('parser bug');
        return { status: 'ok', exitCode: 0, text: `answer to ${request.prompt}`, durationMs: 1 };
      },
    });
    const offline = defineDelegate({
      name: 'offline',
      description: 'never available',
      available: async () => ({ ok: false, reason: 'offline not on PATH' }),
      run: async () => ({ status: 'ok', exitCode: 0, text: 'x', durationMs: 0 }),
    });
    /** A request for `prompt` in the work folder every kernel here has (`mode` write unless given). */
    const inWork = (prompt: string, mode: 'write' | 'analysis' = 'write') => ({ prompt, mode, cwd: '/project/work' });
    const kernel = async () => {
      const h = host();
      h.livePids.add(1);
      await h.mkdir('/project/work');
      const k = await createKernel({
        host: h,
        plugins: [definePlugin({ name: 'fake-delegates', setup: (ctx) => (ctx.registerDelegate(fake), ctx.registerDelegate(offline)) })],
      });
      return { h, k };
    };

    it('runs through the queue, writes the transcript and emits start/finish', async () => {
      const { h, k } = await kernel();
      const events: string[] = [];
      k.hooks.on('delegate:start', 'test', (e) => void events.push(`start ${e.backend} ${e.attempt}`));
      k.hooks.on('delegate:output', 'test', (e) => void events.push(`output ${e.chunk.trim()}`));
      k.hooks.on('delegate:finish', 'test', (e) => void events.push(`finish ${e.status}`));
      const r = await k.runDelegate('fake', inWork('hello', 'analysis'));
      assert.equal(r.status, 'ok');
      assert.equal(r.text, 'answer to hello');
      assert.equal(r.tries, 1);
      assert.deepEqual(events, ['start fake 1', 'output echo: hello', 'finish ok']);
      assert.match(h.files()[r.transcriptPath], /echo: hello/);
    });

    it('keeps secrets from the environment and API-key shaped strings out of the transcript', async () => {
      const h = createMemoryHost({ files: { '/project/work/.keep': '' }, env: { DEPLOY_TOKEN: 'tok_0123456789abcdef' } });
      const leaky = defineDelegate({
        name: 'leaky',
        description: 'prints secrets',
        available: async () => ({ ok: true }),
        async run(_request, ctx) {
          ctx.output('using tok_0123', 'stdout');
          ctx.output(`456789abcdef and sk-ant-api03-${'Q'.repeat(30)}\n`, 'stdout');
          return { status: 'ok', exitCode: 0, text: 'done', durationMs: 1 };
        },
      });
      const k = await createKernel({ host: h, plugins: [definePlugin({ name: 'leaky', setup: (ctx) => ctx.registerDelegate(leaky) })] });
      const r = await k.runDelegate('leaky', inWork('x'));
      const transcript = h.files()[r.transcriptPath];
      assert.doesNotMatch(transcript, /tok_0123|QQQQ/);
      assert.match(transcript, /using \[REDACTED:DEPLOY_TOKEN\] and \[REDACTED:anthropic-key\]/);
    });

    it('retries only transient failures and says how many tries it took', async () => {
      const { k } = await kernel();
      const r = await k.runDelegate('fake', inWork('flaky'));
      assert.equal(r.status, 'ok');
      assert.equal(r.tries, 3);
    });

    it('treats empty output as a failure', async () => {
      const { k } = await kernel();
      const r = await k.runDelegate('fake', inWork('silent'));
      assert.equal(r.status, 'error');
      assert.match(r.error ?? '', /no output/);
    });

    it('turns a throwing backend into an error result, never an exception', async () => {
      const { k } = await kernel();
      const r = await k.runDelegate('fake', inWork('crash'));
      assert.equal(r.status, 'error');
      assert.match(r.error ?? '', /parser bug/);
    });

    it('an unknown or unavailable backend is an error with exit code 2, never a fallback', async () => {
      const { k } = await kernel();
      await assert.rejects(k.runDelegate('nope', inWork('x')), { code: 'DELEGATE_UNKNOWN', exitCode: 2 });
      await assert.rejects(k.runDelegate('offline', inWork('x')), {
        code: 'DELEGATE_UNAVAILABLE',
        exitCode: 2,
        message: /offline not on PATH/,
      });
    });
  });
});
