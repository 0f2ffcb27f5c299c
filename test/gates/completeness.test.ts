import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GateResult } from '../../core/index.ts';
import { markdownCodeLines, scanPlaceholders } from '../../gates/completeness/placeholder-scan.ts';
import { data, sdlcKernel, sluice, tempDir, writeCurrentArtifacts, writeFileIn } from '../sdlc/sdlc-fixture.ts';

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
    assert.deepEqual((await scan('Intro\nTODO: write the intro\n')).hits.map((h) => [h.line, h.text]), [[2, 'TODO']]);
    assert.deepEqual((await scan('Budget is TBD.\n')).hits.map((h) => h.text), ['TBD']);
  });

  it('ignores fenced and indented code and inline code spans, not prose', async () => {
    const md = 'Run it:\n\n```sh\nPORT=8080 npm start  # listens on ${PORT}\n# TODO in a comment of an example\n```\n\n    indented ${HOME} example\n\nSet `${PORT}` or `TODO` inline.\n\nPort is ${PORT} in prose.\n';
    const r = await scan(md);
    assert.deepEqual(r.hits.map((h) => [h.line, h.text]), [[12, '${PORT}']]);
  });

  it('honours WAIVED: who — why on the line and the line below, and reports malformed waivers', async () => {
    const r = await scan('# Pricing\nWAIVED: Dana Whitfield — vendor quote arrives after Discovery\nUnit price: TBD\nSupport tier: TBD\nWAIVED: nobody\n');
    assert.deepEqual(r.hits.map((h) => h.line), [4]);
    assert.equal(r.waivers.length, 1);
    assert.deepEqual([r.waivers[0].who, r.waivers[0].why, r.waivers[0].markers.map((m) => m.line)], ['Dana Whitfield', 'vendor quote arrives after Discovery', [3]]);
    assert.deepEqual(r.badWaivers.map((b) => b.line), [5]);
  });

  it('takes markers from the profile: `...` matches any text', async () => {
    const r = await scan('Owner: <<fill in>>\nStatus: TODO\n', ['<<...>>']);
    assert.deepEqual(r.hits.map((h) => h.text), ['<<fill in>>']);
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

  it('uses the markers of the frozen profile (sluice.placeholder_markers)', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    const profile = join(dir, '.sdlc', 'profile.yaml');
    await writeFile(profile, `${await readFile(profile, 'utf8')}\nsluice:\n  placeholder_markers: ["XXX", "<<...>>"]\n`);
    await writeCurrentArtifacts(kernel);
    const statement = join(dir, '.sdlc/artifacts/00-discovery/problem-statement.md');
    await writeFile(statement, `${await readFile(statement, 'utf8')}\nTODO stays allowed here; the owner is <<name>>.\n`);
    const rows = data<{ results: GateResult[] }>(await sluice(kernel, 'gate')).results.filter((r) => r.gate === 'G2-completeness' && r.passed === false);
    assert.deepEqual(rows.map((r) => r.artifact), ['problem-statement.md']);
    assert.match(rows[0].message, /<<name>> at problem-statement\.md:\d+/);
  });
});
