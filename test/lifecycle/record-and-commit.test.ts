import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SluiceError, type CommandIO } from '../../core/index.ts';
import { runCommitStage } from '../../plugins/lifecycle/commit/commit-stage.ts';
import { signCommitGrant } from '../../plugins/lifecycle/commit/signed-grant.ts';
import type { LifecycleContext } from '../../plugins/lifecycle/lifecycle-context.ts';
import { readWorkflowState, recordStage } from '../../plugins/lifecycle/record-stage.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { evidence, gitIn, GRANT_CONFIG, makeLifecycle, makeRepo, writeFiles } from './lifecycle-fixture.ts';

const SLUG = 'feature';

/** A requirement recorded through plan … retrospective, with its code and a commit request written. */
async function readyToCommit(root: string, lc: LifecycleContext, paths = ['src/feature.js', '.prizmkit/specs/feature']) {
  await startRequirement(lc, SLUG);
  const steps: [Record<string, string>, 'plan' | 'implement' | 'code-review' | 'test' | 'retrospective'][] = [
    [evidence.plan(SLUG), 'plan'],
    [evidence.implement(SLUG), 'implement'],
    [evidence.review(SLUG, 'PASS'), 'code-review'],
    [evidence.test(SLUG, 'TEST_PASS'), 'test'],
    [evidence.retrospective(SLUG), 'retrospective'],
  ];
  for (const [files, stage] of steps) {
    await writeFiles(root, files);
    await recordStage(lc, SLUG, stage, null);
  }
  await writeFiles(root, evidence.commitRequest(SLUG, paths));
}

async function refusedCommit(lc: LifecycleContext, reason: RegExp, io?: CommandIO) {
  await assert.rejects(runCommitStage(lc, SLUG, null, io ? { io } : {}), (e: unknown) => {
    assert.ok(e instanceof SluiceError);
    assert.equal(e.code, 'COMMIT_NOT_AUTHORIZED');
    assert.equal(e.exitCode, 1);
    assert.match(e.message, reason);
    return true;
  });
  const state = await readWorkflowState(lc, SLUG);
  assert.equal(state.status, 'COMMIT_PENDING', 'an unauthorized commit leaves the requirement pending');
  assert.equal(state.commit, null);
}

const headCount = (root: string) => Number(gitIn(root, 'rev-list', '--count', 'HEAD').trim());
const fakeIo = (answer: boolean, log: string[] = []): CommandIO => ({
  json: false,
  interactive: true,
  style: { bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s, cyan: (s) => s },
  print: () => {},
  warn: (line) => void log.push(line),
  progress: () => ({ update() {}, done() {} }),
  choose: async () => '',
  confirm: async (q) => (log.push(`? ${q}`), answer),
});

