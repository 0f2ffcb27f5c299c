import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

/** Debian's Chromium (CI installs it with apt); never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Why browser tests are skipped, or false when they can run. */
export const chromiumSkip: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed (apt-get install -y chromium); browser checks of the HTML reports are skipped`;

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
}

export interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  /** Every request other than the page itself: a self-contained report makes none. */
  requests: string[];
}

/** Opens a file in a fresh page and records console errors, uncaught errors and outside requests. */
export async function openReport(browser: Browser, file: string): Promise<{ page: Page; problems: PageProblems }> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], requests: [] };
  const url = `file://${file}`;
  page.on('console', (m) => {
    if (m.type() === 'error') problems.consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => problems.pageErrors.push(e.message));
  page.on('request', (r) => {
    if (r.url() !== url) problems.requests.push(r.url());
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems };
}
