import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, sluiceEntry } from '../helpers/run-cli.ts';
import { KILL_SLUGS, killResumeScript, ruleLabel, SLEEPING } from '../fixtures/lifecycle/kill-resume-script.ts';
import { recordSteps, throughRetrospective } from '../helpers/recorded-requirement.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { evidence, gitIn, makeLifecycle, makeRepo, readJson, writeFiles } from './lifecycle-fixture.ts';
import { spawnReaped } from '../helpers/reap-children.ts';

const sluice = (root: string, args: string[], env: Record<string, string> = {}) => runCli(['--cwd', root, ...args], { env });
const json = (out: string) => JSON.parse(out);

/** A requirement recorded up to the commit stage (in-process: the CLI runs only what a test asserts on). */
async function recordToCommit(root: string, slug: string) {
  const { lc } = await makeLifecycle(root);
  await startRequirement(lc, slug, { goal: 'x' });
  await recordSteps(root, lc, slug, throughRetrospective(slug));
  await writeFiles(root, evidence.commitRequest(slug, [`src/${slug}.js`]));
}

describe('sluice lifecycle (CLI)', () => {
  it('refuses a commit nobody authorized (exit 1), and an authorization flag the agent passes itself (exit 2)', async () => {
    const root = await makeRepo();
    await recordToCommit(root, 'feat');
    const flag = await sluice(root, ['lifecycle', 'record', 'feat', 'commit', '--local-commit-authorized', '--json']);
    assert.equal(flag.code, 2);
    assert.equal(json(flag.stdout).error.code, 'USAGE');
    const unsigned = await sluice(root, ['lifecycle', 'record', 'feat', 'commit', '--json'], {
      SLUICE_COMMIT_GRANT: '{"mode":"x","owner":"agent","local_commit_authorized":true}',
      LOCAL_COMMIT_AUTHORIZED: 'true',
    });
    assert.equal(unsigned.code, 1);
    assert.equal(json(unsigned.stdout).error.code, 'COMMIT_NOT_AUTHORIZED');
    assert.match(json(unsigned.stdout).error.message, /SLUICE_COMMIT_GRANT is not "<payload>\.<signature>"/);
    assert.equal(gitIn(root, 'rev-list', '--count', 'HEAD').trim(), '1', 'nothing was committed');
    const status = json((await sluice(root, ['lifecycle', 'status', 'feat', '--json'])).stdout);
    assert.equal(status.requirements[0].status, 'COMMIT_PENDING');
    assert.match(json(unsigned.stdout).error.message, /no terminal to confirm on/);
  });

  it('reports rule violations (exit 1), bad slugs (exit 2) and the next invocation', async () => {
    const root = await makeRepo();
    assert.equal((await sluice(root, ['lifecycle', 'start', 'feat', '--orchestrator', 'prizmkit-workflow'])).code, 0);
    const order = await sluice(root, ['lifecycle', 'record', 'feat', 'test', '--orchestrator', 'prizmkit-workflow', '--json']);
    assert.equal(order.code, 1);
    assert.equal(json(order.stdout).error.code, 'LIFECYCLE_RULE');
    assert.equal(json(order.stdout).error.data.rule, 'stage-order');
    const owner = await sluice(root, ['lifecycle', 'record', 'feat', 'plan']);
    assert.equal(owner.code, 1);
    assert.match(owner.stderr, /ORCHESTRATOR_MISMATCH/);
    const slug = await sluice(root, ['lifecycle', 'start', 'a/../../b']);
    assert.equal(slug.code, 2);
    assert.match(slug.stderr, /SLUG_INVALID/);
    const next = json((await sluice(root, ['lifecycle', 'next', 'feat', '--json'])).stdout);
    assert.equal(next.next.command, 'sluice lifecycle record feat plan --orchestrator prizmkit-workflow');
    assert.equal(next.next.ran, false);
    const unknown = await sluice(root, ['lifecycle', 'run', 'feat', '--to', 'no-such-backend']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /DELEGATE_UNKNOWN/);
  });

  it('a run killed mid-stage resumes without repeating any finished stage', async () => {
    const root = await makeRepo();
    // The sleeping stages sleep an hour: on a loaded machine the last requirement may take long to get there.
    await writeFile(join(root, 'script.json'), JSON.stringify(killResumeScript(3_600_000)));
    for (const slug of KILL_SLUGS) await writeFiles(root, { [`.prizmkit/specs/${slug}/spec.md`]: `# ${slug}\n\nGoal.\n` });
    const args = ['lifecycle', 'run', ...KILL_SLUGS, '--to', 'script', '--script', 'script.json', '--concurrency', '3', '--json'];
    const child = spawnReaped(process.execPath, [sluiceEntry(), '--cwd', root, ...args], { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
    let exitedEarly: number | null | undefined;
    const exited = new Promise<string | null>((resolve) => child.on('exit', (code, signal) => ((exitedEarly = code), resolve(signal))));

    // Kill once every requirement sits in its sleeping stage: earlier stages recorded, the sleeper started.
    const sequences = async () => {
      const dir = join(root, '.sluice', 'script-delegate');
      const files = await readdir(dir).catch(() => []);
      const positions: Record<string, number> = {};
      for (const f of files.filter((x) => x.endsWith('.json')))
        for (const [key, n] of Object.entries((await readJson(dir, f)).positions as Record<string, number>)) positions[ruleLabel(key)] = n;
      return positions;
    };
    // No deadline: the outcome that fails is the run ending before the kill point; a hang meets the file's time limit.
    try {
      for (;;) {
        assert.equal(exitedEarly, undefined, `the run ended (exit ${exitedEarly}) before every requirement reached its sleeping stage`);
        const states = await Promise.all(KILL_SLUGS.map((s) => readJson(root, `.prizmkit/state/workflows/${s}.json`).catch(() => null)));
        const calls = await sequences();
        if (KILL_SLUGS.every((s, i) => states[i]?.status === SLEEPING[s].statusAtKill && calls[`${s} ${SLEEPING[s].stage}`] === 1)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      child.kill('SIGKILL');
    }
    assert.equal(await exited, 'SIGKILL');
    const atKill = await sequences();

    // Nobody outside the work tree granted commits: every requirement ends awaiting authorization (exit 1).
    const resumed = await sluice(root, args);
    assert.equal(resumed.code, 1, resumed.stdout + resumed.stderr);
    const summary = json(resumed.stdout);
    const ranAgain = Object.fromEntries(summary.requirements.map((r: { slug: string; stages: { stage: string }[] }) => [r.slug, r.stages.map((s) => s.stage)]));
    assert.deepEqual(ranAgain, { alpha: ['retrospective', 'commit'], beta: ['commit'], gamma: ['test', 'retrospective', 'commit'] });
    assert.ok(
      summary.requirements.every((r: { outcome: string; staleReset: string[] }) => r.outcome === 'awaiting-authorization' && r.staleReset.length === 0),
    );

    // Across both runs every stage was called once, except the three that were killed while running.
    const calls = await sequences();
    for (const slug of KILL_SLUGS) {
      for (const stage of ['plan', 'implement', 'code-review', 'test', 'retrospective', 'commit']) {
        const expected = SLEEPING[slug].stage === stage ? 2 : 1;
        assert.equal(calls[`${slug} ${stage}`], expected, `${slug} ${stage}: ${calls[`${slug} ${stage}`]} calls (at kill: ${atKill[`${slug} ${stage}`] ?? 0})`);
      }
    }
    assert.equal(gitIn(root, 'log', '--format=%s').trim().split('\n').length, 1, 'no commit without authorization');
    assert.ok((await readFile(join(root, '.prizmkit/state/workflows/beta.json'), 'utf8')).includes('"COMMIT_PENDING"'));
  });
});