describe('commit authorization', () => {
  it('without any grant and without a terminal: COMMIT_NOT_AUTHORIZED, nothing committed', async () => {
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root, { SLUICE_COMMIT_GRANT: undefined });
    await readyToCommit(root, lc);
    await refusedCommit(lc, /no terminal to confirm on/);
    assert.equal(headCount(root), 1);
  });

  it('refuses self-declared authorization: in the commit request, in an unsigned environment grant, in an uncommitted config', async () => {
    const root = await makeRepo();
    const forged = Buffer.from(JSON.stringify({ mode: 'agent', owner: 'me', local_commit_authorized: true })).toString('base64url');
    const { lc } = await makeLifecycle(root, { SLUICE_COMMIT_GRANT: `${forged}.${'0'.repeat(64)}`, LOCAL_COMMIT_AUTHORIZED: 'true' });
    await readyToCommit(root, lc);
    await writeFiles(root, evidence.commitRequest(SLUG, ['src/feature.js'], { local_commit_authorized: true, mode: 'headless', owner: 'agent' }));
    await writeFiles(root, { 'sluice.config.yaml': GRANT_CONFIG });
    await refusedCommit(lc, /sluice\.config\.yaml is ignored because the file is not committed.*SLUICE_COMMIT_GRANT cannot be verified/);
    gitIn(root, 'add', 'sluice.config.yaml');
    gitIn(root, 'commit', '-q', '-m', 'config without grant', '--allow-empty');
    await writeFiles(root, { 'sluice.config.yaml': `${GRANT_CONFIG}# edited by the agent\n` });
    await refusedCommit(lc, /modified since the last commit/);
    assert.equal(headCount(root), 2);
  });

  it('a committed config grant commits exactly the requested paths, leaving other changes and the index alone', async () => {
    const root = await makeRepo({ 'sluice.config.yaml': GRANT_CONFIG, 'src/other.js': 'old\n', 'notes.txt': 'old\n' });
    const { lc } = await makeLifecycle(root);
    await readyToCommit(root, lc, ['src/feature.js', '.prizmkit/specs/feature']);
    await writeFiles(root, { 'src/other.js': 'someone else is editing\n', 'scratch.txt': 'untracked\n', 'notes.txt': 'staged by a person\n' });
    gitIn(root, 'add', 'notes.txt');
    const result = await runCommitStage(lc, SLUG, null);
    assert.equal(result.state.status, 'COMMITTED');
    assert.deepEqual(result.state.commit?.authorized_by, { source: 'config', mode: 'headless-ci', owner: 'ci.example' });
    const files = gitIn(root, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort();
    assert.deepEqual(files, [
      '.prizmkit/specs/feature/commit-request.json',
      '.prizmkit/specs/feature/plan.md',
      '.prizmkit/specs/feature/retrospective-result.json',
      '.prizmkit/specs/feature/review-report.md',
      '.prizmkit/specs/feature/spec.md',
      '.prizmkit/specs/feature/test-output.txt',
      '.prizmkit/specs/feature/verdict.json',
      'src/feature.js',
    ]);
    assert.match(gitIn(root, 'log', '-1', '--format=%B'), /Lifecycle-Requirement: feature/);
    const status = gitIn(root, 'status', '--porcelain').split('\n').filter(Boolean).sort();
    assert.deepEqual(status, ['?? scratch.txt', 'M  notes.txt', ' M src/other.js'].sort(), 'other work is neither committed nor unstaged');
  });

  it('refuses a request naming a file without changes (ARTIFACT_INVALID naming the path)', async () => {
    const root = await makeRepo({ 'sluice.config.yaml': GRANT_CONFIG });
    const { lc } = await makeLifecycle(root);
    await readyToCommit(root, lc, ['src/feature.js', 'README.md']);
    await assert.rejects(runCommitStage(lc, SLUG, null), (e: SluiceError) => e.code === 'ARTIFACT_INVALID' && e.field === 'paths.1' && /README\.md has no uncommitted change/.test(e.message));
  });

  it('interactive: previews the exact files and message, commits only after an explicit yes', async () => {
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root, { SLUICE_COMMIT_GRANT: undefined });
    await readyToCommit(root, lc, ['src/feature.js']);
    const log: string[] = [];
    await refusedCommit(lc, /not confirmed/, fakeIo(false, log));
    assert.match(log.join('\n'), /Commit for feature[\s\S]*feat\(feature\): add feature[\s\S]*Lifecycle-Requirement: feature[\s\S]*1 file:\n\s+A\s+src\/feature\.js/);
    const done = await runCommitStage(lc, SLUG, null, { io: fakeIo(true) });
    assert.equal(done.state.commit?.authorized_by.source, 'interactive');
    assert.equal(headCount(root), 2);
  });

  it('an HMAC-signed environment grant verified with the operator key file commits; a wrong key, an expired or a foreign grant does not', async () => {
    const keyDir = await mkdtemp(join(tmpdir(), 'sluice-key-'));
    const keyFile = join(keyDir, 'commit-grant.key');
    await writeFile(keyFile, 'operator-secret-0123456789abcdef\n');
    const grant = { mode: 'headless-ci', owner: 'runner-7', local_commit_authorized: true as const };
    const attempt = async (value: string, ok: boolean, reason?: RegExp) => {
      const root = await makeRepo();
      const { lc } = await makeLifecycle(root, { SLUICE_COMMIT_GRANT: value });
      await readyToCommit(root, lc, ['src/feature.js']);
      if (!ok) return refusedCommit(lc, reason!);
      const r = await runCommitStage(lc, SLUG, null, { grantKeyFile: keyFile });
      assert.deepEqual(r.state.commit?.authorized_by, { source: 'signed-env', mode: 'headless-ci', owner: 'runner-7' });
    };
    await attempt(signCommitGrant(grant, 'operator-secret-0123456789abcdef'), true);
    // refusedCommit runs without the test key file: the default location has no key here.
    await attempt(signCommitGrant(grant, 'operator-secret-0123456789abcdef'), false, /cannot be verified: no key/);
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root, { SLUICE_COMMIT_GRANT: signCommitGrant(grant, 'agent-made-key-0123456789abcdef') });
    await readyToCommit(root, lc, ['src/feature.js']);
    await assert.rejects(runCommitStage(lc, SLUG, null, { grantKeyFile: keyFile }), /invalid signature/);
    const expired = await makeRepo();
    const e = await makeLifecycle(expired, { SLUICE_COMMIT_GRANT: signCommitGrant({ ...grant, expires_at: '2020-01-01T00:00:00Z' }, 'operator-secret-0123456789abcdef') });
    await readyToCommit(expired, e.lc, ['src/feature.js']);
    await assert.rejects(runCommitStage(e.lc, SLUG, null, { grantKeyFile: keyFile }), /expired/);
    const other = await makeRepo();
    const o = await makeLifecycle(other, { SLUICE_COMMIT_GRANT: signCommitGrant({ ...grant, requirements: ['another'] }, 'operator-secret-0123456789abcdef') });
    await readyToCommit(other, o.lc, ['src/feature.js']);
    await assert.rejects(runCommitStage(o.lc, SLUG, null, { grantKeyFile: keyFile }), /does not list feature/);
  });

  it('a commit made just before a crash is found by its trailer and recorded, not made again', async () => {
    // The crash window: the commit is in git, the state still says COMMIT_PENDING.
    const root2 = await makeRepo();
    const second = await makeLifecycle(root2, { SLUICE_COMMIT_GRANT: undefined });
    await readyToCommit(root2, second.lc, ['src/feature.js']);
    await refusedCommit(second.lc, /no terminal/);
    gitIn(root2, 'add', 'src/feature.js');
    gitIn(root2, 'commit', '-q', '-m', 'feat: made by sluice before the crash', '--trailer', 'Lifecycle-Requirement: feature');
    const r = await runCommitStage(second.lc, SLUG, null);
    assert.equal(r.state.status, 'COMMITTED');
    assert.equal(r.state.commit?.authorized_by.source, 'recovered');
    assert.equal(headCount(root2), 2);
  });
});

