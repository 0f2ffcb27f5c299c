import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GateResult } from '../../core/index.ts';
import { markdownCodeLines, scanPlaceholders } from '../../gates/completeness/placeholder-scan.ts';
import { data, editFrozen, passPhase, readState, sdlcKernel, sluice, tempDir, writeCurrentArtifacts, writeFileIn } from '../sdlc/sdlc-fixture.ts';
import { readArtifactMetrics } from '../../gates/consistency/artifact-metrics.ts';

const DEFAULTS = ['TODO', 'TBD', 'FIXME', '${...}', '[placeholder]'];
const scan = async (text: string, markers = DEFAULTS) => scanPlaceholders(text, markers, await markdownCodeLines(text));

/** Runs G2 on files written into a temp project, as the planner would pass them. */
async function g2(files: Record<string, string>, markers?: string[]): Promise<GateResult[]> {
  const dir = await tempDir();
  for (const [name, text] of Object.entries(files)) await writeFileIn(dir, name, text);
  const kernel = await sdlcKernel(dir);
  const artifacts = Object.keys(files).map((name) => ({ name, rel: name, dir: false, applies: true }));
  return kernel.runGate('completeness', { projectRoot: dir, artifacts, ...(markers ? { markers } : {}) });
}

describe('G2-completeness placeholder scan', () => {
  it('matches markers as whole tokens: MASTODON, TODOS and todo never trip, TODO: does', async () => {
    assert.deepEqual((await scan('The MASTODON instance\nTODOS list\nthe todo app\n')).hits, []);
    assert.deepEqual(
      (await scan('Intro\nTODO: write the intro\n')).hits.map((h) => [h.line, h.text]),
      [[2, 'TODO']],
    );
    assert.deepEqual(
      (await scan('Budget is TBD.\n')).hits.map((h) => h.text),
      ['TBD'],
    );
  });

  it('ignores fenced and indented code and inline code spans, not prose', async () => {
    const md =
      'Run it:\n\n```sh\nPORT=8080 npm start  # listens on ${PORT}\n# TODO in a comment of an example\n```\n\n    indented ${HOME} example\n\nSet `${PORT}` or `TODO` inline.\n\nPort is ${PORT} in prose.\n';
    const r = await scan(md);
    assert.deepEqual(
      r.hits.map((h) => [h.line, h.text]),
      [[12, '${PORT}']],
    );
  });

  it('a WAIVED: who — why line waives the whole file, keeps what it waived, and reports malformed waivers', async () => {
    const r = await scan('# Pricing\nWAIVED: Dana Whitfield — vendor quote arrives after Discovery\nUnit price: TBD\n\nSupport tier: TBD\nWAIVED: nobody\n');
    assert.deepEqual(r.hits, []);
    assert.equal(r.waivers.length, 1);
    assert.deepEqual(
      [r.waivers[0].who, r.waivers[0].why, r.waivers[0].markers.map((m) => m.line)],
      ['Dana Whitfield', 'vendor quote arrives after Discovery', [3, 5]],
    );
    assert.deepEqual(
      r.badWaivers.map((b) => b.line),
      [6],
    );
  });

  it("accepts the reference's waiver forms: em/en dash, hyphen, comma, colon; bullets, quotes and bold, `**` never in the name", async () => {
    const forms = [
      'WAIVED: Dana Whitfield — no live carrier API',
      'WAIVED: Dana Whitfield – no live carrier API',
      'WAIVED: Dana Whitfield - no live carrier API',
      'WAIVED: Dana Whitfield, no live carrier API',
      'WAIVED: Dana Whitfield: no live carrier API',
      '- WAIVED: Dana Whitfield — no live carrier API',
      '> WAIVED: Dana Whitfield — no live carrier API',
      '**WAIVED:** Dana Whitfield — no live carrier API',
      '**WAIVED**: **Dana Whitfield** — no live carrier API',
      '* **Waived:** Dana Whitfield—no live carrier API',
    ];
    for (const line of forms) {
      const r = await scan(`# Spike\n${line}\n\nFindings: TBD\n`);
      assert.deepEqual(
        r.waivers.map((w) => [w.who, w.why]),
        [['Dana Whitfield', 'no live carrier API']],
        line,
      );
      assert.deepEqual(r.hits, [], line);
    }
    for (const line of ['WAIVED: because we ran out of time', 'WAIVED:', '**WAIVED:** — no reason given']) {
      const r = await scan(`# Spike\n${line}\nFindings: TBD\n`);
      assert.equal(r.waivers.length, 0, line);
      assert.equal(r.badWaivers.length, 1, line);
    }
  });

  it("finds the reference templates' markers: <!-- REQUIRED: … -->, PLACEHOLDER, [INSERT …]", async () => {
    const markers = (await import('../../gates/completeness/placeholder-scan.ts')).DEFAULT_PLACEHOLDER_MARKERS;
    const r = await scan(
      '# Problem\n<!-- REQUIRED: the problem in two sentences -->\n\nOwner: PLACEHOLDER\nDate: [INSERT date]\nA <!-- note --> is fine, as is PLACEHOLDERS.\n',
      markers,
    );
    assert.deepEqual(
      r.hits.map((h) => [h.line, h.text]),
      [
        [2, '<!-- REQUIRED:'],
        [4, 'PLACEHOLDER'],
        [5, '[INSERT date]'],
      ],
    );
  });

  it('takes markers from the profile: `...` matches any text', async () => {
    const r = await scan('Owner: <<fill in>>\nStatus: TODO\n', ['<<...>>']);
    assert.deepEqual(
      r.hits.map((h) => h.text),
      ['<<fill in>>'],
    );
  });
});

