import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { gateAnnotations } from '../../plugins/sdlc/ci/github-annotations.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';
import { tempDir } from './sdlc-fixture.ts';
import { runSluice } from './sluice-cli.ts';

/** What a CI job sees from `sluice gate` and `sluice next`: GitHub annotations and job summary, JUnit XML. */
describe('CI integrations', () => {
  let dir: string;
  let summary: string;
  const actions = () => ({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });

  before(async () => {
    dir = await tempDir('sluice-ci-');
    summary = join(dir, 'step-summary.md');
    const init = await runSluice(dir, ['init', '--profile', 'starter', '--name', 'CI Demo', '--type', 'service']);
    assert.equal(init.code, 0, init.stderr);
    // Missing artifacts (G1 rows carry their path): remove the starter templates init leaves in phase 0.
    await rm(join(dir, '.sdlc', 'artifacts', '00-discovery'), { recursive: true });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('under GitHub Actions, `gate` prints an ::error per failing MUST row and appends a job summary', async () => {
    await writeFile(summary, '# earlier step\n');
    const r = await runSluice(dir, ['gate'], actions());
    assert.equal(r.code, 1, 'blank phase 0 is blocked');
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error '));
    assert.ok(errors.length > 0, r.stdout);
    assert.ok(
      errors.every((l) => /^::error (file=[^,:]+,)?(line=\d+,)?title=[^:]+::\S/.test(l)),
      errors.join('\n'),
    );
    assert.ok(
      errors.some((l) => l.startsWith('::error file=.sdlc/artifacts/')),
      'a missing artifact points at its path',
    );
    const text = await readFile(summary, 'utf8');
    assert.ok(text.startsWith('# earlier step\n'), 'the summary file is appended to, not replaced');
    assert.match(text, /### sluice gate: .* \(CI Demo\)\n\n\*\*BLOCKED: \d+ MUST gate\(s\) failed\*\*/, 'the project as state.yaml names it');
    assert.equal((text.match(/^\| ❌ fail \| MUST \|/gm) ?? []).length, errors.length, 'one failing row in the summary per annotation');
  });

  it('under --json the document stays alone on stdout and the annotations go to stderr', async () => {
    const r = await runSluice(dir, ['gate', '--json'], actions());
    const doc = JSON.parse(r.stdout) as { blockers: unknown[] };
    assert.ok(doc.blockers.length > 0);
    assert.equal(r.stderr.split('\n').filter((l) => l.startsWith('::error ')).length, doc.blockers.length);
  });

  it('paths are relative to the repository when the project is a subfolder of GITHUB_WORKSPACE', async () => {
    const r = await runSluice(dir, ['gate'], { ...actions(), GITHUB_WORKSPACE: join(dir, '..') });
    const folder = dir.split('/').at(-1)!;
    const files = r.stdout.split('\n').filter((l) => l.startsWith('::error file='));
    assert.ok(files.length > 0 && files.every((l) => l.startsWith(`::error file=${folder}/.sdlc/`)), files.join('\n'));
  });

  it('`next` annotates the same failing rows, and its summary names the project as `gate` does: from state.yaml, not the folder', async () => {
    await writeFile(summary, '');
    const r = await runSluice(dir, ['next'], actions());
    assert.equal(r.code, 1);
    assert.ok(
      r.stdout.split('\n').some((l) => l.startsWith('::error ')),
      r.stdout,
    );
    const [heading] = (await readFile(summary, 'utf8')).split('\n');
    assert.match(heading, /^### sluice next: .* \(CI Demo\)$/);
    assert.ok(!heading.includes(dir.split('/').at(-1)!), heading);
  });

  it('outside GitHub Actions nothing is annotated and no summary is written', async () => {
    await rm(summary, { force: true });
    const r = await runSluice(dir, ['gate'], { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: summary });
    assert.ok(!r.stdout.includes('::error'), r.stdout);
    await assert.rejects(readFile(summary));
  });

  it('`gate --junit FILE` writes JUnit XML whose failures are the MUST blockers', async () => {
    const r = await runSluice(dir, ['gate', '--json', '--junit', 'reports/gates.xml']);
    const doc = JSON.parse(r.stdout) as { results: unknown[]; blockers: unknown[] };
    const xml = new XMLParser({ ignoreAttributes: false }).parse(await readFile(join(dir, 'reports/gates.xml'), 'utf8')) as {
      testsuites: { testsuite: { '@_tests': string; '@_failures': string; testcase: { failure?: unknown }[] } };
    };
    const suite = xml.testsuites.testsuite;
    assert.equal(Number(suite['@_tests']), doc.results.length);
    assert.equal(Number(suite['@_failures']), doc.blockers.length);
    assert.equal(suite.testcase.filter((c) => c.failure !== undefined).length, doc.blockers.length);
  });

  it('unfilled templates (G2) and plugin rows naming a project file are annotated on their file and line', async () => {
    const project = await tempDir('sluice-ci-g2-');
    // A pack: the starter profile plus a gate of the plugin's type in phase 0.
    const starter = await readFile('plugins/sdlc/packs/starter/profile.yaml', 'utf8');
    await mkdir(join(project, 'packs', 'acme'), { recursive: true });
    await writeFile(
      join(project, 'packs', 'acme', 'profile.yaml'),
      `${starter}\nsluice:\n  gates:\n    - {id: licences, type: acme-licence, phases: [0], severity: MUST}\n`,
    );
    await writeFile(
      join(project, 'acme-gates.mjs'),
      [
        'export default { name: "acme-gates", setup(ctx) {',
        '  ctx.registerGate({ type: "acme-licence", id: "ACME-licence", description: "licences recorded", async check() {',
        '    return [{ gate: "ACME-licence", artifact: "LICENSES.md", passed: false, message: "no entry for left-pad", severity: "MUST" }];',
        '  } });',
        '} };',
        '',
      ].join('\n'),
    );
    await writeFile(join(project, 'LICENSES.md'), '# Licences\n');
    await writeFile(join(project, 'sluice.config.yaml'), 'plugins: [./acme-gates.mjs]\n');
    const trusted = await trustedEnv(project);
    assert.equal((await runSluice(project, ['init', '--profile', './packs/acme', '--name', 'G2 Demo'], trusted)).code, 0);
    const r = await runSluice(project, ['gate'], { ...actions(), ...(await trustedEnv(project)) });
    assert.equal(r.code, 1, r.stderr);
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error '));
    const g2 = errors.filter((l) => l.includes('title=G2-completeness'));
    assert.ok(g2.length > 0, r.stdout);
    assert.ok(
      g2.every((l) => /^::error file=\.sdlc\/artifacts\/00-discovery\/[^,]+\.md,line=\d+,title=/.test(l)),
      g2.join('\n'),
    );
    assert.ok(
      errors.some((l) => l.startsWith('::error file=LICENSES.md,title=ACME-licence')),
      errors.join('\n'),
    );
    await rm(project, { recursive: true, force: true });
  });

  it('a hostile message or path cannot end an annotation early or start another workflow command', () => {
    const lines = gateAnnotations(
      [{ gate: 'G2', file: 'a,b:c.md', line: 3, passed: false, severity: 'MUST', message: 'bad\n::add-mask::x %0A\r\n::error::forged' }],
      '0',
    );
    assert.equal(lines.length, 1);
    assert.ok(!lines[0].includes('\n') && !lines[0].includes('\r'), 'one line: the runner reads a command per line');
    assert.equal(lines[0], '::error file=a%2Cb%3Ac.md,line=3,title=G2 (phase 0)::bad%0A::add-mask::x %250A%0D%0A::error::forged');
  });
});
