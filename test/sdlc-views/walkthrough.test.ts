import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import type { StoredGateResult } from '../../plugins/sdlc/state/gate-result-schema.ts';
import type { SdlcState } from '../../plugins/sdlc/state/state-schema.ts';
import type { Browser } from 'playwright-core';
import type { GateAudit } from '../../plugins/sdlc-views/model/gate-audit.ts';
import type { StatusView } from '../../plugins/sdlc-views/model/status-view.ts';
import { chromiumSkip, launchChromium, openReport } from './chromium.ts';
import { removeCliBundle, sluice, sluiceJson } from './views-cli.ts';
import { walkProject } from './walk-project.ts';

let dir = '';
let state: SdlcState;
const kindOf = (h: SdlcState['history'][number]) => (h.reentry ? 'reentry' : h.skipped ? 'skip' : 'advance');

before(async () => {
  ({ dir } = await walkProject());
  state = parse(await readFile(join(dir, '.sdlc/state.yaml'), 'utf8')) as SdlcState;
});
after(removeCliBundle);

describe('views over a project walked with next, skip and reenter', () => {
  it('the walk made the history the views are checked against', () => {
    assert.deepEqual(
      state.history.map((h) => `${h.from}>${h.to}:${kindOf(h)}`),
      ['0>1:advance', '1>2:skip', '2>3:advance', '3>1:reentry', '1>2:advance', '2>3:advance', '3>build:advance', 'build>7:advance', '7>8:advance'],
    );
    assert.equal(String(state.current_phase), '8');
    // The Build loop's gate run carried the spec backlog as INFO rows, stored with its advance.
    const build = state.history.find((h) => String(h.from) === 'build')!;
    const info = (build.results ?? []).filter((r) => r.gate === 'INFO-spec-backlog');
    assert.ok(info.every((r) => r.severity === 'INFO' && r.passed === true));
    assert.match(info[0]?.message ?? '', /^2 specs: 1 merged · 1 in-flight · 0 ready · 0 draft; risk 1 HIGH · 0 MEDIUM · 1 LOW$/);
    assert.ok(info.some((r) => r.check === 'in-flight 0001' && /C# SDK/.test(r.message)));
  });

  it('status agrees with state.yaml: current phase, every phase row, progress and the last 10 entries', async () => {
    const { code, doc } = await sluiceJson<StatusView>(dir, ['status']);
    assert.equal(code, 0);
    assert.equal(doc.project, 'Walk <Project> & "Co"');
    assert.equal(doc.currentPhase.id, '8');
    for (const row of doc.phases) {
      const record = state.phases[row.id];
      assert.equal(row.status, record.status, `phase ${row.id}`);
      assert.equal(row.enteredAt, record.entered_at, `phase ${row.id} entered_at`);
      assert.equal(row.completedAt, record.completed_at, `phase ${row.id} completed_at`);
    }
    const done = Object.values(state.phases).filter((p) => p.status === 'completed' || p.status === 'skipped').length;
    assert.equal(doc.progress.done, done);
    assert.equal(doc.historyTotal, state.history.length);
    assert.deepEqual(
      doc.history.map((h) => [h.from, h.to, h.at, h.kind]),
      state.history.slice(-10).map((h) => [String(h.from), String(h.to), h.at, kindOf(h)]),
    );
    // Phase 7 of a library: runbook-walkthrough and RUNBOOK are not required, README.md is the repo's own.
    const docs = doc.phases.find((p) => p.id === '7')!;
    assert.deepEqual(docs.artifacts, { files: 3, required: 4, requiredPresent: 4 });
  });

  it('status for people shows dashes for empty dates, never null or None', async () => {
    const r = await sluice(dir, ['status']);
    assert.equal(r.code, 0);
    assert.doesNotMatch(r.stdout, /\bnull\b|\bNone\b|undefined/);
    // Unreached phases hold init's starter templates: present, not yet filled in.
    assert.match(r.stdout, /close +Phase C: Close & Transfer +pending +— +— +close\/ +4 +4\/4/);
    assert.match(r.stdout, /1 → 2 skip by bob \(unverified\): "Requirements came with the RFP <b>signed<\/b>"/);
    assert.match(r.stdout, /3 → 1 re-entry by dave \(unverified\): "NFRs missing: \\"p99 latency\\""/);
  });

  it('audit counts every gate result the advances stored, plus the open phase run, and lists every human decision', async () => {
    const { code, doc } = await sluiceJson<GateAudit>(dir, ['audit']);
    assert.equal(code, 0);
    const advances = state.history.filter((h) => kindOf(h) === 'advance');
    // Expected counts straight from the file: each advance's results, then phase 8's recorded run.
    const rows: StoredGateResult[] = [
      ...advances.flatMap((h) => h.results ?? []),
      ...(state.phases['8'].gate_results as { results: StoredGateResult[] }).results,
    ].filter((r) => r.severity !== 'INFO');
    for (const g of doc.gates) {
      const mine = rows.filter((r) => r.gate === g.gate);
      assert.deepEqual(
        [g.results, g.passed, g.failed, g.manual],
        [
          mine.length,
          mine.filter((r) => r.passed === true).length,
          mine.filter((r) => r.passed === false).length,
          mine.filter((r) => r.passed === null).length,
        ],
        g.gate,
      );
    }
    assert.equal(
      doc.gates.reduce((n, g) => n + g.results, 0),
      rows.length,
    );
    assert.ok(!doc.gates.some((g) => g.gate === 'INFO-spec-backlog'), 'INFO rows are reports, not verdicts');
    assert.deepEqual(doc.transitions, { advances: 7, skips: 1, reentries: 1, signoffs: 0, waiverAcceptances: 0 });
    assert.deepEqual(doc.skips, [
      { from: '1', to: '2', at: state.history[1].at, justification: 'Requirements came with the RFP <b>signed</b>', approver: 'bob' },
    ]);
    assert.deepEqual(doc.reentries, [{ from: '3', to: '1', at: state.history[3].at, justification: 'NFRs missing: "p99 latency"', approver: 'dave' }]);
    const approvals = advances.flatMap((h) => (h.approvals ?? []).map((a) => [String(h.from), a.gate, a.signed_by]));
    assert.deepEqual(
      doc.approvals.map((o) => [o.phase, o.subject, o.signedBy]),
      approvals,
    );
    assert.ok(approvals.length >= 7, 'every phase asked for manual sign-off');
    // Phase 8's run has only init's starter templates: G2 fails there; the advances only passed.
    const g2 = doc.gates.find((g) => g.gate === 'G2-completeness')!;
    assert.ok(g2.failed > 0 && g2.phases.includes('8'));
    assert.ok(doc.gates.find((g) => g.gate === 'G7-exit-criteria')!.manualRate === 1);
  });

  it('audit --compare puts two projects side by side', async () => {
    const { code, doc } = await sluiceJson<GateAudit & { compare: { project: string; gates: { gate: string; passRateDelta: number | null }[] } }>(dir, [
      'audit',
      '--compare',
      join(dir, '.sdlc/state.yaml'),
    ]);
    assert.equal(code, 0);
    assert.equal(doc.compare.project, doc.project);
    assert.ok(doc.compare.gates.length > 0 && doc.compare.gates.every((g) => g.passRateDelta === 0));
    const missing = await sluice(dir, ['audit', '--compare', 'nowhere/state.yaml']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /FILE_NOT_FOUND/);
  });

  it('report --all writes an index and one page per phase that agree with the history', async () => {
    const r = await sluiceJson<{ files: string[]; index: string }>(dir, ['report', '--all']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.doc.files.length, 10);
    const pages = (await readdir(join(dir, '.sdlc/reports'))).sort();
    assert.deepEqual(pages, [
      '00-discovery-report.html',
      '01-requirements-report.html',
      '02-design-report.html',
      '03-foundation-report.html',
      '07-documentation-report.html',
      '08-deployment-report.html',
      '09-monitoring-report.html',
      'build-report.html',
      'close-report.html',
      'index.html',
    ]);
    const index = await readFile(r.doc.index, 'utf8');
    for (const h of state.history) if (h.justification) assert.ok(index.includes(escape(h.justification)), `index shows ${h.justification}`);
    for (const [id, record] of Object.entries(state.phases))
      assert.match(index, new RegExp(`<g class="row" data-phase="${id}" data-status="${record.status}">`));
    // Phase 1 was active, skipped, re-entered and advanced: two stretches on the timeline, the first dashed.
    const row1 = /<g class="row" data-phase="1"[^]*?<\/g>/.exec(index)![0];
    assert.equal(row1.match(/<title>/g)!.length, 2);
    assert.match(row1, /stroke-dasharray/);
    const p7 = await readFile(join(dir, '.sdlc/reports/07-documentation-report.html'), 'utf8');
    assert.match(p7, /<code>README\.md<\/code>/);
    assert.match(p7, /runbook-walkthrough\.md<\/td><td>required<\/td>[^]*?not required[^]*?required only for service, app, not for library projects/);
    assert.match(p7, /data-artifact="README\.md"/, "the repo's README is rendered on the phase 7 page");
    assert.ok(!p7.includes('<script>window.__pwned'), 'artifact HTML is escaped');
    assert.match(p7, /&lt;script&gt;window\.__pwned = 1&lt;\/script&gt;/);
  });
});

describe('report pages of the walked project in headless Chromium', { skip: chromiumSkip }, () => {
  let browser: Browser;
  let pages: { files: string[]; index: string };
  before(async () => {
    browser = await launchChromium();
    const r = await sluiceJson<{ files: string[]; index: string }>(dir, ['report', '--all', '--out', '.sdlc/browser-check']);
    assert.equal(r.code, 0, r.stderr);
    pages = r.doc;
  });
  after(() => browser?.close());

  it('every page renders with no console error, no script run and no request outside the file', async () => {
    for (const file of pages.files) {
      const { page, problems } = await openReport(browser, file);
      assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], requests: [] }, file);
      assert.equal(await page.locator('h1').count(), 1, `one h1 on ${file}`);
      assert.ok(await page.locator('h1').isVisible(), file);
      assert.match(await page.locator('h1').innerText(), /Walk <Project> & "Co"/);
      const svg = await page.locator('.timeline svg').boundingBox();
      assert.ok(svg && svg.width > 500 && svg.height > 200, `timeline drawn on ${file}`);
      assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined', `no artifact script ran on ${file}`);
      await page.close();
    }
  });

  it('phase pages show their gate results, judgements and rendered artifacts', async () => {
    const { page } = await openReport(browser, pages.files.find((f) => f.endsWith('07-documentation-report.html'))!);
    assert.ok(await page.getByRole('heading', { name: /Manual judgements still to sign/ }).isVisible());
    assert.ok(await page.locator('table.gate-results').isVisible());
    const readme = page.locator('section.artifact[data-artifact="README.md"]');
    assert.ok(await readme.isVisible());
    assert.match(await readme.innerText(), /Written by the walkthrough/);
    assert.match(await readme.innerText(), /<script>window\.__pwned = 1<\/script>/, 'raw HTML shows as text');
    assert.match(await readme.innerText(), /\[image: diagram\]/, 'images show as their alt text');
    assert.equal(await readme.locator('a[href^="javascript:"]').count(), 0);
    assert.equal(await readme.locator('table').count(), 1, 'markdown tables render');
    const current = await openReport(browser, pages.files.find((f) => f.endsWith('08-deployment-report.html'))!);
    assert.ok(await current.page.locator('ul.manual.pending li').first().isVisible());
    // init wrote a starter template for every required artifact: the open phase's are present but unfilled.
    assert.ok(
      await current.page
        .getByText(/incomplete: <!-- REQUIRED:/)
        .first()
        .isVisible(),
    );
    await page.close();
    await current.page.close();
  });

  it('the index links to every phase page', async () => {
    const { page } = await openReport(browser, pages.index);
    assert.equal(await page.locator('table.phases a').count(), 9);
    await page.locator('table.phases a', { hasText: 'Phase 7: Documentation' }).click();
    await page.waitForURL(/07-documentation-report\.html$/);
    assert.match(await page.locator('h1').innerText(), /^Phase 7: Documentation/);
    await page.close();
  });
});

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
