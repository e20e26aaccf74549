import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
// Built by the e2e command's build step: media generated on the spot, with the truth of what they show.
import { filmWithPhone, makeChargerVideo, makeInstrumentVideo, makePhotoSeries } from '@frametext/sample-media';
import { shot, signUp, uploadThroughWizard, waitForDemo } from './helpers';

/*
 * What a new user met on a first try, each at a laptop's 1366x768 and a phone's 390 px: the Numerical
 * view's Selected Blocks table and chart, the theme script under the page's security policy, the queue, the Scroll
 * mode, sub-second frame times, and a deleted upload's address.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'e2e-first-try-'));
const SIZES = [
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const BOM = [0xef, 0xbb, 0xbf];

/**
 * How far the page runs past the window's right edge, and how far the box `selector` scrolls sideways or has a
 * row's cell, text or button past its own right edge, in px.
 */
async function sidewaysOverflow(page: Page, selector: string): Promise<{ page: number; inside: number }> {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel)!;
    const right = root.getBoundingClientRect().right;
    const all = [...root.querySelectorAll('*')];
    const scrolling = all.filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX)).map((el) => el.scrollWidth - el.clientWidth);
    const past = [...root.querySelectorAll('tbody *')].map((el) => el.getBoundingClientRect().right - right);
    return { page: document.documentElement.scrollWidth - window.innerWidth, inside: Math.max(0, ...scrolling, ...past.map(Math.ceil)) };
  }, selector);
}

/** Downloads a file by clicking `button`; answers its name and bytes. */
async function download(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
}

