import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SluiceError } from '../../core/index.ts';
import type { LifecycleContext } from '../../plugins/lifecycle/lifecycle-context.ts';
import { readWorkflowState, recordBlocked, recordStage } from '../../plugins/lifecycle/record-stage.ts';
import { checkSlug } from '../../plugins/lifecycle/slug.ts';
import { workflowStateFile } from '../../plugins/lifecycle/state/workflow-state-file.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { parseStage } from '../../plugins/lifecycle/transition-table.ts';
import { runCli } from '../helpers/run-cli.ts';
import { gitIn, makeLifecycle, makeRepo, readJson, writeFiles } from './lifecycle-fixture.ts';
import {
  codeBlockAfter,
  hashedV1Package,
  referenceText,
  renderReview,
  retroExample,
  reviewEvents,
  SEED,
  skipUnlessPrizmkit,
  testReportMd,
  testResultJson,
  type Version,
} from './prizmkit-reference.ts';

const SLUG = 'demo';
const DIR = `.prizmkit/specs/${SLUG}`;
const STATE = (slug: string) => `.prizmkit/state/workflows/${slug}.json`;
/** A PrizmKit state file of `slug` (schema_version 1, the requirement's own artifact folder) with `fields`, as writeFiles takes it. */
const prizmkitState = (slug: string, fields: Record<string, unknown>) => ({
  [STATE(slug)]: JSON.stringify({ schema_version: 1, artifact_dir: `.prizmkit/specs/${slug}`, ...fields }),
});
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** The state file as migrated: what it claims, before adoption re-reads any artifact. */
const claims = (lc: LifecycleContext, slug: string) => lc.kernel.store.read(workflowStateFile(lc.root, slug));

async function repo(): Promise<{ root: string; lc: LifecycleContext }> {
  const root = await makeRepo({ 'src/demo.js': 'export const demo = 1;\n' });
  return { root, lc: (await makeLifecycle(root)).lc };
}

/** Plan, implement and a code review written by the version's renderer, all recorded. */
async function reviewed(root: string, lc: LifecycleContext, version: Version): Promise<void> {
  await startRequirement(lc, SLUG);
  await writeFiles(root, {
    [`${DIR}/spec.md`]: '# Demo\n\nGoal.\n',
    [`${DIR}/plan.md`]: '# Plan\n\n## Tasks\n\n- [ ] [T-001] change demo\n- [ ] [CP-FINAL] verify\n',
  });
  await recordStage(lc, SLUG, 'plan', null);
  await writeFiles(root, {
    'src/demo.js': 'export const demo = 2;\n',
    [`${DIR}/plan.md`]: '# Plan\n\n## Tasks\n\n- [x] [T-001] change demo\n- [x] [CP-FINAL] verify\n',
  });
  await recordStage(lc, SLUG, 'implement', null);
  renderReview(version, join(root, DIR, 'review-report.md'), reviewEvents(version, 'PASS'));
  const r = await recordStage(lc, SLUG, 'code-review', null);
  assert.equal(r.state.status, 'REVIEW_PASS');
  assert.equal(r.artifact?.format, version === 'v1' ? 'prizmkit-v1' : version === 'v4' ? 'prizmkit-v4' : 'prizmkit-v2');
}

