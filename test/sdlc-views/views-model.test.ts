import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { GateContext } from '../../core/index.ts';
import { exitCriteriaGate } from '../../gates/exit-criteria-gate.ts';
import { createPhaseModel } from '../../plugins/sdlc/registry/phase-model.ts';
import { proseExitConditions } from '../../plugins/sdlc/registry/required-artifacts.ts';
import type { PhaseRegistry } from '../../plugins/sdlc/registry/registry-schema.ts';
import type { StoredGateResult } from '../../plugins/sdlc/state/gate-result-schema.ts';
import type { HistoryEntry } from '../../plugins/sdlc/state/history-schema.ts';
import type { SdlcState } from '../../plugins/sdlc/state/state-schema.ts';
import { auditGates, compareAudits } from '../../plugins/sdlc-views/model/gate-audit.ts';
import { phaseIntervals } from '../../plugins/sdlc-views/model/phase-intervals.ts';
import { phaseViews } from '../../plugins/sdlc-views/model/phase-views.ts';
import { statusView } from '../../plugins/sdlc-views/model/status-view.ts';
import { formatTimestamp, timestampMs } from '../../plugins/sdlc-views/model/timestamps.ts';
import { html, trusted } from '../../plugins/sdlc-views/report/html-escape.ts';
import { createMarkdownRenderer } from '../../plugins/sdlc-views/report/render-markdown.ts';
import { renderTimeline } from '../../plugins/sdlc-views/report/timeline-svg.ts';

const registry = parse(await readFile('plugins/sdlc/assets/phase-registry.yaml', 'utf8')) as PhaseRegistry;
const model = createPhaseModel(registry, 'phase-registry.yaml');
const T = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;
const result = (
  gate: string,
  passed: boolean | null,
  severity: StoredGateResult['severity'] = 'MUST',
  extra: Partial<StoredGateResult> = {},
): StoredGateResult => ({ gate, passed, message: 'm', severity, ...extra });

function makeState(history: HistoryEntry[], phases: Record<string, Partial<SdlcState['phases'][string]>> = {}, current = '0'): SdlcState {
  const all = Object.fromEntries(
    model.phases.map((p) => [
      String(p.id),
      { name: p.name, status: 'pending' as const, entered_at: null, completed_at: null, gate_results: {}, artifacts: [], ...phases[String(p.id)] },
    ]),
  );
  return {
    version: '1.0',
    profile_id: 'starter',
    project_name: 'P',
    created_at: T(1),
    project_type: 'service',
    current_phase: current,
    phase_name: 'x',
    phases: all,
    history,
  };
}

describe('phase intervals (timeline)', () => {
  it('replays skips and re-entries into one stretch per activation, the last one open', () => {
    const history: HistoryEntry[] = [
      { from: '0', to: '1', at: T(2) },
      { from: '1', to: '2', at: T(3), skipped: true, justification: 'x' },
      { from: '2', to: '1', at: T(5), reentry: true, justification: 'y' },
    ];
    const iv = phaseIntervals(T(1), '0', history, T(9));
    assert.deepEqual(iv.get('0'), [{ start: timestampMs(T(1)), end: timestampMs(T(2)), open: false, endedBy: 'advance', startedBy: 'start' }]);
    assert.deepEqual(
      iv.get('1')!.map((i) => [i.startedBy, i.endedBy, i.open]),
      [
        ['advance', 'skip', false],
        ['reentry', undefined, true],
      ],
    );
    assert.equal(iv.get('1')![1].end, timestampMs(T(9)));
    assert.deepEqual(
      iv.get('2')!.map((i) => i.endedBy),
      ['reentry'],
    );
  });

  it('reads timestamps without a zone as UTC and shows empty ones as a dash', () => {
    assert.equal(timestampMs('2026-03-20T10:00:00'), Date.UTC(2026, 2, 20, 10));
    assert.equal(formatTimestamp('2026-03-20T10:00:00+02:00'), '2026-03-20 08:00 UTC');
    assert.equal(formatTimestamp(null), '—');
  });
});