for (const size of SIZES) {
  test.describe(`at ${size.width}x${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('Numerical: Selected Blocks in screen order with every action in reach, Remove only when unlocked, a chart axis per unit, a BOM in the CSV', async ({ page }) => {
      await waitForDemo(page);
      await page.goto('/demo');
      await page.getByRole('dialog', { name: 'How to use the Numerical Tab' }).getByRole('button', { name: 'Got it!' }).click();
      const blocks = page.getByRole('region', { name: /Blocks on this frame/ });
      await expect(blocks.getByRole('button').first()).toBeVisible({ timeout: 30_000 });
      // Picked bottom first: Elapsed (a time), Power (kW), then Battery (%).
      const names: string[] = [];
      for (const text of [/\d\d:\d\d/, /\d+\s*kW/i, /\d+\s*%/]) {
        await blocks.getByRole('button', { name: text }).first().click();
        names.push(await page.getByLabel('Series name').inputValue());
      }
      const [elapsed, power, battery] = names as [string, string, string];

      // The table lists them top of the screen first, as the CSV's columns.
      const table = page.getByRole('region', { name: 'Selected Blocks' });
      const rowNames = await table.locator('tbody th').allTextContents();
      expect(rowNames.map((n) => n.replace('Locked', ''))).toEqual([battery, power, elapsed]);
      const csv = await download(page, 'Export as csv');
      expect(csv.name).toBe('Demo- EV charger screen-results.csv');
      expect([...csv.bytes.subarray(0, 3)]).toEqual(BOM);
      expect(csv.bytes.toString('utf8').slice(1).split('\r\n')[0]).toBe(`Frame,Time,"${battery}","${power}","${elapsed}"`);

      // Nothing runs past the right edge, and each row's actions sit beside (or under) its name, both on screen.
      await page.getByRole('button', { name: `Lock ${battery}` }).click();
      await table.scrollIntoViewIfNeeded();
      const overflow = await sidewaysOverflow(page, '.numerical-selected');
      expect(overflow, 'the Selected Blocks table scrolls sideways').toEqual({ page: 0, inside: 0 });
      for (const name of [battery, power, elapsed]) {
        const row = table.getByRole('row', { name: new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
        const nameBox = (await row.locator('th').boundingBox())!;
        expect(nameBox.x).toBeGreaterThanOrEqual(0);
        for (const button of await row.getByRole('button').all()) {
          const box = (await button.boundingBox())!;
          expect(box.x + box.width, `${await button.textContent()} of ${name} past the right edge`).toBeLessThanOrEqual(size.width);
        }
      }
      // A locked series is not offered Remove; an unlocked one is, and it works.
      await expect(page.getByRole('button', { name: `Remove ${battery}` })).toHaveCount(0);
      await page.getByRole('button', { name: `Remove ${power}` }).click();
      await expect(table.getByRole('row', { name: new RegExp(power) })).toHaveCount(0);
      await page.getByRole('button', { name: `Unlock ${battery}` }).click();
      await expect(page.getByRole('button', { name: `Remove ${battery}` })).toBeVisible();
      await blocks.getByRole('button', { name: /\d+\s*kW/i }).first().click();
      await page.getByLabel('Numbers only').check();

      // One axis per unit, the times on a time axis.
      const chart = page.getByRole('img', { name: /^Line chart of / });
      await expect(chart).toHaveAttribute('aria-label', /axes: %, kW, Time \(m:ss\)$/);
      await chart.scrollIntoViewIfNeeded();
      await shot(page, `first-try-numerical-${size.name}`);
    });

    test('the theme script runs under the security policy: no console error, dark from the first paint', async ({ page }) => {
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.addInitScript(() => {
        localStorage.setItem('theme', 'dark');
        // The theme when <body> first exists, before any module script or paint.
        new MutationObserver((_, observer) => {
          if (!document.body) return;
          (window as unknown as { themeAtBody: string | undefined }).themeAtBody = document.documentElement.dataset.theme;
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
      for (const address of ['/', '/login', '/blog']) {
        const answer = await page.goto(address);
        const scriptSrc = answer!.headers()['content-security-policy']!.split(';').find((d) => d.startsWith('script-src '));
        expect(scriptSrc).toBe("script-src 'self' 'wasm-unsafe-eval'");
        expect(await page.evaluate(() => (window as unknown as { themeAtBody: string | undefined }).themeAtBody)).toBe('dark');
        await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      }
      expect(errors.filter((e) => /Content Security Policy|Refused to execute/i.test(e))).toEqual([]);
    });
  });
}

test('an upload waiting behind another says how many are ahead, at 1366 and at a phone\'s width', async ({ browser }) => {
  test.setTimeout(420_000);
  const [long, short] = await Promise.all([
    // Slow to read, so the second upload's frames wait behind its frames: the Basic engine reads a steady
    // dashboard faster than frames are cut (nothing queues), but not a screen filmed by a shaking phone.
    makeInstrumentVideo({ dir, name: 'long.mp4', seconds: 180, width: 1280, height: 720 }).then((v) => filmWithPhone(v, { dir })),
    makeChargerVideo({ dir, name: 'short.mp4', seconds: 10, width: 1280, height: 720 }),
  ]);
  const first = await signedInPage(browser, { width: 1366, height: 768 });
  const second = await signedInPage(browser, { width: 390, height: 844 });
  await startUpload(first, 'Long session', long.path);
  await expect(first.getByText(/of 180 frames/)).toBeVisible({ timeout: 120_000 });
  await startUpload(second, 'Short session', short.path);
  const waiting = second.getByText(/Waiting in the queue: \d+ uploads? ahead/);
  await expect(waiting).toBeVisible({ timeout: 120_000 });
  await shot(second, 'first-try-queue-phone');
  await second.setViewportSize({ width: 1366, height: 768 });
  await expect(waiting).toBeVisible();
  await shot(second, 'first-try-queue-laptop');
  // Once its frames are read the notice goes, and it finishes.
  await expect(second.getByRole('link', { name: 'View results' })).toBeVisible({ timeout: 300_000 });
  await expect(waiting).toHaveCount(0);
});

async function signedInPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, storageState: { cookies: [], origins: [{ origin: 'http://localhost:8080', localStorage: [{ name: 'got_started', value: 'true' }] }] } });
  const page = await context.newPage();
  await signUp(page);
  return page;
}

async function startUpload(page: Page, name: string, file: string): Promise<void> {
  await page.goto('/upload');
  await page.getByLabel('Upload name').fill(name);
  await page.getByLabel('Media files').setInputFiles(file);
  // The Basic engine for both: one queue, and 0.1 credit a frame.
  await page.getByLabel('Engine').selectOption('server');
  await page.getByLabel('Frame interval').selectOption({ label: 'Capture text every 1 second' });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
}

test('a Scroll upload opens the Scroll view, and frames half a second apart show tenths in the views and the CSV', async ({ page }) => {
  test.setTimeout(300_000);
  const video = await makeChargerVideo({ dir, name: 'quick.mp4', seconds: 3, width: 1280, height: 720 });
  await signUp(page);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/upload');
  await expect(page.getByLabel('Media content').locator('option')).toHaveText(['Numerical', 'Presentation', 'Captions (Region)', 'Scroll']);
  const results = await uploadThroughWizard(page, { name: 'Quick list', files: [video.path], mediaContent: 'scroll', intervalLabel: 'Capture text every 0.5 seconds' });
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(results);
    await expect(page.getByRole('tab', { name: 'Scroll' })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Frame 2 (0:00.5) of 6')).toBeVisible();
    await shot(page, `first-try-scroll-${size.name}`);
  }
  await page.goto(`${results}?view=numerical`);
  await page.getByRole('dialog', { name: 'How to use the Numerical Tab' }).getByRole('button', { name: 'Got it!' }).click();
  await page.getByRole('region', { name: /Blocks on this frame/ }).getByRole('button', { name: /\d+\s*kW/i }).first().click();
  const times = await page.getByRole('region', { name: 'Results to Export, scrollable' }).locator('tbody tr td:first-of-type').allTextContents();
  expect(times).toEqual(['0:00.0', '0:00.5', '0:01.0', '0:01.5', '0:02.0', '0:02.5']);
  const csv = await download(page, 'Export as csv');
  expect([...csv.bytes.subarray(0, 3)]).toEqual(BOM);
  expect(csv.bytes.toString('utf8').split('\r\n').slice(1, 3).map((line) => line.split(',').slice(0, 2).join(','))).toEqual(['1,0:00.0', '2,0:00.5']);
});

test('a deleted upload\'s address says it was deleted to its owner, and nothing to anyone else', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const photos = await makePhotoSeries({ dir, photos: [{ name: 'page.jpg', lines: ['Gone soon'], capturedAt: new Date('2024-05-01T10:00:00Z') }] });
  await signUp(page);
  const results = await uploadThroughWizard(page, { name: 'Short-lived', files: photos.map((p: { path: string }) => p.path) });
  await page.goto('/uploads');
  await page.getByLabel('Select Short-lived').check();
  await page.getByRole('button', { name: 'Delete Selected' }).click();
  await page.getByRole('dialog').getByRole('button', { name: /delete/i }).click();
  await expect(page.getByText('No uploads yet')).toBeVisible();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(results);
    await expect(page.getByText('This upload was deleted.')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expect(page.getByText('Results not yet available.')).toHaveCount(0);
    await shot(page, `first-try-deleted-${size.name}`);
  }
  // Someone else learns nothing: the same answer as for an id that never existed.
  const stranger = await signedInPage(browser, { width: 390, height: 844 });
  await stranger.goto(results);
  await expect(stranger.getByText('Unable to load upload details yet.')).toBeVisible({ timeout: 30_000 });
  await expect(stranger.getByText('This upload was deleted.')).toHaveCount(0);
});
