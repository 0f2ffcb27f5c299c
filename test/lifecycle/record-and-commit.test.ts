import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SluiceError, type CommandIO } from '../../core/index.ts';
import { execFileSync } from 'node:child_process';
import { computeCommitIntent } from '../../plugins/lifecycle/commit/commit-intent.ts';
import { recordIntent, runCommitStage } from '../../plugins/lifecycle/commit/commit-stage.ts';
import { signCommitGrant } from '../../plugins/lifecycle/commit/signed-grant.ts';
import type { LifecycleContext } from '../../plugins/lifecycle/lifecycle-context.ts';
import { readWorkflowState, recordStage } from '../../plugins/lifecycle/record-stage.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { recordSteps, throughRetrospective } from '../helpers/recorded-requirement.ts';
import { evidence, gitIn, GRANT_CONFIG, makeLifecycle, makeRepo, userGrantFile, writeFiles } from './lifecycle-fixture.ts';

const SLUG = 'feature';

/** A requirement recorded through plan … retrospective, with its code and a commit request written. */
async function readyToCommit(root: string, lc: LifecycleContext, paths = ['src/feature.js', '.prizmkit/specs/feature']) {
  await startRequirement(lc, SLUG);
  await recordSteps(root, lc, SLUG, throughRetrospective(SLUG));
  await writeFiles(root, evidence.commitRequest(SLUG, paths));
}

/** sluice's environment without a commit grant (whatever the machine running the tests has). */
const NO_GRANT = { SLUICE_COMMIT_GRANT: undefined };

/** A new repository with SLUG ready to commit `paths` (readyToCommit), sluice's environment holding `env`. */
async function repoReadyToCommit(paths?: string[], env: Record<string, string | undefined> = {}) {
  const root = await makeRepo();
  const { lc } = await makeLifecycle(root, env);
  await readyToCommit(root, lc, paths);
  return { root, lc };
}

/** A key file that does not exist: the refusals must not depend on whether this machine's user has a real grant key. */
const MISSING_KEY_FILE = join(tmpdir(), `sluice-no-grant-key-${process.pid}`, 'commit-grant.key');

