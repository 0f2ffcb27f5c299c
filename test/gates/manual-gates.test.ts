import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GateResult } from '../../core/index.ts';
import { data, sdlcKernel, sluice, tempDir, walkTo, writeCurrentArtifacts } from '../sdlc/sdlc-fixture.ts';

describe('manual judgements: G6-quality and G7-exit-criteria', () => {
  it('never pass by default, keep stable ids across runs, and map fail/warn to MUST/SHOULD', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init', { profile: 'enterprise', type: 'service' });
    await walkTo(kernel, '2');
    await writeCurrentArtifacts(kernel);
    const rows = async () => data<{ results: GateResult[] }>(await sluice(kernel, 'gate')).results.filter((r) => r.gate === 'G6-quality' || r.gate === 'G7-exit-criteria');
    const a = await rows();
    const b = await rows();
    assert.deepEqual(a.map((r) => r.id), b.map((r) => r.id));
    assert.ok(a.every((r) => r.passed === null));
    const g6 = Object.fromEntries(a.filter((r) => r.gate === 'G6-quality').map((r) => [r.id, r.severity]));
    assert.deepEqual(g6, { 'G6:adr-completeness': 'MUST', 'G6:interface-contract-specificity': 'SHOULD' });
    assert.deepEqual(a.filter((r) => r.gate === 'G7-exit-criteria').map((r) => r.id), [
      'G7:architecture-diagrams-rendered-as-html-not-ascii',
      'G7:if-deep-plan-was-used-deep-plan-checkpoint-yaml',
      'G7:design-level-threat-review-done-and-its-guarded',
    ]);
  });

  it('approvals are per gate: approving some leaves the others listed, and history records each with its signer', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    await writeCurrentArtifacts(kernel);
    const ids = data<{ unapproved: string[] }>(await sluice(kernel, 'next')).unapproved;
    const partial = await sluice(kernel, 'next', { approve: [ids[0], ids[2]], signedBy: 'Kim', confirmed: true });
    assert.equal(partial.exitCode, 1);
    assert.deepEqual(data<{ unapproved: string[] }>(partial).unapproved, [ids[1], ids[3]]);
    const done = await sluice(kernel, 'next', { approve: ids, signedBy: 'Kim', confirmed: true, justification: 'Discovery signed off in the steering meeting' });
    assert.equal(done.exitCode, 0);
    const entry = data<{ entry: { approvals: { gate: string; signed_by: string }[]; justification: string; gate_results: { manual: number } } }>(done).entry;
    assert.deepEqual(entry.approvals.map((a) => [a.gate, a.signed_by]), ids.map((id) => [id, 'Kim']));
    assert.equal(entry.justification, 'Discovery signed off in the steering meeting');
    assert.equal(entry.gate_results.manual, 4);
  });
});