describe('gate audit', () => {
  const advance = (from: string, to: string, day: number, results: StoredGateResult[], extra: Partial<HistoryEntry> = {}): HistoryEntry => ({
    from,
    to,
    at: T(day),
    results,
    gate_results: { passed: 0, failed: 0, manual: 0 },
    confirmed_by: 'alice',
    ...extra,
  });

  it('counts a run once when the phase record repeats the results of its last advance, and leaves INFO rows out', () => {
    const run = [result('G1-integrity', true), result('INFO-spec-backlog', true, 'INFO'), result('G7-exit-criteria', null, 'MUST', { id: 'G7:a' })];
    const state = makeState(
      [advance('0', '1', 2, run, { approvals: [{ gate: 'G7:a', signed_by: 'bob', at: T(2) }] })],
      { '0': { status: 'completed', gate_results: run } },
      '1',
    );
    const a = auditGates(state);
    assert.equal(a.runs, 1);
    assert.deepEqual(
      a.gates.map((g) => [g.gate, g.results]),
      [
        ['G1-integrity', 1],
        ['G7-exit-criteria', 1],
      ],
    );
    assert.deepEqual(a.approvals, [{ phase: '0', gate: 'G7-exit-criteria', subject: 'G7:a', at: T(2), signedBy: 'bob', via: null, justification: null }]);
    assert.deepEqual(a.overrides, [], 'an approval is not an override');
  });

  it('flags always-passing gates only with enough results, and gates failing in more than half', () => {
    const pass = (n: number) => Array.from({ length: n }, () => result('G2-completeness', true));
    const state = makeState(
      [advance('0', '1', 2, [...pass(2), result('G6-quality', false, 'SHOULD')]), advance('1', '2', 3, [result('G6-quality', true, 'SHOULD')])],
      {
        '2': {
          status: 'active',
          gate_results: [result('G2-completeness', true), result('G6-quality', false, 'SHOULD'), result('G3-metrics', false), result('G3-metrics', true)],
        },
      },
      '2',
    );
    const a = auditGates(state);
    assert.deepEqual(
      a.alwaysPassing.map((g) => g.gate),
      ['G2-completeness'],
    );
    assert.deepEqual(
      a.failingOverHalf.map((g) => g.gate),
      ['G6-quality'],
      'G3 fails exactly half: not over',
    );
    assert.equal(a.gates.find((g) => g.gate === 'G6-quality')!.failRate, 0.667);
    const accepted = a.overrides.filter((o) => o.kind === 'warning-accepted');
    assert.deepEqual(
      accepted.map((o) => [o.phase, o.gate, o.approver]),
      [['0', 'G6-quality', 'alice']],
    );
  });

  it('reads skips and re-entries with the approver name other tools used, and ignores summary-only records', () => {
    const state = makeState(
      [
        { from: '0', to: '1', at: T(2), gate_results: { passed: 6, failed: 0, manual: 1 }, justification: 'All gates passed' },
        { from: '1', to: '2', at: T(3), skipped: true, justification: 'not needed', approved_by: 'carol' } as HistoryEntry,
        { from: '2', to: '1', at: T(4), reentry: true, justification: 'gap' },
      ],
      { '0': { status: 'completed', gate_results: { passed: 6, failed: 0, manual: 1 } } },
      '1',
    );
    const a = auditGates(state);
    assert.equal(a.runs, 0);
    assert.deepEqual(a.transitions, { advances: 1, skips: 1, reentries: 1, signoffs: 0, waiverAcceptances: 0 });
    assert.deepEqual(a.skips, [{ from: '1', to: '2', at: T(3), justification: 'not needed', approver: 'carol' }]);
    assert.deepEqual(a.reentries, [{ from: '2', to: '1', at: T(4), justification: 'gap', approver: null }]);
  });

  it('compares two projects gate by gate, with no delta where only one ran a gate', () => {
    const a = auditGates(makeState([advance('0', '1', 2, [result('G1-integrity', true), result('G1-integrity', false)])], {}, '1'));
    const b = auditGates(makeState([advance('0', '1', 2, [result('G1-integrity', true), result('G5-consistency', true, 'SHOULD')])], {}, '1'));
    assert.deepEqual(compareAudits(a, b), [
      {
        gate: 'G1-integrity',
        a: { results: 2, passRate: 0.5, failRate: 0.5, manualRate: 0 },
        b: { results: 1, passRate: 1, failRate: 0, manualRate: 0 },
        passRateDelta: 0.5,
      },
      { gate: 'G5-consistency', a: null, b: { results: 1, passRate: 1, failRate: 0, manualRate: 0 }, passRateDelta: null },
    ]);
  });
});

