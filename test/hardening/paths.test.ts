import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { createKernel, loadConfig, type Kernel } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { runCommand } from '../../plugins/sdlc/demo/run-command.ts';
import { evidence, makeRepo, writeFiles } from '../lifecycle/lifecycle-fixture.ts';
import { sluice, tempDir, writeCurrentArtifacts } from '../sdlc/sdlc-fixture.ts';
import { evaluateScores, executeAny, improveAny, skillText, tuneProject } from '../skill-tune/tune-harness.ts';
import { repoFile } from './repo-files.ts';

/**
 * Every path sluice takes from a file or a flag stays inside the project (or the run folder),
 * symlinks included: for each one, a symlink inside the project that points outside is refused, and
 * nothing outside is read into a result or written.
 */
async function kernelFor(dir: string): Promise<Kernel> {
  const host = createNodeHost({ cwd: dir });
  return createKernel({ host, projectRoot: dir, config: (await loadConfig(host, dir)).config, plugins: builtinPlugins });
}

/** A folder outside the project, with a file in it. */
async function outsideFolder(files: Record<string, string> = { 'secret.md': '# Outside\n\nNot part of the project.\n' }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-outside-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

async function link(target: string, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await symlink(target, path);
}

const refused = (o: { exitCode: number; error?: { code: string; message: string } }, code = 'PATH_OUTSIDE_PROJECT') => {
  assert.equal(o.error?.code, code, `expected ${code}, got ${o.error?.message ?? `exit ${o.exitCode}`}`);
  assert.equal(o.exitCode, 2);
};

describe('paths from files and flags stay inside the project, symlinks included', () => {
  it('SDLC report: --out, and the default .sdlc/reports/, through a symlink to outside', async () => {
    const dir = await tempDir('sluice-paths-');
    const kernel = await kernelFor(dir);
    await sluice(kernel, 'init');
    const outside = await outsideFolder({});
    await link(outside, join(dir, 'docs'));
    refused(await sluice(kernel, 'report', { out: 'docs/phase0.html' }));
    refused(await sluice(kernel, 'report', { all: true, out: 'docs' }));
    await link(outside, join(dir, '.sdlc', 'reports'));
    refused(await sluice(kernel, 'report', {}));
    refused(await sluice(kernel, 'report', { out: '../report.html' }));
    assert.deepEqual(await readdir(outside), [], 'nothing was written outside');
  });

  it('SDLC gates: an artifact, or a whole phase folder, symlinked outside is refused naming it, never read', async () => {
    const dir = await tempDir('sluice-paths-');
    const kernel = await kernelFor(dir);
    await sluice(kernel, 'init');
    await writeCurrentArtifacts(kernel);
    const phase = join(dir, '.sdlc', 'artifacts', '00-discovery');
    const outside = await outsideFolder({ 'constitution.md': await readFile(join(phase, 'constitution.md'), 'utf8') });
    await rename(join(phase, 'constitution.md'), join(dir, 'kept.md'));
    await link(join(outside, 'constitution.md'), join(phase, 'constitution.md'));
    for (const command of ['gate', 'next']) {
      const r = await sluice(kernel, command, command === 'next' ? { confirmed: true } : {});
      refused(r);
      assert.match(r.error!.message, /"\.sdlc\/artifacts\/00-discovery\/constitution\.md" leads outside .* through a symlink/);
    }
    await rename(phase, join(outside, 'phase'));
    await link(join(outside, 'phase'), phase);
    refused(await sluice(kernel, 'gate'));
    assert.match(await readFile(join(dir, '.sdlc', 'state.yaml'), 'utf8'), /history: \[\]/, 'nothing was recorded');
  });

  it('SDLC handoff: the build folder symlinked outside is refused, not read', async () => {
    const dir = await tempDir('sluice-paths-');
    const kernel = await kernelFor(dir);
    await sluice(kernel, 'init');
    const outside = await outsideFolder({ 'session-handoff.json': repoFile('test/fixtures/sdlc-views/session-handoff.json') });
    await link(outside, join(dir, '.sdlc', 'artifacts', 'build-outside'));
    await rename(join(dir, '.sdlc', 'artifacts', 'build'), join(dir, 'build-was'));
    await rename(join(dir, '.sdlc', 'artifacts', 'build-outside'), join(dir, '.sdlc', 'artifacts', 'build'));
    refused(await sluice(kernel, 'handoff', {}));
  });

  it('lifecycle: an artifact folder, evidence file or updated document symlinked outside is refused; the state is untouched', async () => {
    const dir = await makeRepo();
    const kernel = await kernelFor(dir);
    assert.equal((await runCommand(kernel, 'lifecycle start', ['feat-a'], { goal: 'parse durations' })).exitCode, 0);
    const statePath = join(dir, '.prizmkit', 'state', 'workflows', 'feat-a.json');
    const before = await readFile(statePath, 'utf8');
    // The whole artifact folder points outside: its plan is not read.
    const outside = await outsideFolder({});
    await writeFiles(outside, Object.fromEntries(Object.entries(evidence.plan('feat-a')).map(([p, t]) => [p.replace('.prizmkit/specs/feat-a/', ''), t])));
    const artifactDir = join(dir, '.prizmkit', 'specs', 'feat-a');
    await rename(artifactDir, join(dir, 'was-feat-a'));
    await link(outside, artifactDir);
    const plan = await runCommand(kernel, 'lifecycle record', ['feat-a', 'plan'], {});
    assert.equal(plan.error?.code, 'ARTIFACT_INVALID', plan.human ?? '');
    assert.match(plan.error!.message, /outside/);
    assert.equal(await readFile(statePath, 'utf8'), before);

    // Evidence and documents cited by verdict.json and retrospective-result.json.
    const { readTestVerdict } = await import('../../plugins/lifecycle/readers/test-verdict-reader.ts');
    const { readRetrospectiveResult } = await import('../../plugins/lifecycle/readers/retrospective-reader.ts');
    const real = join(dir, '.prizmkit', 'specs', 'feat-b');
    await writeFiles(dir, {
      '.prizmkit/specs/feat-b/verdict.json': JSON.stringify({ verdict: 'TEST_PASS', evidence: ['output.txt'] }),
      '.prizmkit/specs/feat-b/retrospective-result.json': JSON.stringify({ result: 'DOCS_UPDATED', docs_updated: ['docs/arch.md'] }),
    });
    const secrets = await outsideFolder({ 'output.txt': 'ok\n', 'arch.md': '# arch\n' });
    await link(join(secrets, 'output.txt'), join(real, 'output.txt'));
    await link(secrets, join(dir, 'docs'));
    await assert.rejects(readTestVerdict(kernel.host, dir, '.prizmkit/specs/feat-b'), { code: 'ARTIFACT_INVALID', field: 'evidence.0', message: /outside/ });
    await assert.rejects(readRetrospectiveResult(kernel.host, dir, '.prizmkit/specs/feat-b'), {
      code: 'ARTIFACT_INVALID',
      field: 'docs_updated.0',
      message: /outside/,
    });
  });

  it('skill tune: --run-dir, --resume and --restore through a symlink to outside are refused; nothing is written outside', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, ...evaluateScores([60, 90]), improveAny('w')]);
    const kernel = await kernelFor(dir);
    const tune = (args: string[], options: Record<string, unknown>) =>
      runCommand(kernel, 'tune', args, { executor: 'script', evaluator: 'script', improver: 'script', allowSelfEvaluation: true, ...options });
    const outside = await outsideFolder({});
    await link(outside, join(dir, 'runs-link'));
    refused(await tune(['w'], { scenario: 'write it', yes: true, runDir: 'runs-link' }));
    refused(await tune(['w'], { scenario: 'write it', yes: true, runDir: '../elsewhere' }));
    assert.deepEqual(await readdir(outside), []);

    // A finished run, moved outside and linked back in.
    const done = await tune(['w'], { scenario: 'write it', yes: true });
    assert.equal(done.exitCode, 0, done.human ?? '');
    const runDir = (done.data as { runDir: string }).runDir;
    const moved = join(outside, 'run');
    await rename(runDir, moved);
    await link(moved, runDir);
    refused(await runCommand(kernel, 'tune', [], { resume: runDir }));
    refused(await runCommand(kernel, 'tune', [], { restore: runDir }));

    // A run whose skill folder was replaced by a symlink to outside: restoring must not write there.
    await rm(runDir);
    await rename(moved, runDir);
    const skillDir = join(dir, '.claude', 'skills', 'w');
    const elsewhere = await outsideFolder({ 'SKILL.md': skillText('w', 'Outside copy.') });
    await rename(skillDir, join(dir, 'w-was'));
    await link(elsewhere, skillDir);
    refused(await runCommand(kernel, 'tune', [], { restore: runDir }));
    assert.equal(await readFile(join(elsewhere, 'SKILL.md'), 'utf8'), skillText('w', 'Outside copy.'), 'the outside folder was not written');
  });

  it('skill tune: a skill argument outside the project, or reached through a symlink to outside, is refused', async () => {
    const dir = await tuneProject({ w: skillText('w') }, [executeAny, ...evaluateScores([90])]);
    const kernel = await kernelFor(dir);
    const outside = await outsideFolder({ 'x/SKILL.md': skillText('x') });
    await link(join(outside, 'x'), join(dir, '.claude', 'skills', 'x'));
    const base = { scenario: 'write it', yes: true, executor: 'script', evaluator: 'script', improver: 'script', allowSelfEvaluation: true };
    refused(await runCommand(kernel, 'tune', ['x'], base));
    refused(await runCommand(kernel, 'tune', [join(outside, 'x')], base));
    refused(await runCommand(kernel, 'tune', ['../x'], base));
    assert.equal(existsSync(join(dir, '.sluice', 'runs')), false, 'no run folder was made');
  });

  it('the script delegate: a scripted file written through a symlinked folder is refused and nothing is written', async () => {
    const dir = await tempDir('sluice-paths-');
    const outside = await outsideFolder({});
    await link(outside, join(dir, 'out'));
    await writeFile(join(dir, 'script.yaml'), 'version: 1\nrules:\n  - match: "write"\n    reply: {text: done, files: {"out/leak.md": "x"}}\n');
    const kernel = await kernelFor(dir);
    const r = await kernel.runDelegate('script', { prompt: 'write it', mode: 'write', cwd: dir, extra: { script: 'script.yaml' } });
    assert.equal(r.status, 'error');
    assert.match(r.error ?? '', /symlink/);
    assert.deepEqual(await readdir(outside), []);
  });
});

async function rm(path: string): Promise<void> {
  const { rm: remove } = await import('node:fs/promises');
  await remove(path, { recursive: true, force: true });
}
