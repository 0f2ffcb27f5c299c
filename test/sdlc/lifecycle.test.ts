import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { SdlcStateSchema } from '../../plugins/sdlc/state/state-schema.ts';
import { data, passPhase, readState, signingFor, sdlcKernel, sluice, tempDir, writeCurrentArtifacts } from './sdlc-fixture.ts';
import { cliPlugin } from '../../plugins/cli/cli-plugin.ts';
import { runSdlcDemo } from '../../plugins/sdlc/demo.ts';
import { runCommand } from '../../plugins/sdlc/demo/run-command.ts';

const REFERENCE = '../shared/reference/claude-code-sdlc';
const ORDER = ['0', '1', '2', '3', 'build', '7', '8', '9', 'close'];
const referenceFile = (rel: string) => readFile(join(REFERENCE, rel), 'utf8').catch(() => undefined);

interface NextData {
  status: string;
  unapproved: { id: string }[];
  manual: { id: string; gate: string; severity: string }[];
  results: { gate: string; id?: string; passed: boolean | null; severity: string; framework?: string }[];
}

describe('full lifecycle on the reference registry', () => {
  it('walks a starter project 0 → close, with a skip and a re-entry, keeping history append-only and one phase active', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    const init = await sluice(kernel, 'init', { profile: 'starter', name: 'Claims Intake', type: 'service' });
    assert.equal(init.exitCode, 0);
    const frozenRegistry = await readFile(join(dir, '.sdlc/phase-registry.yaml'), 'utf8');
    const ref = await referenceFile('phases/phase-registry.yaml');
    if (ref) assert.equal(frozenRegistry, ref, 'the registry is frozen byte for byte');

    const visited: string[] = [];
    const seenHistory: unknown[] = [];
    for (;;) {
      const state = await readState(kernel);
      const current = String(state.current_phase);
      visited.push(current);
      // History only grows, earlier entries never change.
      assert.deepEqual(state.history.slice(0, seenHistory.length), seenHistory);
      seenHistory.splice(0, seenHistory.length, ...state.history);
      assert.equal(Object.values(state.phases).filter((p) => p.status === 'active').length, 1);
      if (current === 'close') break;
      if (current === '8') {
        const skip = await sluice(kernel, 'skip', { justification: 'Deployment runs under the client change board', confirmed: true, signedBy: 'Ana Ruiz' });
        assert.equal(skip.exitCode, 0);
        continue;
      }
      if (current === '7' && !state.history.some((h) => h.reentry)) {
        const back = await sluice(kernel, 'reenter', { justification: 'Rollback never exercised in Foundation' }, ['3']);
        assert.equal(back.exitCode, 0, back.human ?? '');
        continue;
      }
      await passPhase(kernel);
    }
    assert.deepEqual(visited, ['0', '1', '2', '3', 'build', '7', '3', 'build', '7', '8', '9', 'close']);

    const state = await readState(kernel);
    assert.ok(v.safeParse(SdlcStateSchema, state).success);
    const moves = state.history.map((h) => `${h.from}>${h.to}${h.reentry ? ' reentry' : ''}${h.skipped ? ' skipped' : ''}`);
    assert.deepEqual(moves, ['0>1', '1>2', '2>3', '3>build', 'build>7', '7>3 reentry', '3>build', 'build>7', '7>8', '8>9 skipped', '9>close']);
    // Every advance records the summary, the full results and each manual gate's approval with its signer.
    for (const h of state.history.filter((e) => !e.reentry && !e.skipped)) {
      assert.ok(h.gate_results && h.results && h.approvals, `entry ${h.from}>${h.to} is complete`);
      assert.equal(h.gate_results.failed, h.results.filter((r) => r.passed === false).length);
      assert.equal(h.gate_results.manual, h.approvals.length, 'one approval per manual result');
      assert.deepEqual(
        h.approvals.map((a) => a.gate).sort(),
        h.results
          .filter((r) => r.passed === null && r.severity !== 'INFO')
          .map((r) => r.id)
          .sort(),
      );
      assert.ok(h.approvals.every((a) => a.signed_by === 'Ana Ruiz' && a.at === h.at));
      assert.equal(h.confirmed_by, 'Ana Ruiz');
    }
    const skip = state.history[9];
    assert.equal(skip.skipped, true);
    assert.equal(skip.justification, 'Deployment runs under the client change board');
    assert.equal(state.phases['8'].status, 'skipped');
    assert.equal(state.history[5].reentry, true);
    assert.equal(state.phases['3'].status, 'completed');
    assert.equal(state.phases.close.status, 'active');
    assert.equal(state.phase_name, 'close');
    for (const id of ORDER.slice(0, -1)) assert.ok(state.phases[id].completed_at, `phase ${id} has completed_at`);

    // The terminal phase is signed off like any other exit; afterwards `next` reports completion and writes nothing.
    await passPhase(kernel);
    const closed = await readState(kernel);
    assert.equal(closed.phases.close.status, 'completed');
    assert.equal(closed.history.at(-1)?.signoff, true);
    assert.ok((closed.history.at(-1)?.approvals ?? []).length > 0, 'the approvals of close are kept');
    const before = await readFile(join(dir, '.sdlc/state.yaml'), 'utf8');
    const done = await sluice(kernel, 'next', { confirmed: true });
    assert.equal(done.exitCode, 0);
    assert.equal(data(done).status, 'complete');
    assert.match(done.human ?? '', /Already complete/);
    assert.equal(await readFile(join(dir, '.sdlc/state.yaml'), 'utf8'), before);
  });

  it('walks the enterprise (microsoft-enterprise) profile with its frozen soc2 gates, G6 criteria and coverage_critical', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    assert.equal((await sluice(kernel, 'init', { profile: 'microsoft-enterprise', type: 'service' })).exitCode, 0);
    const soc2 = await referenceFile('profiles/microsoft-enterprise/compliance/soc2-gates.yaml');
    const frozen = await readFile(join(dir, '.sdlc/compliance/soc2-gates.yaml'), 'utf8');
    if (soc2) assert.equal(frozen, soc2);
    assert.equal((await readState(kernel)).profile_id, 'microsoft-enterprise');

    const manualByPhase: Record<string, string[]> = {};
    let reentered = false;
    let skipped = false;
    for (let guard = 0; guard < 16; guard++) {
      const state = await readState(kernel);
      const current = String(state.current_phase);
      if (current === 'close') break;
      if (current === '2' && !reentered) {
        await passPhase(kernel);
        reentered = true;
        assert.equal(
          (await sluice(kernel, 'reenter', { justification: 'ADR for the queue choice lacks options', ...(await signingFor(kernel)) }, ['2'])).exitCode,
          0,
        );
        continue;
      }
      if (current === '9' && !skipped) {
        skipped = true;
        assert.equal(
          (await sluice(kernel, 'skip', { justification: 'Monitoring is owned by the client SRE team', confirmed: true, ...(await signingFor(kernel)) }))
            .exitCode,
          0,
        );
        continue;
      }
      const { review } = await passPhase(kernel, 'Grace Hopper');
      manualByPhase[current] = (data<NextData>(review).manual ?? []).map((m) => m.id);
      if (current === '1') {
        const soc2Rows = data<NextData>(review).results.filter((r) => r.gate === 'G4-compliance');
        assert.deepEqual(
          soc2Rows.map((r) => [r.id, r.passed]),
          [['soc2-cc6.1-requirements', true]],
        );
      }
    }
    assert.equal(String((await readState(kernel)).current_phase), 'close');
    // Manual gates come from three places: G7 prose conditions, soc2 manual checks and G6 criteria.
    assert.ok(manualByPhase.build.includes('soc2-cc6.1-implementation'));
    assert.ok(manualByPhase.build.includes('soc2-cc8.1-code-review'));
    assert.ok(manualByPhase.build.includes('G6:immutable-state'));
    assert.ok(manualByPhase.build.includes('G3:coverage_critical'), 'coverage_critical without critical paths is a judgement, not a pass');
    assert.ok(manualByPhase['1'].includes('G6:requirement-testability'));
    assert.ok(manualByPhase['2'].includes('G6:adr-completeness'));
    assert.ok(manualByPhase['7'].includes('soc2-cc2.1-documentation'));
    const history = (await readState(kernel)).history;
    assert.ok(history.some((h) => h.reentry && String(h.to) === '2'));
    assert.ok(history.some((h) => h.skipped && String(h.from) === '9'));
  });

  it('next moves by registry order, never id + 1: 3 → build → 7', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init', { type: 'library' });
    for (let i = 0; i < 4; i++) await passPhase(kernel);
    assert.equal(String((await readState(kernel)).current_phase), 'build');
    await passPhase(kernel);
    const state = await readState(kernel);
    assert.equal(String(state.current_phase), '7');
    assert.equal(state.phase_name, 'documentation');
    // A library has no RUNBOOK: those rows are shown as INFO and not required.
    await writeCurrentArtifacts(kernel);
    const gate = await sluice(kernel, 'gate');
    const rows = data<NextData>(gate).results.filter((r) => r.id === 'G1:RUNBOOK.md' || r.id === 'G1:runbook-walkthrough.md');
    assert.deepEqual(
      rows.map((r) => r.severity),
      ['INFO', 'INFO'],
    );
    assert.equal(gate.exitCode, 0);
  });
});

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
    assert.equal(state.history.length, 12, 'ten moves and the sign-off of close');
    assert.equal(state.phases.close.status, 'completed');
    assert.equal(
      summary.approvals,
      state.history.reduce((n, h) => n + (h.approvals?.length ?? 0), 0),
    );
    const outcomes = summary.steps.map((s) => s.outcome);
    assert.equal(outcomes[1], 'blocked');
    assert.ok(outcomes.includes('reenter') && outcomes.includes('skip'));
    assert.deepEqual(outcomes.slice(-2), ['signed-off', 'complete']);
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
      assert.equal((out.data as { schema: { title: string } }).schema.title, name);
    }
    const history = (
      (await runCommand(kernel, 'schema', ['sdlc-history-entry'], {})).data as { schema: { properties: Record<string, { description?: string }> } }
    ).schema;
    assert.match(history.properties.approvals.description ?? '', /sign-offs of the manual results/);
    assert.match(history.properties.reentry.description ?? '', /re-entered/);
  });
});