describe('whole requirements with PrizmKit artifacts, each version ending where it prescribes', { skip: skipUnlessPrizmkit }, () => {
  it('v1: evidence-package TEST_FAIL takes the conservative production route; a fresh package passes; retrospective completes', async () => {
    const { root, lc } = await repo();
    await reviewed(root, lc, 'v1');
    hashedV1Package(root, 'TEST_FAIL', 'src/demo.js');
    const failed = await recordStage(lc, SLUG, 'test', null);
    assert.deepEqual(
      [failed.state.status, failed.state.repair_scope, failed.state.repair_round, failed.state.next_stage],
      ['TEST_FAIL', 'unknown', 1, 'implement'],
    );
    assert.equal(failed.artifact?.format, 'prizmkit-v1');
    await writeFiles(root, { 'src/demo.js': 'export const demo = 3;\n' });
    await recordStage(lc, SLUG, 'implement', null);
    renderReview('v1', join(root, DIR, 'review-report.md'), reviewEvents('v1', 'PASS', 1));
    await recordStage(lc, SLUG, 'code-review', null);
    // The failing package stays; the derived report names the new one (two were made on this HEAD).
    const { id } = hashedV1Package(root, 'TEST_PASS', 'src/demo.js');
    await writeFiles(root, { [`${DIR}/test-report.md`]: `# Test Evidence Report\n\n- Evidence ID: ${id}\n- Verdict: TEST_PASS\n` });
    const passed = await recordStage(lc, SLUG, 'test', null);
    assert.equal(passed.state.status, 'TEST_PASS');
    await writeFiles(root, { [`${DIR}/retrospective-result.json`]: JSON.stringify({ result: 'NO_DOC_CHANGE', summary: 'no durable change' }) });
    const done = await recordStage(lc, SLUG, 'retrospective', null);
    assert.deepEqual([done.state.status, done.state.next_stage, done.state.repair_round], ['RETRO_COMPLETE', 'commit', 1]);
  });

  for (const version of ['v2', 'v3'] as const) {
    it(`${version}: TEST_NEEDS_FIXES routes implement → code-review → test, then the retrospective's own example completes`, async () => {
      const { root, lc } = await repo();
      await reviewed(root, lc, version);
      const fixes = { unresolved: ['demo must be 3'] };
      await writeFiles(root, {
        [`${DIR}/test-result.json`]: JSON.stringify(testResultJson(version, 'TEST_NEEDS_FIXES', fixes)),
        [`${DIR}/test-report.md`]: testReportMd(version, 'TEST_NEEDS_FIXES', fixes),
      });
      const nf = await recordStage(lc, SLUG, 'test', null);
      assert.deepEqual(
        [nf.state.status, nf.state.next_stage, nf.state.repair_round, nf.state.completed_stages],
        ['TEST_NEEDS_FIXES', 'implement', 1, ['plan']],
      );
      await writeFiles(root, { 'src/demo.js': 'export const demo = 3;\n' });
      await recordStage(lc, SLUG, 'implement', null);
      renderReview(version, join(root, DIR, 'review-report.md'), reviewEvents(version, 'PASS', 1));
      await recordStage(lc, SLUG, 'code-review', null);
      await writeFiles(root, {
        [`${DIR}/test-result.json`]: JSON.stringify(testResultJson(version, 'TEST_PASS')),
        [`${DIR}/test-report.md`]: testReportMd(version, 'TEST_PASS'),
      });
      await recordStage(lc, SLUG, 'test', null);
      await writeFiles(root, { [`${DIR}/retrospective-result.json`]: JSON.stringify(retroExample(version)) });
      const done = await recordStage(lc, SLUG, 'retrospective', null);
      assert.deepEqual([done.state.status, done.state.stage_result, done.state.next_stage], ['RETRO_COMPLETE', 'DOCS_UPDATED', 'commit']);
      assert.equal(done.artifact?.format, `prizmkit-${version}`);
    });
  }

  it('v4: a pass that changed production code re-enters code review (repair round 1); RETRO_BLOCKED blocks the workflow', async () => {
    const { root, lc } = await repo();
    await reviewed(root, lc, 'v4');
    const changed = { productionChanged: true };
    await writeFiles(root, {
      [`${DIR}/test-result.json`]: JSON.stringify(testResultJson('v4', 'TEST_PASS', changed)),
      [`${DIR}/test-report.md`]: testReportMd('v4', 'TEST_PASS', changed),
    });
    const reentry = await recordStage(lc, SLUG, 'test', null);
    assert.deepEqual(
      [reentry.state.next_stage, reentry.state.repair_round, reentry.state.repair_scope, reentry.state.stage_result, reentry.state.completed_stages],
      ['code-review', 1, 'production', null, ['plan', 'implement']],
    );
    assert.equal(reentry.state.reroutes.at(-1)?.kind, 'review-reentry');
    renderReview('v4', join(root, DIR, 'review-report.md'), reviewEvents('v4', 'PASS', 1));
    await recordStage(lc, SLUG, 'code-review', null);
    await writeFiles(root, {
      [`${DIR}/test-result.json`]: JSON.stringify(testResultJson('v4', 'TEST_PASS')),
      [`${DIR}/test-report.md`]: testReportMd('v4', 'TEST_PASS'),
    });
    assert.equal((await recordStage(lc, SLUG, 'test', null)).state.status, 'TEST_PASS');
    const blocked = JSON.parse(codeBlockAfter(referenceText('v4', 'prizmkit-retrospective/SKILL.md'), 'A capacity or validation blocker', 'json'));
    await writeFiles(root, { [`${DIR}/retrospective-result.json`]: JSON.stringify(blocked) });
    const r = await recordStage(lc, SLUG, 'retrospective', null);
    assert.deepEqual(
      [r.state.status, r.state.stage_result, r.state.blocker?.rule, r.state.repair_round],
      ['WORKFLOW_BLOCKED', 'RETRO_BLOCKED', 'retro-blocked', 1],
    );
    assert.match(r.state.blocker?.reason ?? '', /^RETRO_BLOCKED: Target/);
  });

  it('the CLI shows the recognised format: `record --json` per file with its hash, `status --json` per stage; `committer` names the commit stage', async () => {
    const { root, lc } = await repo();
    await startRequirement(lc, SLUG);
    await writeFiles(root, { [`${DIR}/spec.md`]: '# Demo\n', [`${DIR}/plan.md`]: '- [ ] [T-001] a\n' });
    await recordStage(lc, SLUG, 'plan', null);
    await writeFiles(root, { 'src/demo.js': 'export const demo = 2;\n', [`${DIR}/plan.md`]: '- [x] [T-001] a\n' });
    await recordStage(lc, SLUG, 'implement', null);
    renderReview('v4', join(root, DIR, 'review-report.md'), reviewEvents('v4', 'PASS'));
    const r = await runCli(['--cwd', root, 'lifecycle', 'record', SLUG, 'code-review', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.artifact.format, 'prizmkit-v4');
    assert.deepEqual(
      out.artifact.files.map((f: { file: string }) => f.file),
      [`${DIR}/review-report.md`],
    );
    assert.equal(out.artifact.files[0].sha256, sha(await readFile(join(root, DIR, 'review-report.md'), 'utf8')));
    assert.equal(out.artifacts['code-review'].format, 'prizmkit-v4');
    const early = await runCli(['--cwd', root, 'lifecycle', 'record', SLUG, 'committer', '--json']);
    assert.equal(early.code, 1);
    assert.match(JSON.parse(early.stdout).error.message, /got commit, the next stage is test/);
  });

  it('v4: a plan with unresolved corrections is PLAN_BLOCKED; IMPLEMENT_BLOCKED records its own result', async () => {
    const { root, lc } = await repo();
    await startRequirement(lc, SLUG);
    const plan = referenceText('v4', 'prizmkit-plan/assets/plan-template.md').replace(
      '- Unresolved Corrections: <none for PLAN_READY>',
      '- Unresolved Corrections: 1',
    );
    await writeFiles(root, { [`${DIR}/spec.md`]: '# Spec\n\nGoal.\n', [`${DIR}/plan.md`]: plan });
    const r = await recordStage(lc, SLUG, 'plan', null);
    assert.deepEqual([r.state.status, r.state.stage_result, r.state.next_stage], ['WORKFLOW_BLOCKED', 'PLAN_BLOCKED', 'plan']);
    const other = await repo();
    await startRequirement(other.lc, SLUG);
    await writeFiles(other.root, { [`${DIR}/spec.md`]: '# Spec\n', [`${DIR}/plan.md`]: '- [ ] [T-001] a\n' });
    await recordStage(other.lc, SLUG, 'plan', null);
    const i = await recordBlocked(other.lc, SLUG, 'implement', 'IMPLEMENT_BLOCKED: spec and plan disagree', null);
    assert.deepEqual([i.state.status, i.state.stage_result], ['WORKFLOW_BLOCKED', 'IMPLEMENT_BLOCKED']);
  });
});

describe('PrizmKit workflow state files, migrated without losing rounds, owner or blocks', { skip: skipUnlessPrizmkit }, () => {
  const example = (text: string) => JSON.parse(codeBlockAfter(text, '## Schema', 'json'));
  it('reads the seed, v1 and v3/v4 examples as the claims they make (the file as migrated, before any artifact is read)', async () => {
    const seed = example(
      (await readFile(SEED!, 'utf8'))
        .split('\n')
        .map((l) => l.replace(/^-/, ''))
        .join('\n'),
    );
    const cases: [string, Record<string, unknown>, string][] = [
      ['seed', seed, 'prizmkit-v2'],
      ['v1', example(referenceText('v1', 'WORKFLOW-STATE.md')), 'prizmkit-v1'],
      ['v3', example(referenceText('v3', 'prizmkit-workflow/references/workflow-state-protocol.md')), 'prizmkit-v3'],
      ['v4', example(referenceText('v4', 'prizmkit-workflow/references/workflow-state-protocol.md')), 'prizmkit-v3'],
    ];
    for (const [name, raw, format] of cases) {
      const { root, lc } = await repo();
      const slug = String(raw.artifact_dir).split('/').pop()!;
      await writeFiles(root, { [STATE(slug)]: JSON.stringify(raw) });
      const s = await claims(lc, slug);
      assert.deepEqual(
        [s.status, s.stage_result, s.next_stage, s.repair_round, s.completed_stages],
        ['TEST_PASS', 'TEST_PASS', 'retrospective', 0, ['plan', 'implement', 'code-review', 'test']],
        name,
      );
      assert.equal(s.orchestrator, (raw.orchestrator as string | undefined) ?? null, name);
      assert.equal((s as { migrated_from?: { format: string } }).migrated_from?.format, format, name);
    }
  });
  it('keeps repair_round, the owner and a block; `committer` is the commit stage', async () => {
    const { root, lc } = await repo();
    await writeFiles(
      root,
      prizmkitState(SLUG, {
        orchestrator: 'prizmkit-workflow',
        stage: 'retrospective',
        status: 'failed',
        stage_result: 'RETRO_BLOCKED',
        completed_stages: ['plan', 'implement', 'code-review', 'test'],
        repair_scope: null,
        repair_round: 2,
        next_stage: 'retrospective',
        resume_from: 'prizmkit-retrospective',
      }),
    );
    const s = await claims(lc, SLUG);
    assert.deepEqual(
      [s.status, s.blocker?.rule, s.blocker?.stage, s.repair_round, s.orchestrator],
      ['WORKFLOW_BLOCKED', 'retro-blocked', 'retrospective', 2, 'prizmkit-workflow'],
    );
    await assert.rejects(recordStage(lc, SLUG, 'retrospective', 'someone-else'), (e: SluiceError) => e.code === 'ORCHESTRATOR_MISMATCH');
    await assert.rejects(
      recordStage(lc, SLUG, 'retrospective', 'prizmkit-workflow'),
      (e: SluiceError) => e.code === 'LIFECYCLE_RULE' && /blocked-until-resolved/.test(e.message),
    );

    await writeFiles(
      root,
      prizmkitState('ready', {
        stage: 'retrospective',
        status: 'RETRO_COMPLETE',
        completed_stages: ['plan', 'implement', 'code-review', 'test', 'retrospective'],
        repair_round: 3,
        repair_scope: null,
        next_stage: 'committer',
        resume_from: 'prizmkit-committer',
      }),
    );
    const ready = await claims(lc, 'ready');
    assert.deepEqual([ready.next_stage, ready.resume_from, ready.repair_round], ['commit', 'prizmkit-committer', 3]);
    assert.equal(parseStage('committer'), 'commit');
  });
  it('a repair in progress survives the first sluice write', async () => {
    const { root, lc } = await repo();
    await writeFiles(root, {
      ...prizmkitState(SLUG, {
        stage: 'implement',
        status: 'IMPLEMENT_REPAIR',
        completed_stages: ['plan'],
        repair_round: 2,
        repair_scope: 'production',
        next_stage: 'implement',
        resume_from: 'prizmkit-implement',
      }),
      [`${DIR}/spec.md`]: '# Spec\n',
      [`${DIR}/plan.md`]: '- [x] [T-001] a\n',
    });
    const r = await recordStage(lc, SLUG, 'implement', null);
    assert.deepEqual([r.state.status, r.state.repair_round, r.state.repair_scope, r.state.next_stage], ['IMPLEMENTED', 2, 'production', 'code-review']);
    const onDisk = await readJson(root, STATE(SLUG));
    assert.equal(onDisk.repair_round, 2);
    assert.ok(Array.isArray(onDisk.reroutes), 'stored in sluice form from now on');
  });
  it('a state file of another artifact folder is a collision: start refuses it and leaves it alone', async () => {
    const { root, lc } = await repo();
    const other = JSON.stringify({
      schema_version: 1,
      artifact_dir: '.prizmkit/bugfix/B-001',
      stage: 'plan',
      status: 'PLAN_READY',
      completed_stages: ['plan'],
      repair_round: 1,
      next_stage: 'implement',
    });
    await writeFiles(root, { [STATE(SLUG)]: other });
    await assert.rejects(
      startRequirement(lc, SLUG),
      (e: SluiceError) => e.code === 'INVARIANT_VIOLATED' && e.field === 'artifact_dir' && /belongs to \.prizmkit\/bugfix\/B-001, not to demo/.test(e.message),
    );
    assert.equal(await readFile(join(root, STATE(SLUG)), 'utf8'), other);
  });
  it('refuses a state file that is neither, naming the field', async () => {
    const { root, lc } = await repo();
    await writeFiles(root, prizmkitState(SLUG, { status: 'DONE', completed_stages: [] }));
    await assert.rejects(
      readWorkflowState(lc, SLUG),
      (e: SluiceError) =>
        e.code === 'STATE_INVALID' &&
        e.exitCode === 2 &&
        e.field === 'status' &&
        /not a sluice or PrizmKit workflow state: status is not a PrizmKit status/.test(e.message) &&
        e.file === STATE(SLUG),
    );
  });
});

describe('requirement identities (PrizmKit v4)', () => {
  it('accepts letters of any script, digits, - and _; refuses ".", edges that are not letters or digits, and overlong names', () => {
    for (const ok of ['070-skill-generated-artifact-contracts', 'B-001', '需求-12', 'ä_b', 'x']) assert.equal(checkSlug(ok), ok);
    for (const bad of ['a.b', '-a', 'a-', '_a', 'a b', '..', 'a/b', 'x'.repeat(97), '需'.repeat(67), 'e\u0301', '']) {
      assert.throws(
        () => checkSlug(bad),
        (e: SluiceError) => e.code === 'SLUG_INVALID' && e.field === 'slug',
        JSON.stringify(bad),
      );
    }
  });
});
