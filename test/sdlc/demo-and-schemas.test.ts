import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliPlugin } from '../../plugins/cli/cli-plugin.ts';
import { runSdlcDemo } from '../../plugins/sdlc/demo.ts';
import { runCommand } from '../../plugins/sdlc/demo/run-command.ts';
import { readState, sdlcKernel, tempDir } from './sdlc-fixture.ts';

describe('sdlc demo', () => {
  it('walks a starter project 0 → close through the commands: blocked once, approvals, re-entry, skip', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    const lines: string[] = [];
    const summary = await runSdlcDemo(kernel, dir, (l) => void lines.push(l));
    assert.deepEqual(summary.phasesWalked, ['0', '1', '2', '3', 'build', '7', '3', 'build', '7', '8', '9', 'close']);
    assert.equal(summary.finalPhase, 'close');
    const state = await readState(kernel);
    assert.equal(summary.historyLength, state.history.length);
    assert.equal(state.history.length, 11);
    assert.equal(summary.approvals, state.history.reduce((n, h) => n + (h.approvals?.length ?? 0), 0));
    const outcomes = summary.steps.map((s) => s.outcome);
    assert.equal(outcomes[1], 'blocked');
    assert.ok(outcomes.includes('reenter') && outcomes.includes('skip'));
    assert.equal(outcomes[outcomes.length - 1], 'complete');
    assert.equal(lines.length, summary.steps.length);
    assert.equal(summary.statePath, `${dir}/.sdlc/state.yaml`);
  });
});

describe('schemas', () => {
  it('`sluice schema` prints JSON Schema for every SDLC format, with field descriptions', async () => {
    const kernel = await sdlcKernel(await tempDir(), { plugins: [cliPlugin] });
    for (const name of ['sdlc-state', 'sdlc-history-entry', 'phase-registry', 'profile', 'compliance']) {
      const out = await runCommand(kernel, 'schema', [name], {});
      assert.equal(out.exitCode, 0, name);
      assert.equal((out.data as { title: string }).title, name);
    }
    const history = (await runCommand(kernel, 'schema', ['sdlc-history-entry'], {})).data as { properties: Record<string, { description?: string }> };
    assert.match(history.properties.approvals.description ?? '', /sign-offs of the manual results/);
    assert.match(history.properties.reentry.description ?? '', /re-entered/);
  });
});
