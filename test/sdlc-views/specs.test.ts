import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createKernel } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { scanSpecs } from '../../plugins/sdlc-views/specs/scan-specs.ts';
import { parseFrontmatter } from '../../plugins/sdlc-views/specs/spec-frontmatter.ts';
import type { SpecBacklog } from '../../plugins/sdlc-views/specs/spec-backlog-types.ts';
import { summarizeSpecs } from '../../plugins/sdlc-views/specs/summarize-specs.ts';
import { fixtureCopy, viewsFixture } from './fixture-copy.ts';
import { sdlcViewsPlugin } from '../../plugins/sdlc-views/index.ts';
import { removeCliBundle, sluice, sluiceJson } from './views-cli.ts';

const host = createNodeHost();
const fixtureRepo = viewsFixture('spec-repo');
after(removeCliBundle);

const tempRepo = () => fixtureCopy('spec-repo', 'sluice-specs-');

describe('spec frontmatter', () => {
  it('keeps quoted values with # and :, and drops comments, as YAML says', () => {
    const r = parseFrontmatter('---\nname: "C# SDK"   # comment\ntitle: \'a: b\'\nstatus: in-flight # note\n---\nbody');
    assert.deepEqual(r, { ok: true, data: { name: 'C# SDK', title: 'a: b', status: 'in-flight' } });
  });

  it('reads CRLF files, a byte order mark, anchors and aliases', () => {
    const r = parseFrontmatter('\uFEFF---\r\nname: &n Search\r\ntitle: *n\r\n---\r\n');
    assert.deepEqual(r, { ok: true, data: { name: 'Search', title: 'Search' } });
  });

  it('names the line of a YAML error counted in the markdown file', () => {
    const r = parseFrontmatter('---\nspec: "1"\nname: [unclosed\n---\n');
    assert.equal(r.ok, false);
    // The YAML library reports where it noticed: the end of the block, line 4 of the file.
    assert.match(!r.ok ? r.message : '', /^line 4: Flow sequence/);
  });

  it('refuses duplicate keys, a missing opening, an unclosed block, a non-mapping and an alias bomb', () => {
    const bomb = [
      '---',
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefgh'.split('').map(
        (k, i) =>
          `${k}: &${k} [${Array(10)
            .fill(`*${i === 0 ? 'a' : 'abcdefgh'[i]}`)
            .join(', ')}]`,
      ),
      '---',
    ].join('\n');
    const cases: [string, RegExp][] = [
      ['---\nstatus: ready\nstatus: merged\n---\n', /line 3: .*unique|duplicate/i],
      ['# title\nstatus: ready\n', /no frontmatter/],
      ['---\nstatus: ready\n', /not closed/],
      ['---\n- a\n- b\n---\n', /not a mapping/],
      ['---\n\n---\n', /empty/],
      [bomb, /alias|Excessive/i],
    ];
    for (const [text, expected] of cases) {
      const r = parseFrontmatter(text);
      assert.equal(r.ok, false, text);
      assert.match(!r.ok ? r.message : '', expected);
    }
  });
});

describe('spec backlog summary', () => {
  it('counts the fixture repo by status and risk, shows unknown values and lists in-flight and invalid specs', async () => {
    const b = summarizeSpecs(fixtureRepo, await scanSpecs(host, fixtureRepo));
    assert.equal(b.total, 8);
    assert.deepEqual(b.status, { draft: 1, ready: 1, 'in-flight': 2, merged: 1 });
    assert.deepEqual(b.unknownStatus, { blocked: 1 });
    assert.deepEqual(b.risk, { HIGH: 1, MEDIUM: 2, LOW: 2 });
    assert.deepEqual(b.unknownRisk, { '(missing)': 1 });
    assert.deepEqual(b.inFlight, [
      { file: 'specs/0002-csharp-sdk.md', spec: '0002', name: 'C# SDK', risk: 'HIGH' },
      { file: 'specs/0003-billing.md', spec: '0003', name: 'Billing export', risk: 'MEDIUM' },
    ]);
    assert.deepEqual(
      b.invalid.map((i) => i.file),
      ['specs/0007-broken.md', 'specs/0008-no-frontmatter.md'],
    );
    assert.match(b.invalid[0].message, /^line 4: Flow sequence/);
    assert.equal(b.wipCap, undefined);
  });

  it('judges the WIP cap on the in-flight count', () => {
    const specs = [
      { file: 'a', status: 'in-flight' },
      { file: 'b', status: 'in-flight' },
      { file: 'c', status: 'ready' },
    ];
    assert.deepEqual(summarizeSpecs('/r', specs, 2).wipCap, { cap: 2, inFlight: 2, breached: false });
    assert.deepEqual(summarizeSpecs('/r', specs, 1).wipCap, { cap: 1, inFlight: 2, breached: true });
    assert.deepEqual(summarizeSpecs('/r', specs, 0).wipCap, { cap: 0, inFlight: 2, breached: true });
  });

  it('reads only regular .md files in specs/, never a symlink that could point outside', async () => {
    const repo = await tempRepo();
    const outside = await mkdtemp(join(tmpdir(), 'sluice-outside-'));
    await writeFile(join(outside, 'secret.md'), '---\nstatus: in-flight\nname: secret\n---\n');
    await symlink(join(outside, 'secret.md'), join(repo, 'specs', '0099-link.md'));
    await mkdir(join(repo, 'specs', 'nested.md'));
    const b = summarizeSpecs(repo, await scanSpecs(host, repo));
    assert.equal(b.total, 8);
    assert.ok(!b.inFlight.some((f) => f.name === 'secret'));
    await rm(repo, { recursive: true });
    await rm(outside, { recursive: true });
  });
});

