import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createKernel } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { openProject } from '../../plugins/sdlc/project/open-project.ts';
import { phaseKey } from '../../plugins/sdlc/state/phase-id.ts';
import { collectReport } from '../../plugins/sdlc-views/report/collect-report.ts';
import { renderIndexPage } from '../../plugins/sdlc-views/report/index-page.ts';
import { sdlcViewsPlugin } from '../../plugins/sdlc-views/index.ts';
import { chromiumSkip, launchChromium, openReport } from './chromium.ts';
import { compareImages } from './image-compare.ts';

const fixture = resolve('test/fixtures/sdlc-views/report-project');
const baselinePath = resolve('test/fixtures/sdlc-views/report-index.png');
/** The report's clock is fixed so the timeline (which runs to "now") draws the same every time. */
const NOW = new Date('2026-04-01T12:00:00.000Z');

/** The index page of the fixture project, rendered in-process with the fixed clock. */
async function renderFixtureIndex(): Promise<string> {
  const host = { ...createNodeHost({ cwd: fixture }), now: () => new Date(NOW) };
  const kernel = await createKernel({ host, projectRoot: fixture, plugins: [sdlcViewsPlugin] });
  const project = await openProject(kernel);
  const data = await collectReport(
    kernel,
    project,
    project.model.phases.map((p) => phaseKey(p.id)),
  );
  return renderIndexPage(data);
}

describe('report index screenshot', { skip: chromiumSkip }, () => {
  let browser: Browser;
  let dir: string;
  before(async () => {
    browser = await launchChromium();
    dir = await mkdtemp(join(tmpdir(), 'sluice-shot-'));
  });
  after(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('renders the index like the stored baseline (thumbnail compare), with ink and timeline bars on it', async () => {
    const file = join(dir, 'index.html');
    await writeFile(file, await renderFixtureIndex());
    const { page, problems } = await openReport(browser, file);
    assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], requests: [] });
    const shot = await page.screenshot({ fullPage: true });
    if (process.env.UPDATE_SNAPSHOTS === '1' || !existsSync(baselinePath)) {
      // A missing baseline is written, and the test still compares against it below.
      await writeFile(baselinePath, shot);
    }
    const c = await compareImages(browser, shot, await readFile(baselinePath));
    const detail = JSON.stringify(c);
    assert.equal(c.actual.width, c.baseline.width, detail);
    assert.ok(Math.abs(c.actual.height - c.baseline.height) <= c.baseline.height * 0.05, `page height drifted: ${detail}`);
    assert.ok(c.meanDiff < 6, `page looks different from the baseline (set UPDATE_SNAPSHOTS=1 after a deliberate change): ${detail}`);
    assert.ok(c.changedShare < 0.03, `too many changed areas: ${detail}`);
    assert.ok(c.inkShare > 0.04, `page is nearly blank: ${detail}`);
    assert.ok(c.barShare > 0.002, `no timeline bars: ${detail}`);
  });

  it('a page without its stylesheet does not pass the comparison (the check can fail)', async () => {
    const file = join(dir, 'unstyled.html');
    await writeFile(file, (await renderFixtureIndex()).replace(/<style>[^]*?<\/style>/, ''));
    const { page } = await openReport(browser, file);
    const c = await compareImages(browser, await page.screenshot({ fullPage: true }), await readFile(baselinePath));
    const similar =
      c.actual.width === c.baseline.width &&
      Math.abs(c.actual.height - c.baseline.height) <= c.baseline.height * 0.05 &&
      c.meanDiff < 6 &&
      c.changedShare < 0.03;
    assert.equal(similar, false, JSON.stringify(c));
  });
});
