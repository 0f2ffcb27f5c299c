import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { commandDocumentSchema } from '../../core/index.ts';
import { LifecycleRunOutput } from '../../plugins/lifecycle/commands/lifecycle-outputs.ts';
import { runCli } from '../helpers/run-cli.ts';
import { passingScript } from '../fixtures/lifecycle/passing-script.ts';
import { gitIn, makeRepo, writeFiles } from './lifecycle-fixture.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';

// A --remote run signs its checkpoints with the test's own queue key, never the person's.
useTestQueueKey();

const SCRIPT = passingScript();
const SLUGS = ['north', 'south'];
const env = { GIT_AUTHOR_NAME: 'W', GIT_AUTHOR_EMAIL: 'w@example.invalid', GIT_COMMITTER_NAME: 'W', GIT_COMMITTER_EMAIL: 'w@example.invalid' };

/** Two copies of one project (each with the requirements' specs, uncommitted) and the bare remote both came from. */
async function projects() {
  const local = await makeRepo({ 'script.json': JSON.stringify(SCRIPT) });
  const remote = join(await mkdtemp(join(tmpdir(), 'sluice-remote-')), 'project.git');
  gitIn(local, 'clone', '-q', '--bare', local, remote);
  const orchestrator = join(await mkdtemp(join(tmpdir(), 'sluice-orchestrator-')), 'project');
  gitIn(tmpdir(), 'clone', '-q', remote, orchestrator);
  for (const root of [local, orchestrator])
    for (const slug of SLUGS) await writeFiles(root, { [`.prizmkit/specs/${slug}/spec.md`]: `# ${slug}\n\n## Goal\n\nDo ${slug}.\n` });
  return { local, remote, orchestrator };
}

/** The summary as a person reads it, without what differs between any two runs (durations, transcript folders). */
const shape = (out: string) =>
  out
    .replace(/ in \d+\.\d s$/m, ' in N s')
    .split('\n')
    .map((l) => l.trimEnd());

describe('sluice lifecycle run --remote (CLI)', () => {
  it('prints the summary a local run prints and exits with the same code; the work lands on the remote, not in the orchestrator', async () => {
    const p = await projects();
    const args = ['lifecycle', 'run', ...SLUGS, '--to', 'script', '--script', 'script.json'];
    const local = await runCli(['--cwd', p.local, ...args], { env });
    const remote = await runCli(['--cwd', p.orchestrator, ...args, '--remote', p.remote], { env });
    assert.equal(local.code, 1, local.stderr);
    assert.equal(remote.code, local.code, remote.stderr);
    // Without a grant both stop at the commit; the remote run also says why the workers could not commit.
    assert.deepEqual(
      shape(remote.stdout).map((l) => l.replace(/ \(.*not authorized.*\)$/, '')),
      shape(local.stdout),
    );
    assert.match(remote.stdout, /2 awaiting commit authorization/);
    assert.equal(gitIn(p.orchestrator, 'status', '--porcelain', '--', 'src'), '', "the orchestrator's workspace is untouched");
    for (const slug of SLUGS) {
      const journal = gitIn(p.remote, 'show', `refs/sluice/checkpoints/${slug}:.prizmkit/state/journal/${slug}.jsonl`).trim().split('\n');
      assert.equal(JSON.parse(journal.at(-1)!).state.status, 'COMMIT_PENDING');
    }
    const json = JSON.parse((await runCli(['--cwd', p.orchestrator, ...args, '--remote', p.remote, '--json'], { env })).stdout);
    assert.equal(json.ok, false);
    const valid = v.safeParse(commandDocumentSchema(LifecycleRunOutput), json);
    assert.ok(valid.success, `the --json output matches its schema: ${valid.issues?.[0].message} at ${v.getDotPath(valid.issues?.[0] ?? ({} as never))}`);
    assert.deepEqual(
      json.requirements.map((r: { slug: string; outcome: string; resumedFrom?: string }) => [r.slug, r.outcome, r.resumedFrom?.length]),
      [
        ['north', 'awaiting-authorization', 40],
        ['south', 'awaiting-authorization', 40],
      ],
      'a second run resumes each requirement from its checkpoint',
    );
  });

  it('with --queue, a project without origin and no --remote is a usage error (exit 2) before anything is queued', async () => {
    const root = await makeRepo();
    await writeFiles(root, { '.prizmkit/specs/north/spec.md': '# north\n' });
    // Nothing listens on port 1: the usage error comes first, without touching the queue.
    const r = await runCli(['--cwd', root, 'lifecycle', 'run', 'north', '--to', 'script', '--queue', 'redis://127.0.0.1:1/0'], { env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /USAGE.*no `origin`; name one with --remote URL/);
  });

  it('a remote that cannot be read fails every requirement with git’s error', async () => {
    const p = await projects();
    const r = await runCli(['--cwd', p.orchestrator, 'lifecycle', 'run', 'north', '--to', 'script', '--remote', join(p.remote, 'missing.git'), '--json'], {
      env,
    });
    const out = JSON.parse(r.stdout);
    assert.equal(r.code, 1);
    assert.equal(out.requirements[0].error.code, 'GIT_FAILED');
    assert.match(out.requirements[0].error.message, /missing\.git/);
  });
});