async function refusedCommit(lc: LifecycleContext, reason: RegExp, io?: CommandIO, code = 'COMMIT_NOT_AUTHORIZED') {
  await assert.rejects(runCommitStage(lc, SLUG, null, { ...(io ? { io } : {}), grantKeyFile: MISSING_KEY_FILE }), (e: unknown) => {
    assert.ok(e instanceof SluiceError);
    assert.equal(e.code, code);
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
    const { root, lc } = await repoReadyToCommit(undefined, NO_GRANT);
    await refusedCommit(lc, /no terminal to confirm on/);
    assert.equal(headCount(root), 1);
  });

  it('refuses self-declared authorization: in the commit request, in an unsigned environment grant, in a project config committed or not', async () => {
    const root = await makeRepo({ 'sluice.config.yaml': GRANT_CONFIG });
    const forged = Buffer.from(JSON.stringify({ mode: 'agent', owner: 'me', local_commit_authorized: true })).toString('base64url');
    const { lc } = await makeLifecycle(root, { SLUICE_COMMIT_GRANT: `${forged}.${'0'.repeat(64)}`, LOCAL_COMMIT_AUTHORIZED: 'true' });
    await readyToCommit(root, lc);
    await writeFiles(root, evidence.commitRequest(SLUG, ['src/feature.js'], { local_commit_authorized: true, mode: 'headless', owner: 'agent' }));
    // A committed, unmodified project config with a grant: the agent could have committed it; refused.
    await refusedCommit(lc, /sluice\.config\.yaml is ignored: a grant never comes from a file inside the work tree.*SLUICE_COMMIT_GRANT cannot be verified/);
    assert.equal(headCount(root), 1);
  });

  it('a project config grant written during the lifecycle is refused too', async () => {
    const { root, lc } = await repoReadyToCommit(['src/feature.js'], NO_GRANT);
    await writeFiles(root, { 'sluice.config.yaml': GRANT_CONFIG });
    await refusedCommit(lc, /sluice\.config\.yaml is ignored: a grant never comes from a file inside the work tree/);
    assert.equal(headCount(root), 1);
  });

  it('a committed file edited after review and test sends the requirement back to code review; other files do not', async () => {
    const { root, lc } = await repoReadyToCommit(['src/feature.js']);
    await writeFiles(root, { 'src/unrelated.js': 'a parallel requirement at work\n' });
    await refusedCommit(lc, /no terminal/);
    await writeFiles(root, { 'src/feature.js': 'export const x = 3; // after the tests\n' });
    await assert.rejects(
      runCommitStage(lc, SLUG, null, { userConfigFile: await userGrantFile() }),
      (e: SluiceError) => e.code === 'EVIDENCE_STALE' && /src\/feature\.js changed after the last recorded review and test/.test(e.message),
    );
    const state = await readWorkflowState(lc, SLUG);
    assert.equal(state.next_stage, 'code-review');
    assert.equal(state.reroutes.at(-1)?.kind, 'recovery');
    assert.equal(headCount(root), 1);
  });

  it('a grant in the user config outside the repository commits exactly the requested paths, leaving other changes and the index alone', async () => {
    const root = await makeRepo({ 'src/other.js': 'old\n', 'notes.txt': 'old\n' });
    const { lc } = await makeLifecycle(root);
    await writeFiles(root, { 'src/other.js': 'someone else is editing\n', 'scratch.txt': 'untracked\n', 'notes.txt': 'staged by a person\n' });
    gitIn(root, 'add', 'notes.txt');
    await readyToCommit(root, lc, ['src/feature.js', '.prizmkit/specs/feature']);
    const result = await runCommitStage(lc, SLUG, null, { userConfigFile: await userGrantFile() });
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

  it('a user config grant others can read or write, or one inside the work tree, is refused', async () => {
    const { root, lc } = await repoReadyToCommit(['src/feature.js'], NO_GRANT);
    await assert.rejects(
      runCommitStage(lc, SLUG, null, { userConfigFile: await userGrantFile(GRANT_CONFIG, 0o644) }),
      (e: SluiceError) => e.code === 'PRIVATE_FILE_UNSAFE' && /the user config .*config\.yaml is readable by everyone \(mode 0644\)/.test(e.message),
    );
    await writeFiles(root, { 'build/config.yaml': GRANT_CONFIG });
    await chmod(join(root, 'build/config.yaml'), 0o600);
    await assert.rejects(runCommitStage(lc, SLUG, null, { userConfigFile: join(root, 'build/config.yaml') }), /is inside the work tree/);
    assert.equal(headCount(root), 1);
  });

  it('refuses a request naming a file without changes (ARTIFACT_INVALID naming the path)', async () => {
    const { root, lc } = await repoReadyToCommit(['src/feature.js', 'README.md']);
    await assert.rejects(
      runCommitStage(lc, SLUG, null),
      (e: SluiceError) => e.code === 'ARTIFACT_INVALID' && e.field === 'paths.1' && /README\.md has no uncommitted change/.test(e.message),
    );
  });

  it('interactive: previews the exact files and message, commits only after an explicit yes', async () => {
    const { root, lc } = await repoReadyToCommit(['src/feature.js'], NO_GRANT);
    const log: string[] = [];
    // A person's no is PrizmKit v4's COMMIT_DECLINED: nothing mutated, the stage stays pending.
    await refusedCommit(lc, /declined at the terminal: nothing was committed and the commit stage stays pending/, fakeIo(false, log), 'COMMIT_DECLINED');
    assert.match(
      log.join('\n'),
      /Commit for feature[\s\S]*feat\(feature\): add feature[\s\S]*Lifecycle-Requirement: feature[\s\S]*1 file:\n\s+add\s+src\/feature\.js\s+\+1 -0\n\s+1 file\(s\) changed, 1 insertion/,
    );
    const done = await runCommitStage(lc, SLUG, null, { io: fakeIo(true) });
    assert.equal(done.state.commit?.authorized_by.source, 'interactive');
    assert.equal(headCount(root), 2);
  });

  it('a file that appears in a requested folder while the person reads the preview is not committed unreviewed: back to code review', async () => {
    const { root, lc } = await repoReadyToCommit(['src'], NO_GRANT);
    const io: CommandIO = {
      ...fakeIo(true),
      confirm: async () => {
        await writeFiles(root, { 'src/extra.js': 'export const unreviewed = true;\n' });
        return true;
      },
    };
    await assert.rejects(
      runCommitStage(lc, SLUG, null, { io }),
      (e: SluiceError) => e.code === 'EVIDENCE_STALE' && /src\/extra\.js changed after the last recorded review and test/.test(e.message),
    );
    assert.equal((await readWorkflowState(lc, SLUG)).next_stage, 'code-review');
    assert.equal(headCount(root), 1);
  });

  it('an HMAC-signed environment grant verified with the operator key file commits; a wrong key, an expired or a foreign grant does not', async () => {
    const keyDir = await mkdtemp(join(tmpdir(), 'sluice-key-'));
    const keyFile = join(keyDir, 'commit-grant.key');
    await writeFile(keyFile, 'operator-secret-0123456789abcdef\n', { mode: 0o600 });
    const repos = await Promise.all([makeRepo(), makeRepo(), makeRepo(), makeRepo(), makeRepo()]);
    const bound = (root: string) => ({
      mode: 'headless-ci',
      owner: 'runner-7',
      local_commit_authorized: true as const,
      repository: gitIn(root, 'rev-parse', '--show-toplevel').trim(),
      requirements: ['feature'],
      expires_at: '2099-01-01T00:00:00Z',
    });
    const grant = bound(repos[0]);
    const attempt = async (root: string, value: string, ok: boolean, reason?: RegExp) => {
      const { lc } = await makeLifecycle(root, { SLUICE_COMMIT_GRANT: value });
      await readyToCommit(root, lc, ['src/feature.js']);
      if (!ok) return refusedCommit(lc, reason!);
      const r = await runCommitStage(lc, SLUG, null, { grantKeyFile: keyFile });
      assert.deepEqual(r.state.commit?.authorized_by, { source: 'signed-env', mode: 'headless-ci', owner: 'runner-7' });
    };
    await attempt(repos[0], signCommitGrant(grant, 'operator-secret-0123456789abcdef'), true);
    // refusedCommit names a key file that does not exist.
    await attempt(repos[1], signCommitGrant(bound(repos[1]), 'operator-secret-0123456789abcdef'), false, /cannot be verified: no key/);
    // Bound to another repository: refused here.
    const elsewhere = await makeLifecycle(repos[2], { SLUICE_COMMIT_GRANT: signCommitGrant(grant, 'operator-secret-0123456789abcdef') });
    await readyToCommit(repos[2], elsewhere.lc, ['src/feature.js']);
    await assert.rejects(runCommitStage(elsewhere.lc, SLUG, null, { grantKeyFile: keyFile }), /is bound to .*, not /);
    // Unbound (no repository, requirements or expiry): refused.
    const loose = await makeLifecycle(repos[3], {
      SLUICE_COMMIT_GRANT: signCommitGrant({ mode: 'x', owner: 'y', local_commit_authorized: true } as never, 'operator-secret-0123456789abcdef'),
    });
    await readyToCommit(repos[3], loose.lc, ['src/feature.js']);
    await assert.rejects(runCommitStage(loose.lc, SLUG, null, { grantKeyFile: keyFile }), /payload field (repository|requirements|expires_at)/);
    const root = repos[4];
    const { lc } = await makeLifecycle(root, { SLUICE_COMMIT_GRANT: signCommitGrant(bound(root), 'agent-made-key-0123456789abcdef') });
    await readyToCommit(root, lc, ['src/feature.js']);
    await assert.rejects(runCommitStage(lc, SLUG, null, { grantKeyFile: keyFile }), /invalid signature/);
    const expired = await makeRepo();
    const e = await makeLifecycle(expired, {
      SLUICE_COMMIT_GRANT: signCommitGrant({ ...bound(expired), expires_at: '2020-01-01T00:00:00Z' }, 'operator-secret-0123456789abcdef'),
    });
    await readyToCommit(expired, e.lc, ['src/feature.js']);
    await assert.rejects(runCommitStage(e.lc, SLUG, null, { grantKeyFile: keyFile }), /expired/);
    const other = await makeRepo();
    const o = await makeLifecycle(other, {
      SLUICE_COMMIT_GRANT: signCommitGrant({ ...bound(other), requirements: ['another'] }, 'operator-secret-0123456789abcdef'),
    });
    await readyToCommit(other, o.lc, ['src/feature.js']);
    await assert.rejects(runCommitStage(o.lc, SLUG, null, { grantKeyFile: keyFile }), /does not list feature/);
  });

  it('a commit sluice made just before a crash matches its recorded intent: found by its trailer and recorded, not made again', async () => {
    const { root, lc } = await repoReadyToCommit(['src/feature.js'], NO_GRANT);
    await refusedCommit(lc, /no terminal/);
    // The crash window: intent journaled, `git commit` done, COMMITTED not yet recorded.
    const intent = await computeCommitIntent(lc, SLUG, { message: `feat(${SLUG}): add ${SLUG}`, paths: ['src/feature.js'] });
    await recordIntent(lc, SLUG, null, intent);
    gitIn(root, 'add', 'src/feature.js');
    execFileSync('git', ['commit', '-q', '--only', '--cleanup=verbatim', '-F', '-', '--', 'src/feature.js'], { cwd: root, input: `${intent.message}\n` });
    const r = await runCommitStage(lc, SLUG, null);
    assert.equal(r.state.status, 'COMMITTED');
    assert.equal(r.state.commit?.authorized_by.source, 'recovered');
    assert.equal(headCount(root), 2);
  });

  it('a trailer commit sluice has no intent for is COMMIT_UNRECOGNIZED and leaves the requirement pending for a person', async () => {
    const { root, lc } = await repoReadyToCommit(['src/feature.js'], NO_GRANT);
    await refusedCommit(lc, /no terminal/);
    gitIn(root, 'add', 'src/feature.js');
    gitIn(root, 'commit', '-q', '-m', 'feat: I authorize myself', '--trailer', 'Lifecycle-Requirement: feature');
    await assert.rejects(
      runCommitStage(lc, SLUG, null, { userConfigFile: await userGrantFile() }),
      (e: SluiceError) => e.code === 'COMMIT_UNRECOGNIZED' && e.exitCode === 1 && /sluice recorded no intent/.test(e.message),
    );
    const state = await readWorkflowState(lc, SLUG);
    assert.equal(state.status, 'COMMIT_PENDING');
    assert.equal(state.commit, null);
  });
});

describe('production edits where only tests may change', () => {
  /** A new repository with SLUG recorded through plan, implement, review and a test with `testVerdict`. */
  async function through(testVerdict: Record<string, string>) {
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root);
    await startRequirement(lc, SLUG);
    await recordSteps(root, lc, SLUG, [...throughRetrospective(SLUG).slice(0, 3), [testVerdict, 'test']]);
    return { root, lc };
  }

  it('on the test-infrastructure route (no review), a production edit sends the requirement back to code review', async () => {
    const { root, lc } = await through(evidence.test(SLUG, 'TEST_FAIL', 'test-infrastructure'));
    assert.equal((await readWorkflowState(lc, SLUG)).next_stage, 'implement');
    await writeFiles(root, { 'test/feature.test.js': 'fixed the test\n', 'src/feature.js': 'export const x = "and the code too";\n' });
    const r = await recordStage(lc, SLUG, 'implement', null);
    assert.equal(r.row, 'production-route');
    assert.equal(r.state.next_stage, 'code-review');
    assert.match(r.state.reroutes.at(-1)?.note ?? '', /production files edited on the test-infrastructure route: src\/feature\.js changed/);
  });

  it('a test-only repair on that route goes straight to test', async () => {
    const { root, lc } = await through(evidence.test(SLUG, 'TEST_FAIL', 'test-infrastructure'));
    await writeFiles(root, { 'test/feature.test.js': 'fixed the test only\n' });
    assert.equal((await recordStage(lc, SLUG, 'implement', null)).state.next_stage, 'test');
  });

  it('while TEST_BLOCKED, a production edit takes the production route instead of recording the test', async () => {
    const { root, lc } = await through(evidence.test(SLUG, 'TEST_BLOCKED'));
    await writeFiles(root, { 'src/feature.js': 'export const x = "patched while blocked";\n', ...evidence.test(SLUG, 'TEST_PASS') });
    const r = await recordStage(lc, SLUG, 'test', null);
    assert.equal(r.row, 'production-route');
    assert.equal(r.state.status, 'IMPLEMENTED');
    assert.equal(r.state.next_stage, 'code-review');
  });
});