describe('sluice specs', () => {
  it('--json prints the backlog; --repo is resolved from the project folder', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'sluice-specs-parent-'));
    await cp(fixtureRepo, join(parent, 'service'), { recursive: true });
    const r = await sluiceJson<SpecBacklog>(parent, ['specs', '--repo', 'service']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.doc.repo, join(parent, 'service'));
    assert.equal(r.doc.status['in-flight'], 2);
    assert.deepEqual(r.doc.unknownStatus, { blocked: 1 });
    await rm(parent, { recursive: true });
  });

  it('prints counts, the unknown status and the in-flight names for people', async () => {
    const repo = await tempRepo();
    const r = await sluice(repo, ['specs']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Status: 1 merged · 2 in-flight · 1 ready · 1 draft · 1 "blocked"/);
    assert.match(r.stdout, /Risk: {3}1 HIGH · 2 MEDIUM · 2 LOW · 1 \(missing\)/);
    assert.match(r.stdout, /0002 +HIGH +C# SDK +specs\/0002-csharp-sdk\.md/);
    assert.match(r.stdout, /specs\/0007-broken\.md: line 4: /);
    await rm(repo, { recursive: true });
  });

  it('exits 1 with WIP_CAP_BREACHED when more specs are in flight than the cap, and 0 at the cap', async () => {
    const repo = await tempRepo();
    const breached = await sluiceJson<SpecBacklog & { error: { code: string } }>(repo, ['specs', '--wip-cap', '1']);
    assert.equal(breached.code, 1);
    assert.equal(breached.doc.error.code, 'WIP_CAP_BREACHED');
    assert.deepEqual(breached.doc.wipCap, { cap: 1, inFlight: 2, breached: true });
    const human = await sluice(repo, ['specs', '--wip-cap', '1']);
    assert.equal(human.code, 1);
    assert.match(human.stdout, /WIP_CAP_BREACHED: 2 specs in flight, the WIP cap is 1/);
    const ok = await sluice(repo, ['specs', '--wip-cap', '2']);
    assert.equal(ok.code, 0);
    await rm(repo, { recursive: true });
  });

  it('refuses a cap that is not a whole number with exit 2', async () => {
    const repo = await tempRepo();
    const bad = await sluice(repo, ['specs', '--wip-cap', 'three']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /USAGE: --wip-cap must be a whole number of specs, got "three"/);
    await rm(repo, { recursive: true });
  });

  it('a repo without specs/ is an empty backlog (exit 0), as in the reference', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'sluice-nospecs-'));
    const human = await sluice(empty, ['specs']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /Spec backlog: empty, .* has no specs\/ folder/);
    const { code, doc } = await sluiceJson<SpecBacklog>(empty, ['specs', '--wip-cap', '0']);
    assert.equal(code, 0);
    assert.deepEqual([doc.total, doc.specsFolder, doc.inFlight, doc.wipCap], [0, false, [], { cap: 0, inFlight: 0, breached: false }]);
    await rm(empty, { recursive: true });
  });

  it('lists markdown files that are not specs apart (no frontmatter, not named NNNN-), never counting them', async () => {
    const repo = await tempRepo();
    const before = (await sluiceJson<SpecBacklog>(repo, ['specs'])).doc;
    await writeFile(join(repo, 'specs', 'README.md'), '# Specs\n\nOne file per change, named NNNN-name.md.\n');
    await writeFile(join(repo, 'specs', 'index.md'), '- [0001](0001-login.md)\n');
    const { doc } = await sluiceJson<SpecBacklog>(repo, ['specs']);
    assert.equal(doc.total, before.total);
    assert.deepEqual(doc.invalid, before.invalid, 'a NNNN- file without frontmatter is still an invalid spec');
    assert.deepEqual(doc.otherFiles, ['specs/README.md', 'specs/index.md']);
    const human = await sluice(repo, ['specs']);
    assert.match(human.stdout, /Not specs, not counted .*\(2\)\n\s+specs\/README\.md\n\s+specs\/index\.md/);
    await rm(repo, { recursive: true });
  });
});

describe('spec-backlog gate', () => {
  const kernelAt = (root: string) => createKernel({ host: createNodeHost({ cwd: root }), projectRoot: root, plugins: [sdlcViewsPlugin] });

  it('reports the backlog as INFO rows that pass, so it never blocks or asks for approval', async () => {
    const repo = await tempRepo();
    const rows = await (await kernelAt(repo)).runGate('spec-backlog', { wipCap: 1 });
    assert.ok(rows.length >= 4);
    assert.ok(rows.every((r) => r.severity === 'INFO' && r.passed === true && r.gate === 'INFO-spec-backlog'));
    assert.match(
      rows[0].message,
      /^8 specs: 1 merged · 2 in-flight · 1 ready · 1 draft · 1 "blocked"; risk 1 HIGH · 2 MEDIUM · 2 LOW · 1 \(missing\); 2 invalid$/,
    );
    assert.ok(rows.some((r) => r.check === 'in-flight 0002' && /C# SDK/.test(r.message)));
    assert.ok(rows.some((r) => r.check === 'WIP cap' && /2 in flight, cap 1 \(breached\)/.test(r.message)));
    await rm(repo, { recursive: true });
  });

  it('says so when there is no specs/ folder instead of failing the gate run', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'sluice-nospecs-'));
    const rows = await (await kernelAt(empty)).runGate('spec-backlog', undefined);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].passed, true);
    assert.match(rows[0].message, /no specs\/ folder in .*: the backlog is empty/);
    await rm(empty, { recursive: true });
  });

  it('refuses a repo input that escapes the project', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'sluice-nospecs-'));
    await assert.rejects((await kernelAt(empty)).runGate('spec-backlog', { repo: '../../etc' }), /PATH_OUTSIDE_PROJECT/);
    await rm(empty, { recursive: true });
  });
});