describe('G2-completeness gate on real files', () => {
  it('passes a complete file, fails empty files and placeholders with file and line, reports waivers', async () => {
    const rows = await g2({
      'ok.md': '# Scope\nThe MASTODON adapter is out of scope.\n\n```\nexport PORT=${PORT}\n```\n',
      'empty.md': '\n  \n',
      'todo.md': '# Risks\n\nTODO\n',
      'waived.md': '# Budget\nWAIVED: Ana Ruiz — finance confirms in week 2\nBudget: TBD\n',
    });
    const by = Object.fromEntries(rows.map((r) => [r.artifact, r]));
    assert.equal(by['ok.md'].passed, true);
    assert.equal(by['empty.md'].passed, false);
    assert.match(by['empty.md'].message, /empty\.md is empty/);
    assert.equal(by['todo.md'].passed, false);
    assert.match(by['todo.md'].message, /TODO at todo\.md:3/);
    assert.equal(by['waived.md'].passed, true);
    assert.match(by['waived.md'].message, /1 waiver: Ana Ruiz — finance confirms in week 2 \(waived\.md:2\)/);
    assert.ok(rows.every((r) => r.severity === 'MUST' && r.gate === 'G2-completeness'));
  });

  it('a repeated gate run with the same results leaves state.yaml untouched; a changed result is stored', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    await writeCurrentArtifacts(kernel);
    await sluice(kernel, 'gate');
    const state = join(dir, '.sdlc/state.yaml');
    const { stat } = await import('node:fs/promises');
    const before = await stat(state);
    const text = await readFile(state, 'utf8');
    await sluice(kernel, 'gate');
    assert.equal((await stat(state)).mtimeMs, before.mtimeMs, 'nothing new to store: no rewrite');
    assert.equal(await readFile(state, 'utf8'), text);
    await writeFile(join(dir, '.sdlc/artifacts/00-discovery/constraints.md'), '# Constraints\n\nBudget: TBD\n');
    await sluice(kernel, 'gate');
    const stored = ((await readState(kernel)).phases['0'].gate_results as { results: GateResult[] }).results;
    assert.equal(stored.find((r) => r.id === 'G2:constraints.md')?.passed, false);
  });

  it('uses the markers of the frozen profile (sluice.placeholder_markers)', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    await editFrozen(dir, '.sdlc/profile.yaml', (t) => `${t}\nsluice:\n  placeholder_markers: ["XXX", "<<...>>"]\n`);
    await writeCurrentArtifacts(kernel);
    const statement = join(dir, '.sdlc/artifacts/00-discovery/problem-statement.md');
    await writeFile(statement, `${await readFile(statement, 'utf8')}\nTODO stays allowed here; the owner is <<name>>.\n`);
    const rows = data<{ results: GateResult[] }>(await sluice(kernel, 'gate')).results.filter((r) => r.gate === 'G2-completeness' && r.passed === false);
    assert.deepEqual(
      rows.map((r) => r.artifact),
      ['problem-statement.md'],
    );
    assert.match(rows[0].message, /<<name>> at problem-statement\.md:\d+/);
  });
});

const g5 = (o: { data: unknown }) => (o.data as { results: GateResult[] }).results.filter((r) => r.gate === 'G5-consistency');

