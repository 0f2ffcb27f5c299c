import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { runCli } from '../helpers/run-cli.ts';

describe('sluice demo', () => {
  it('walks SDLC, lifecycle and tune on the script backend and says where the reports are', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'sluice-demo-test-')), 'demo');
    const r = await runCli(['demo', '--json', '--dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    const d = JSON.parse(r.stdout) as {
      sdlc: { finalPhase: string; statePath: string; reportIndex: string; historyLength: number };
      lifecycle: { requirements: { slug: string; status: string }[] };
      tune: { reportPath: string; reason: string };
    };
    const state = parse(readFileSync(d.sdlc.statePath, 'utf8')) as { current_phase: unknown; history: { reentry?: boolean; skipped?: boolean }[] };
    assert.equal(String(state.current_phase), 'close');
    assert.equal(state.history.length, d.sdlc.historyLength);
    assert.ok(
      state.history.some((h) => h.reentry),
      'the walk re-entered a phase',
    );
    assert.ok(
      state.history.some((h) => h.skipped),
      'the walk skipped a phase',
    );
    assert.match(readFileSync(d.sdlc.reportIndex, 'utf8'), /<html/i);
    assert.deepEqual(
      d.lifecycle.requirements.map((x) => x.status),
      ['COMMITTED', 'COMMITTED', 'COMMITTED'],
    );
    const log = execFileSync('git', ['log', '--format=%s'], { cwd: join(dir, 'lifecycle-project'), encoding: 'utf8' });
    for (const req of d.lifecycle.requirements) assert.match(log, new RegExp(req.slug));
    assert.equal(d.tune.reason, 'quality_threshold_met');
    assert.match(readFileSync(d.tune.reportPath, 'utf8'), /score/i);
    assert.ok(existsSync(d.tune.reportPath.replace('final-report.md', 'score-chart.svg')) || /\.svg/.test(readFileSync(d.tune.reportPath, 'utf8')));
  });

  it('refuses a --dir that is not empty, exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-demo-full-'));
    await writeFile(join(dir, 'keep.txt'), 'x');
    const r = await runCli(['demo', '--dir', dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /must be a new or empty folder/);
  });
});
