import type { Browser } from 'playwright-core';

export interface ImageComparison {
  actual: { width: number; height: number };
  baseline: { width: number; height: number };
  /** Mean absolute difference per channel (0–255) between the two images scaled to one thumbnail. */
  meanDiff: number;
  /** Share of thumbnail pixels where some channel differs by more than 48. */
  changedShare: number;
  /** Share of screenshot pixels that are not near-white: a blank or unstyled page has almost none. */
  inkShare: number;
  /** Share of screenshot pixels in the timeline's bar colours (green, blue, amber). */
  barShare: number;
}

/**
 * Runs in the page, so it is plain JavaScript in a string: the TypeScript loader would otherwise
 * wrap its functions in helpers the browser does not have.
 */
const COMPARE_IN_PAGE = String.raw`async ({ a, b }) => {
  const load = (src) =>
    new Promise((done, fail) => {
      const img = new Image();
      img.onload = () => done(img);
      img.onerror = () => fail(new Error('image does not decode'));
      img.src = src;
    });
  const [ia, ib] = await Promise.all([load(a), load(b)]);
  const pixels = (img, w, h) => {
    const c = document.createElement('canvas');
    c.width = w;
    c.height = h;
    const ctx = c.getContext('2d');
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(img, 0, 0, w, h);
    return ctx.getImageData(0, 0, w, h).data;
  };
  const tw = 160;
  const th = Math.max(1, Math.round((ib.naturalHeight * tw) / ib.naturalWidth));
  const pa = pixels(ia, tw, th);
  const pb = pixels(ib, tw, th);
  let sum = 0;
  let changed = 0;
  for (let i = 0; i < pa.length; i += 4) {
    const d = [0, 1, 2].map((k) => Math.abs(pa[i + k] - pb[i + k]));
    sum += d[0] + d[1] + d[2];
    if (Math.max(...d) > 48) changed++;
  }
  const full = pixels(ia, ia.naturalWidth, ia.naturalHeight);
  let ink = 0;
  let bars = 0;
  for (let i = 0; i < full.length; i += 4) {
    const [r, g, bl] = [full[i], full[i + 1], full[i + 2]];
    if (r < 235 || g < 235 || bl < 235) ink++;
    const green = r < 60 && g > 100 && g < 150 && bl < 80;
    const blue = r < 30 && g > 80 && g < 130 && bl > 190;
    const amber = r > 170 && g > 110 && g < 150 && bl < 30;
    if (green || blue || amber) bars++;
  }
  const n = full.length / 4;
  return {
    actual: { width: ia.naturalWidth, height: ia.naturalHeight },
    baseline: { width: ib.naturalWidth, height: ib.naturalHeight },
    meanDiff: sum / ((pa.length / 4) * 3),
    changedShare: changed / (pa.length / 4),
    inkShare: ink / n,
    barShare: bars / n,
  };
}`;

/**
 * Compares two PNGs in the browser itself (it decodes PNG; no image library needed). Both are drawn
 * into one small thumbnail, so anti-aliasing and a few pixels of font drift do not count while a
 * missing stylesheet, timeline or table does.
 */
export async function compareImages(browser: Browser, actual: Buffer, baseline: Buffer): Promise<ImageComparison> {
  const page = await browser.newPage();
  try {
    const args = { a: `data:image/png;base64,${actual.toString('base64')}`, b: `data:image/png;base64,${baseline.toString('base64')}` };
    return (await page.evaluate(`(${COMPARE_IN_PAGE})(${JSON.stringify(args)})`)) as ImageComparison;
  } finally {
    await page.close();
  }
}