describe('G5-consistency: locked metrics and drift', () => {
  it('reads budget-like lines from markdown lists, bold labels and tables, outside code', () => {
    const metrics = readArtifactMetrics('- Budget: $180,000\n**Timeline:** 14 weeks\n| Team size | 4 |\n```\nBudget: $1\n```\nDeadline: 2026-09-30\n');
    assert.deepEqual(
      metrics.map((m) => [m.key, m.value]),
      [
        ['artifact.budget', '$180,000'],
        ['artifact.timeline', '14 weeks'],
        ['artifact.team_size', '4'],
        ['artifact.deadline', '2026-09-30'],
      ],
    );
  });

  it('locks metrics at the phase exit, then reports drift with both values as SHOULD (never blocking)', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    const first = g5(await sluice(kernel, 'gate'));
    assert.equal(first.find((r) => r.id === 'G5:locked')?.severity, 'INFO');
    await passPhase(kernel);
    const locked = (await readState(kernel)).phases['0'].locked_metrics ?? {};
    assert.equal(locked['quality.coverage_minimum'].value, 60);
    assert.equal(locked['artifact.budget'].value, '$180,000');
    assert.deepEqual(locked['compliance.frameworks'].value, ['none']);

    await editFrozen(dir, '.sdlc/profile.yaml', (t) => t.replace('coverage_minimum: 60', 'coverage_minimum: 40'));
    const constraints = join(dir, '.sdlc/artifacts/00-discovery/constraints.md');
    await writeFile(constraints, (await readFile(constraints, 'utf8')).replace('$180,000', '$240,000'));
    await writeCurrentArtifacts(kernel);
    await writeFile(join(dir, '.sdlc/artifacts/01-requirements/epics.md'), '# Epics\n\n- Timeline: 20 weeks\n');
    const out = await sluice(kernel, 'next');
    const rows = g5(out);
    const drift = Object.fromEntries(rows.filter((r) => r.passed === false).map((r) => [r.id, r.message]));
    assert.match(
      drift['G5:quality.coverage_minimum'],
      /quality\.coverage_minimum drifted: 60 when phase 0 was left \(profile\.yaml quality\.coverage_minimum\), now 40/,
    );
    assert.match(drift['G5:artifact.budget'], /artifact\.budget drifted: \$180,000 when phase 0 was left \(00-discovery\/constraints\.md:\d+\), now \$240,000/);
    assert.match(
      drift['G5:artifact.timeline:conflict'],
      /artifact\.timeline is 14 weeks in 00-discovery\/constraints\.md:\d+ but 20 weeks in 01-requirements\/epics\.md:\d+/,
    );
    assert.ok(rows.filter((r) => r.passed === false).every((r) => r.severity === 'SHOULD'));
    assert.equal(data<{ status: string }>(out).status, 'review-required', 'drift warns, it does not block');
  });

  it("reads the Locked Metrics tables of earlier phases' frozen layers: drift against the artifacts warns, a person confirms the rest", async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    assert.equal(
      g5(await sluice(kernel, 'gate')).some((r) => r.id === 'G5:frozen-layers'),
      false,
      'no layers, no row',
    );
    await passPhase(kernel);
    const layer = (rows: string) =>
      `---\nphase: 0\n---\n\n# Phase 0: Discovery — Frozen Layer\n\n## Locked Metrics\n\n| Metric | Value | Source Artifact |\n|--------|-------|-----------------|\n${rows}\n## Constraints Carried Forward\n\n- On-prem only\n`;
    await writeFileIn(
      dir,
      '.sdlc/context/layers/phase0-discovery.md',
      layer('| Budget | $120,000 | constraints.md |\n| **Stakeholder roster** | Ana Ruiz, Omar Haddad | problem-statement.md |\n'),
    );
    await writeFileIn(dir, '.sdlc/context/layers/phase1-requirements.md', layer('| Budget | $1 | requirements.md |\n'));
    await writeFileIn(dir, '.sdlc/context/layers/phase9-monitoring.md', layer('| Timeline | 99 weeks | x.md |\n'));
    await writeCurrentArtifacts(kernel);
    const rows = g5(await sluice(kernel, 'gate'));
    const drift = rows.filter((r) => String(r.id).startsWith('G5:layer:'));
    assert.deepEqual(
      drift.map((r) => [r.check, r.passed, r.severity]),
      [['Budget', false, 'SHOULD']],
    );
    assert.match(
      drift[0].message,
      /Budget drifted: \$120,000 locked in \.sdlc\/context\/layers\/phase0-discovery\.md:11, now \$180,000 \(00-discovery\/constraints\.md:\d+\); record the change in the phase's decision-log\.md/,
    );
    const review = rows.find((r) => r.id === 'G5:frozen-layers')!;
    assert.deepEqual([review.passed, review.severity], [null, 'SHOULD']);
    assert.match(
      review.message,
      /^1 frozen layer \(\.sdlc\/context\/layers\/phase0-discovery\.md\) lock 2 metrics and carried-forward constraints; 1 compared with the artifacts/,
    );
  });
});
