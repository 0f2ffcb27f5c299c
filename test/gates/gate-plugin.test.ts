import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { createKernel, createMemoryHost, defineGate, gateData, gatePlugin, type GateContext, type GateResult } from '../../core/index.ts';
import { consistencyGate, type ConsistencyData } from '../../gates/consistency-gate.ts';
import { gateTypePlugins } from '../../gates/index.ts';

const memoryKernel = (plugins: Parameters<typeof createKernel>[0]['plugins']) =>
  createKernel({ host: createMemoryHost({ cwd: '/project', files: { '/project/.keep': '' } }), projectRoot: '/project', plugins });

describe('gatePlugin', () => {
  it('names a built-in gate sluice:gate-<type>, a third-party one as its author says, and provides exactly that gate', async () => {
    const gate = defineGate({ type: 'acme-licence', id: 'ACME-licence', description: 'licences', input: v.object({}), check: async () => [] });
    assert.equal(gatePlugin(gate).name, 'sluice:gate-acme-licence');
    const kernel = await memoryKernel([gatePlugin(gate, { name: 'acme-gates' })]);
    assert.deepEqual(
      kernel.gates.entries().map((e) => [e.plugin, e.value.type]),
      [['acme-gates', 'acme-licence']],
    );
  });

  it('every built-in gate is its own plugin, named after the one gate type it provides', async () => {
    const kernel = await memoryKernel(gateTypePlugins);
    const byPlugin = kernel.gates.entries().map((e) => [e.plugin, `sluice:gate-${e.value.type}`]);
    assert.equal(byPlugin.length, gateTypePlugins.length);
    for (const [plugin, expected] of byPlugin) assert.equal(plugin, expected);
  });
});

describe('gate input and data, checked by the kernel', () => {
  it('refuses an input the gate does not accept before its check runs, naming the plugin, the gate and the field', async () => {
    let ran = 0;
    const gate = defineGate({
      type: 'acme-review',
      id: 'ACME-review',
      description: 'board review',
      input: v.object({ reviewers: v.array(v.string()) }),
      check: async () => (ran++, []),
    });
    const kernel = await memoryKernel([gatePlugin(gate, { name: 'acme-gates' })]);
    await assert.rejects(kernel.runGate('acme-review', { reviewers: ['Kim', 3] }), (e: Error & Record<string, unknown>) => {
      assert.equal(e.code, 'GATE_INPUT_INVALID');
      assert.equal(e.plugin, 'acme-gates');
      assert.equal(e.field, 'reviewers.1');
      assert.equal((e as unknown as { exitCode: number }).exitCode, 2);
      assert.match(e.message, /^GATE_INPUT_INVALID: field reviewers\.1, plugin acme-gates: gate acme-review \(ACME-review\) does not accept this input: .+$/);
      return true;
    });
    assert.equal(ran, 0, 'the check never ran');
    await kernel.runGate('acme-review', { reviewers: ['Kim'] });
    assert.equal(ran, 1);
  });

  it('gives the check the parsed input and a context of host, project root and signal, without the kernel', async () => {
    let seen: { input?: unknown; ctx?: string[] } = {};
    const gate = defineGate({
      type: 'seen',
      id: 'X-seen',
      description: 'records what it got',
      input: v.object({ limit: v.optional(v.number(), 3) }),
      async check(input, ctx: GateContext) {
        seen = { input, ctx: Object.keys(ctx).sort() };
        return [];
      },
    });
    const kernel = await memoryKernel([gatePlugin(gate)]);
    await kernel.runGate('seen', {});
    assert.deepEqual(seen, { input: { limit: 3 }, ctx: ['host', 'projectRoot', 'signal'] });
  });

  it("G5 hands the metrics it will lock as typed data on its 'metrics to lock' row", async () => {
    const kernel = await memoryKernel([gatePlugin(consistencyGate)]);
    const rows = await kernel.runGate('consistency', {
      projectRoot: '/project',
      locked: {},
      profileMetrics: { 'quality.coverage_minimum': { value: 60, source: '.sdlc/profile.yaml' } },
      artifactDirs: [],
    });
    const data = gateData<ConsistencyData>(consistencyGate, rows);
    assert.deepEqual(data, { metrics: { 'quality.coverage_minimum': { value: 60, source: '.sdlc/profile.yaml' } } });
    assert.equal(rows.filter((r) => r.data !== undefined).length, 1, 'one row carries the data');
  });

  it('a gate whose rows carry data its schema does not declare is reported as that plugin’s bug', async () => {
    const gate = defineGate({
      type: 'sloppy',
      id: 'X-sloppy',
      description: 'bad data',
      input: v.unknown(),
      data: v.object({ count: v.number() }),
      check: async () => [
        { gate: 'X-sloppy', passed: true, message: 'ok', severity: 'INFO', data: { count: 'three' } } as unknown as GateResult<{ count: number }>,
      ],
    });
    const kernel = await memoryKernel([gatePlugin(gate, { name: 'acme-sloppy' })]);
    await assert.rejects(kernel.runGate('sloppy', undefined), { code: 'INTERNAL', plugin: 'acme-sloppy', field: '0.data.count' });
  });
});