describe('a project in a subfolder of its git repository', () => {
  it('fingerprints, re-checks and commits relative to the project folder; changes outside it do not count', async () => {
    const repo = await makeRepo({ 'other/notes.txt': 'old\n', 'app/README.md': '# app\n' });
    const root = join(repo, 'app');
    const { lc } = await makeLifecycle(root);
    await readyToCommit(root, lc, ['src/feature.js', '.prizmkit/specs/feature']);
    await writeFiles(repo, { 'other/notes.txt': 'another project in the same repository\n' });
    const done = await runCommitStage(lc, SLUG, null, { userConfigFile: await userGrantFile() });
    assert.equal(done.state.status, 'COMMITTED');
    assert.ok(done.state.commit?.paths.includes('src/feature.js'));
    const files = gitIn(repo, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n');
    assert.ok(files.includes('app/src/feature.js') && files.every((f) => f.startsWith('app/')), files.join(', '));
    assert.match(gitIn(repo, 'status', '--porcelain'), /other\/notes\.txt/);
  });

  it('a file edited after review and test is found in the subfolder too', async () => {
    const repo = await makeRepo({ 'app/README.md': '# app\n' });
    const root = join(repo, 'app');
    const { lc } = await makeLifecycle(root);
    await readyToCommit(root, lc, ['src/feature.js']);
    await writeFiles(root, { 'src/feature.js': 'export const x = "late";\n' });
    await assert.rejects(
      runCommitStage(lc, SLUG, null, { userConfigFile: await userGrantFile() }),
      (e: SluiceError) => e.code === 'EVIDENCE_STALE' && /src\/feature\.js changed/.test(e.message),
    );
  });
});

describe('orchestrator ownership', () => {
  it('only the recorded orchestrator advances; a direct call reports the next invocation without claiming it ran', async () => {
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root);
    await startRequirement(lc, SLUG, { orchestrator: 'prizmkit-workflow' });
    await writeFiles(root, evidence.plan(SLUG));
    await assert.rejects(
      recordStage(lc, SLUG, 'plan', null),
      (e: SluiceError) => e.code === 'ORCHESTRATOR_MISMATCH' && e.exitCode === 1 && /orchestrator-ownership/.test(e.message),
    );
    await assert.rejects(recordStage(lc, SLUG, 'plan', 'someone-else'), (e: SluiceError) => e.code === 'ORCHESTRATOR_MISMATCH');
    const r = await recordStage(lc, SLUG, 'plan', 'prizmkit-workflow');
    assert.deepEqual(r.next, {
      stage: 'implement',
      skill: 'prizmkit-implement',
      blocked: false,
      command: 'sluice lifecycle record feature implement --orchestrator prizmkit-workflow',
      ran: false,
    });
    assert.equal((await readWorkflowState(lc, SLUG)).status, 'PLAN_READY', 'the next stage was reported, not run');
  });
  it('artifact_dir never changes once set, and the state file is left untouched by a refused write', async () => {
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root);
    await startRequirement(lc, SLUG);
    const path = join(root, '.prizmkit/state/workflows/feature.json');
    const before = await readFile(path, 'utf8');
    const { applyTransition } = await import('../../plugins/lifecycle/record-stage.ts');
    await assert.rejects(
      applyTransition(lc, SLUG, null, (s) => ({ ok: true, state: { ...s, artifact_dir: '.prizmkit/bugfix/feature' }, row: 'test' })),
      (e: SluiceError) => e.code === 'INVARIANT_VIOLATED' && /artifact_dir is fixed/.test(e.message),
    );
    await assert.rejects(startRequirement(lc, SLUG, { kind: 'bugfix' }), (e: SluiceError) => e.code === 'INVARIANT_VIOLATED');
    await assert.rejects(
      applyTransition(lc, SLUG, null, (s) => ({ ok: true, state: { ...s, repair_round: 4 }, row: 'test' })),
      (e: SluiceError) => e.code === 'INVARIANT_VIOLATED' && e.field === 'repair_round',
    );
    assert.equal(await readFile(path, 'utf8'), before);
  });
});
