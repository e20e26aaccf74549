import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { logIn, putLocalRecord, shot, signUp, waitForDemo } from './helpers';

/*
 * Work is kept: what a person did in the results views is there again after a reload, in another
 * browser when they are signed in, and in the same browser for the demo when signed out.
 */

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const SERIES = 'Battery level';
const status = (page: Page) => page.getByTestId('kept-work-status');
const howTo = (page: Page) => page.getByRole('dialog', { name: 'How to use the Numerical Tab' });
const selectedBlocks = (page: Page) => page.getByRole('region', { name: 'Selected Blocks' });
const minCharacters = (page: Page) => page.getByLabel('Min characters');

async function openDemoView(page: Page, view: 'numerical' | 'region' | 'scroll'): Promise<void> {
  await page.goto(`/demo?view=${view}`);
  if (view === 'numerical') {
    // The how-to opens with the view, on the first visit in this browser only: close it when it is there.
    await expect(page.locator('polygon.numerical-box').first()).toBeVisible({ timeout: 30_000 });
    if (await howTo(page).isVisible()) await howTo(page).getByRole('button', { name: 'Got it!' }).click();
  } else {
    await expect(page.getByTestId('frame-overlay')).toBeVisible({ timeout: 30_000 });
  }
}

/** Drags with the mouse between two points of the page. */
async function dragBetween(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

async function boxOf(target: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  await target.scrollIntoViewIfNeeded();
  return (await target.boundingBox())!;
}

/** Numerical: the battery reading as a series, renamed, numbers only, and locked. */
async function nameAndLockSeries(page: Page): Promise<void> {
  await openDemoView(page, 'numerical');
  await page.locator('polygon.numerical-box[data-text*="%"]').first().click();
  await page.getByLabel('Series name').fill(SERIES);
  await page.getByLabel('Numbers only').check();
  await page.getByRole('button', { name: `Lock ${SERIES}` }).click();
  await expect(selectedBlocks(page).getByText('Locked')).toHaveCount(1);
  await expect(status(page)).toHaveText('Saved');
}

/** Region: the green box drawn over the top half, and a minimum length filter. Answers the box as a share of the picture. */
async function drawRegionBox(page: Page): Promise<{ x: number; w: number }> {
  await openDemoView(page, 'region');
  const overlay = await boxOf(page.getByTestId('frame-overlay'));
  await dragBetween(page, { x: overlay.x + overlay.width * 0.1, y: overlay.y + overlay.height * 0.1 }, { x: overlay.x + overlay.width * 0.6, y: overlay.y + overlay.height * 0.5 });
  await minCharacters(page).fill('2');
  await minCharacters(page).blur();
  await expect(status(page)).toHaveText('Saved');
  return greenBoxShare(page);
}

async function greenBoxShare(page: Page): Promise<{ x: number; w: number }> {
  const overlay = await boxOf(page.getByTestId('frame-overlay'));
  const green = (await page.locator('[data-box="Green"]').boundingBox())!;
  return { x: (green.x - overlay.x) / overlay.width, w: green.width / overlay.width };
}

const itemsFound = (page: Page) => page.getByLabel('Statistics').locator('.scroll-stat').filter({ has: page.getByText('Items found', { exact: true }) }).locator('dd');
const scrollTable = (page: Page) => page.locator('table.scroll-table');

/**
 * Scroll: the template drawn around the first line of words on the frame (the charger's title), locked, and Detect
 * Items run. Answers the rows of the results table (one per unique item).
 */
async function lockScrollTemplate(page: Page): Promise<string[]> {
  await openDemoView(page, 'scroll');
  await page.locator('.scroll-words rect').first().scrollIntoViewIfNeeded();
  const line = await page.locator('.scroll-words rect').evaluateAll((rects) => {
    const boxes = rects.map((r) => r.getBoundingClientRect());
    const first = boxes[0]!;
    const row = boxes.filter((b) => Math.abs(b.y + b.height / 2 - (first.y + first.height / 2)) < first.height / 2);
    const left = Math.min(...row.map((b) => b.left));
    const top = Math.min(...row.map((b) => b.top));
    return { left, top, right: Math.max(...row.map((b) => b.right)), bottom: Math.max(...row.map((b) => b.bottom)) };
  });
  await dragBetween(page, { x: line.left - 8, y: line.top - 8 }, { x: line.right + 8, y: line.bottom + 8 });
  await page.getByRole('button', { name: 'Lock Template' }).click();
  await expect(page.getByText(/Locked on Frame 1/)).toBeVisible();
  await expect(status(page)).toHaveText('Saved');
  await page.getByRole('button', { name: 'Detect Items' }).click();
  await expect(itemsFound(page)).not.toHaveText('0', { timeout: 30_000 });
  await expect(status(page)).toHaveText('Saved');
  const rows = await scrollTable(page).locator('tbody tr').allTextContents();
  expect(rows.length).toBeGreaterThan(0);
  return rows;
}

/**
 * Everything left as it was: the locked, named series (and in the CSV), the region box and filter, the template
 * and the items Detect Items found with it, without pressing it again.
 */
async function expectWorkKept(page: Page, region: { x: number; w: number }, items: string[]): Promise<void> {
  await openDemoView(page, 'numerical');
  await expect(selectedBlocks(page).getByText(SERIES).first()).toBeVisible();
  await expect(selectedBlocks(page).getByText('Locked')).toHaveCount(1);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as csv' }).click()]);
  const header = readFileSync(await download.path(), 'utf8').slice(1).split('\r\n')[0];
  expect(header).toBe(`Frame,Time,"${SERIES}"`);

  await openDemoView(page, 'region');
  await expect(minCharacters(page)).toHaveValue('2');
  const now = await greenBoxShare(page);
  expect(Math.abs(now.x - region.x)).toBeLessThan(0.02);
  expect(Math.abs(now.w - region.w)).toBeLessThan(0.02);

  await openDemoView(page, 'scroll');
  await expect(page.getByText(/Locked on Frame 1/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unlock Template' })).toBeVisible();
  await expect(scrollTable(page).locator('tbody tr')).toHaveCount(items.length, { timeout: 30_000 });
  expect(await scrollTable(page).locator('tbody tr').allTextContents()).toEqual(items);
  await scrollTable(page).scrollIntoViewIfNeeded();
  await expect(scrollTable(page).locator('tbody tr').first()).toBeInViewport();
}

async function freshPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    storageState: { cookies: [], origins: [{ origin: 'http://localhost:8080', localStorage: [{ name: 'got_started', value: 'true' }] }] },
  });
  return context.newPage();
}