describe('phase and status views', () => {
  it('before any gate run, the judgements to sign are the prose conditions with the ids G7 will give them', async () => {
    const views = phaseViews(makeState([]), model, []);
    const discovery = views[0];
    const g7 = await exitCriteriaGate.check({ conditions: proseExitConditions(model.phases[0]) }, {} as GateContext);
    assert.deepEqual(
      discovery.pending.map((p) => p.id),
      g7.map((r) => r.id),
    );
    assert.ok(discovery.pending.every((p) => p.source === 'registry'));
  });

  it('a completed phase has nothing left to sign; an active one lists the manual results of its last run', () => {
    const state = makeState(
      [],
      {
        '0': { status: 'completed' },
        '1': {
          status: 'active',
          gate_results: [result('G7-exit-criteria', null, 'MUST', { id: 'G7:x', check: 'Scope is clear' }), result('G1-integrity', true)],
        },
      },
      '1',
    );
    const [p0, p1] = phaseViews(state, model, []);
    assert.deepEqual(p0.pending, []);
    assert.deepEqual(p1.pending, [{ id: 'G7:x', gate: 'G7-exit-criteria', text: 'Scope is clear', source: 'gate run' }]);
  });

  it('status keeps the last 10 history entries, oldest first, and counts skipped phases as done', () => {
    const history: HistoryEntry[] = Array.from({ length: 12 }, (_, i) => ({ from: '0', to: '1', at: T(i + 2) }));
    const state = makeState(history, { '0': { status: 'completed' }, '1': { status: 'skipped' }, '2': { status: 'active' } }, '2');
    const v = statusView(state, phaseViews(state, model, []), new Map());
    assert.equal(v.history.length, 10);
    assert.equal(v.history[0].at, T(4));
    assert.equal(v.historyTotal, 12);
    assert.deepEqual(v.progress, { done: 2, total: 9, completed: 1, skipped: 1, percent: 22 });
    assert.equal(v.currentPhase.id, '2');
  });
});

describe('report markup', () => {
  it('escapes every interpolated value, in content and attributes, and embeds only trusted markup', () => {
    const evil = `"><script>alert('x')</script>`;
    assert.equal(
      html`<a title="${evil}">${evil}</a>`.markup,
      '<a title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</a>',
    );
    assert.equal(html`<p>${[html`<b>${'<i>'}</b>`, trusted('<hr>'), null, false, 0]}</p>`.markup, '<p><b>&lt;i&gt;</b><hr>0</p>');
  });

  it('markdown keeps raw HTML as text, refuses javascript: links, shows images as alt text and shifts headings', async () => {
    const md = await createMarkdownRenderer();
    const out = md('# Title\n\n<script>x()</script>\n\n[a](javascript:alert(1)) [b](https://example.com)\n\n![chart](http://example.com/c.png)').markup;
    assert.match(out, /<h3>Title<\/h3>/);
    assert.match(out, /&lt;script&gt;x\(\)&lt;\/script&gt;/);
    assert.doesNotMatch(out, /<script|href="javascript:|<img/);
    assert.match(out, /<a href="https:\/\/example\.com" rel="noopener noreferrer">b<\/a>/);
    assert.match(out, /<span class="img-alt">\[image: chart\]<\/span>/);
  });

  it('the timeline escapes phase labels and draws one bar per stretch', () => {
    const svg = renderTimeline(
      [
        {
          id: '0',
          label: '<Discovery & "co">',
          status: 'completed',
          current: false,
          intervals: phaseIntervals(T(1), '0', [{ from: '0', to: '1', at: T(3) }], T(5)).get('0')!,
        },
      ],
      timestampMs(T(1)),
      timestampMs(T(5)),
    ).markup;
    assert.match(svg, /&lt;Discovery &amp; &quot;co&quot;&gt;/);
    assert.doesNotMatch(svg, /<Discovery/);
    assert.equal(svg.match(/<title>/g)!.length, 1);
  });
});
