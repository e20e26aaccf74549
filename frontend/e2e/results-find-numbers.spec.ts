import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
// Built by the e2e command's build step: media generated on the spot, with the truth of what they show.
import { chargerValues, DASHBOARD_SERIES, dashboardValues, makeDashboardVideo } from '@frametext/sample-media';
import { shot, signUp, uploadThroughWizard, waitForDemo } from './helpers';

const dir = mkdtempSync(path.join(tmpdir(), 'e2e-find-numbers-'));

const findCard = (page: Page) => page.getByRole('region', { name: 'Numbers in one click' });
const selected = (page: Page) => page.getByRole('region', { name: 'Selected Blocks' });

/** Closes the how-to (it opens by itself the first time) and waits for the frame's boxes. */
async function readyToPick(page: Page) {
  const howTo = page.getByRole('dialog', { name: 'How to use the Numerical Tab' });
  await howTo.getByRole('button', { name: 'Got it!' }).click({ timeout: 60_000 });
  await expect(page.locator('polygon.numerical-box').first()).toBeVisible({ timeout: 30_000 });
}

/** Exports the upload's CSV (`<upload name>-results.csv`) and returns its rows, cells split on commas (no cell here holds one) and quotes dropped. */
async function exportCsv(page: Page): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as csv' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^(Demo- EV charger screen|Plant dashboard)-results\.csv$/);
  const text = readFileSync(await download.path(), 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text
    .slice(1)
    .split('\r\n')
    .filter((l) => l !== '')
    .map((l) => l.split(',').map((c) => c.replace(/^"|"$/g, '')));
}

/** The names in the Selected Blocks table, top first; every one of them carries the Locked badge. */
async function lockedNames(page: Page): Promise<string[]> {
  const cells = await selected(page).locator('tbody th').allInnerTexts();
  for (const cell of cells) expect(cell).toMatch(/Locked$/);
  return cells.map((c) => c.replace(/\s*Locked$/, ''));
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('the demo: one click finds Battery, Power and Elapsed, named, locked, charted and exported', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await waitForDemo(page);
  const details = (await (await page.request.get('/api/getUploadDetails/demo')).json()) as { urls: string[]; results: { ocrResults?: { t: number; fileIndex: number }[] } };
  const times = details.urls.map((_, i) => details.results.ocrResults?.find((r) => r.fileIndex === i)?.t ?? 0);
  await page.goto('/demo');
  await readyToPick(page);

  const find = findCard(page).getByRole('button', { name: 'Find the numbers' });
  await expect(find).toBeInViewport();
  await find.click();
  await expect(findCard(page).getByRole('status')).toHaveText(/^Found 3 series: Battery \(%\), Power \(kW\), Elapsed\./);
  expect(await lockedNames(page)).toEqual(['Battery (%)', 'Power (kW)', 'Elapsed']);
  await expect(page.getByRole('img', { name: /^Line chart of Battery \(%\), Power \(kW\), Elapsed over time/ })).toBeVisible();
  await shot(page, 'find-numbers-demo');

  const [header, ...rows] = await exportCsv(page);
  expect(header).toEqual(['Frame', 'Time', 'Battery (%)', 'Power (kW)', 'Elapsed']);
  expect(rows).toHaveLength(times.length);
  let right = 0;
  rows.forEach(([, , battery, power, elapsed], i) => {
    const truth = chargerValues(Math.floor(times[i]!));
    right += Number(battery === truth.battery.replace('%', '')) + Number(power === truth.power.replace(' kW', '')) + Number(elapsed === truth.elapsed);
  });
  // OCR tolerance: at most one reading in ten may be wrong or missing.
  expect(right, `${right} of ${3 * rows.length} values match the charger's screen`).toBeGreaterThanOrEqual(Math.ceil(0.9 * 3 * rows.length));

  // A second click adds nothing twice.
  await find.click();
  await expect(findCard(page).getByRole('status')).toHaveText(/^No new series found/);
  await expect(selected(page).locator('tbody tr')).toHaveCount(3);

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflow(page), 'the Numerical view scrolls sideways at 390 px').toBeLessThanOrEqual(0);
  await findCard(page).scrollIntoViewIfNeeded();
  await shot(page, 'find-numbers-demo-phone');
});

test('a generated dashboard on a phone: one click names and charts all five series, labels left and above', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const video = await makeDashboardVideo({ dir, seconds: 12 });
  await signUp(page);
  const href = await uploadThroughWizard(page, { name: 'Plant dashboard', files: [video.path], intervalLabel: 'Capture text every 1 second', mediaContent: 'numerical' });
  await page.goto(href);
  await readyToPick(page);

  await findCard(page).getByRole('button', { name: 'Find the numbers' }).click();
  await expect(findCard(page).getByRole('status')).toHaveText(/^Found 5 series: /);
  // The table, the chart and the CSV list series top of the screen first: Elapsed sits a few pixels above Speed.
  const names = await lockedNames(page);
  expect([...names].sort()).toEqual([...DASHBOARD_SERIES].sort());
  await expect(page.getByRole('img', { name: new RegExp(`^Line chart of ${names.map((n) => n.replace(/[()%/]/g, '\\$&')).join(', ')} over time`) })).toBeVisible();
  expect(await overflow(page), 'the Numerical view scrolls sideways at 390 px').toBeLessThanOrEqual(0);
  await shot(page, 'find-numbers-dashboard-phone');

  const [header, ...rows] = await exportCsv(page);
  expect(header).toEqual(['Frame', 'Time', ...names]);
  let right = 0;
  rows.forEach(([, time, ...values]) => {
    const [m, s] = time!.split(':').map(Number);
    const truth = dashboardValues(m! * 60 + s!);
    names.forEach((name, k) => {
      const want = truth[name as keyof typeof truth];
      // Cleaned as its kind asks: numbers alone, times as they are.
      if (values[k] === (name === 'Elapsed' ? want : want.replace(/[^\d.]/g, ''))) right++;
    });
  });
  expect(right, `${right} of ${5 * rows.length} values match the dashboard`).toBeGreaterThanOrEqual(Math.ceil(0.9 * 5 * rows.length));
});