test('signed in: series, region box and filter, scroll template and its items are there after a reload and in another browser', async ({ page, browser }) => {
  test.setTimeout(300_000);
  await waitForDemo(page);
  await page.setViewportSize(DESKTOP);
  const person = await signUp(page);

  await nameAndLockSeries(page);
  const region = await drawRegionBox(page);
  const items = await lockScrollTemplate(page);
  await shot(page, 'kept-work-saved');

  await page.reload();
  await expectWorkKept(page, region, items);
  await shot(page, 'kept-work-scroll-items');

  // Another browser (nothing of this one's storage), signed in as the same person, on a phone.
  const phone = await freshPage(browser, PHONE);
  const saves: string[] = [];
  phone.on('request', (r) => void (r.method() === 'PUT' && saves.push(r.url())));
  await logIn(phone, person.email, person.password);
  await expect(phone).not.toHaveURL(/\/login/);
  await expectWorkKept(phone, region, items);
  // Only looking changes nothing: opening the views wrote nothing back.
  await expect(status(phone)).toHaveText('Saved');
  expect(saves).toEqual([]);
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the kept-work line fits at 390 px').toBeLessThanOrEqual(0);
  await shot(phone, 'kept-work-phone');
  await phone.context().close();
});

test('signed out: the demo keeps the work in this browser across a reload, and not in another browser', async ({ page, browser }) => {
  await waitForDemo(page);
  await openDemoView(page, 'region');
  await minCharacters(page).fill('3');
  await minCharacters(page).blur();
  await expect(status(page)).toHaveText('Saved in this browser');
  await page.reload();
  await expect(page.getByTestId('frame-overlay')).toBeVisible({ timeout: 30_000 });
  await expect(minCharacters(page)).toHaveValue('3');

  const other = await freshPage(browser, DESKTOP);
  await openDemoView(other, 'region');
  await expect(minCharacters(other)).toHaveValue('0');
  await other.context().close();
});

/** Saves a local run into this browser's resultsDB as the Local page would: two frames with a few words each. */
async function saveLocalRun(page: Page): Promise<string> {
  const thumb = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 360;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#111';
    g.fillRect(0, 0, 640, 360);
    g.fillStyle = '#fff';
    g.font = '32px sans-serif';
    g.fillText('Battery 20%', 64, 72);
    return canvas.toDataURL('image/jpeg');
  });
  const word = (text: string, x: number, w: number) => ({ text, nbox: { x, y: 0.12, w, h: 0.1 }, conf: 95, run: 0 });
  const id = `local-${Date.now()}-keptwk`;
  await putLocalRecord(page, {
    id,
    fileName: 'Kept work clip.mp4',
    uploadedAt: Date.now(),
    duration: 10,
    targetFrameRate: 0.2,
    data: [0, 5].map((t) => ({ t, text: 'Battery 20%', words: [word('Battery', 0.1, 0.2), word('20%', 0.32, 0.1)], thumb, ocrW: 640, ocrH: 360 })),
  });
  return id;
}

test('a local upload keeps its work in this browser, never on the server', async ({ page }) => {
  await signUp(page);
  const id = await saveLocalRun(page);
  const saves: string[] = [];
  page.on('request', (r) => void (r.url().includes('/work/') && saves.push(`${r.method()} ${r.url()}`)));
  await page.goto(`/view-upload/${id}?view=region`);
  await expect(page.getByTestId('frame-overlay')).toBeVisible({ timeout: 30_000 });
  await minCharacters(page).fill('4');
  await minCharacters(page).blur();
  await expect(status(page)).toHaveText('Saved in this browser');
  await page.reload();
  await expect(page.getByTestId('frame-overlay')).toBeVisible({ timeout: 30_000 });
  await expect(minCharacters(page)).toHaveValue('4');
  expect(saves).toEqual([]);
});