describe('orchestrator ownership', () => {
  it('only the recorded orchestrator advances; a direct call reports the next invocation without claiming it ran', async () => {
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root);
    await startRequirement(lc, SLUG, { orchestrator: 'prizmkit-workflow' });
    await writeFiles(root, evidence.plan(SLUG));
    await assert.rejects(recordStage(lc, SLUG, 'plan', null), (e: SluiceError) => e.code === 'ORCHESTRATOR_MISMATCH' && e.exitCode === 1 && /orchestrator-ownership/.test(e.message));
    await assert.rejects(recordStage(lc, SLUG, 'plan', 'someone-else'), (e: SluiceError) => e.code === 'ORCHESTRATOR_MISMATCH');
    const r = await recordStage(lc, SLUG, 'plan', 'prizmkit-workflow');
    assert.deepEqual(r.next, { stage: 'implement', skill: 'prizmkit-implement', blocked: false, command: 'sluice lifecycle record feature implement --orchestrator prizmkit-workflow', ran: false });
    assert.equal((await readWorkflowState(lc, SLUG)).status, 'PLAN_READY', 'the next stage was reported, not run');
  });
  it('artifact_dir never changes once set, and the state file is left untouched by a refused write', async () => {
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root);
    await startRequirement(lc, SLUG);
    const path = join(root, '.prizmkit/state/workflows/feature.json');
    const before = await readFile(path, 'utf8');
    const { applyTransition } = await import('../../plugins/lifecycle/record-stage.ts');
    await assert.rejects(applyTransition(lc, SLUG, null, (s) => ({ ok: true, state: { ...s, artifact_dir: '.prizmkit/bugfix/feature' }, row: 'test' })), (e: SluiceError) => e.code === 'INVARIANT_VIOLATED' && /artifact_dir is fixed/.test(e.message));
    await assert.rejects(startRequirement(lc, SLUG, { kind: 'bugfix' }), (e: SluiceError) => e.code === 'INVARIANT_VIOLATED');
    await assert.rejects(applyTransition(lc, SLUG, null, (s) => ({ ok: true, state: { ...s, repair_round: 4 }, row: 'test' })), (e: SluiceError) => e.code === 'INVARIANT_VIOLATED' && e.field === 'repair_round');
    assert.equal(await readFile(path, 'utf8'), before);
  });
});
