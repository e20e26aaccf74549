import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
// Built by the build step before the browser tests: media generated on the spot, with the truth of what they show.
import { makeScrollListVideo } from '@frametext/sample-media';
import { shot, signUp, uploadThroughWizard } from './helpers';

const dir = mkdtempSync(path.join(tmpdir(), 'e2e-scroll-'));

/** The two-digit item number of a title as OCR read it ("Item 07 Blue Kettle" -> 7), or null. */
function itemNumber(text: string): number | null {
  const m = /Item\s*([0-9OoIl]{2})\b/.exec(text);
  if (!m) return null;
  const digits = m[1]!.replace(/[Oo]/g, '0').replace(/[Il]/g, '1');
  return Number(digits);
}

const status = (page: Page) => page.getByTestId('kept-work-status');

test('a user boxes one item of a scrolling list, detects every item once, corrects the list and exports it', async ({ page }) => {
  test.setTimeout(420_000);
  // 32 items, as in a real scrolled list: each whole on about four of the frames taken.
  const seconds = 30;
  const video = await makeScrollListVideo({ dir, seconds, width: 1280, height: 720, items: 32 });
  // Frames are taken every second from 0 s: the items whose two lines are whole on at least one of them.
  const frameTimes = Array.from({ length: seconds }, (_, s) => s);
  const expected = video.truth.filter((x) => frameTimes.some((t) => t >= x.startS && t < x.endS)).map((x) => itemNumber(x.texts[0]!)!);
  expect(expected.length).toBeGreaterThanOrEqual(10);

  await signUp(page);
  const results = await uploadThroughWizard(page, { name: 'Shop list', files: [video.path], intervalLabel: 'Capture text every 1 second' });
  await page.goto(`${results}?view=scroll`);
  await expect(page.getByRole('tab', { name: 'Scroll' })).toHaveAttribute('aria-selected', 'true');
  const overlay = page.getByTestId('frame-overlay');
  await expect(overlay).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Detect Items' })).toBeDisabled();

  // Draw the template around item 2 on the first frame (t = 0): from just above its title to just below its price.
  const top = video.itemTop(1, 0);
  const area = (await overlay.boundingBox())!;
  const scale = area.width / video.width;
  const at = (x: number, y: number) => [area.x + x * scale, area.y + y * scale] as const;
  const [x1, y1] = at(video.left - 30, top + 6);
  const [x2, y2] = at(video.right + 30, top + video.pitch - 6);
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  await page.mouse.move(x2, y2, { steps: 10 });
  await page.mouse.up();

  await page.getByRole('button', { name: 'Lock Template' }).click();
  await expect(page.getByText(/Locked on Frame 1 \(0:00\): 2 lines/)).toBeVisible();
  await expect(page.getByText(/Locked on Frame 1/)).toContainText('Item 02');
  await page.getByRole('button', { name: 'Detect Items' }).click();
  const table = page.getByRole('table');
  await expect(table).toBeVisible({ timeout: 60_000 });
  // The list is brought into view, focus on its heading, and the Detect Items area says how many items it holds.
  const heading = page.getByRole('heading', { name: 'Detected items' });
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();
  const found = page.getByRole('status').filter({ hasText: /found/ });

  // The unique list: most of the items the truth says were visible, in list order, each once.
  const titles = await table.locator('tbody tr td:nth-child(3) .scroll-table__line:first-child').allTextContents();
  const numbers = titles.map(itemNumber);
  const read = numbers.filter((n): n is number => n !== null);
  expect(read.length).toBeGreaterThanOrEqual(Math.ceil(expected.length * 0.8));
  expect(read.every((n, i) => i === 0 || n > read[i - 1]!)).toBe(true);
  expect(read.filter((n) => expected.includes(n)).length).toBeGreaterThanOrEqual(Math.ceil(expected.length * 0.8));
  // Nothing but list items (a stray row would be a window that matched no item), each once.
  expect(titles.length).toBeLessThanOrEqual(expected.length + 1);
  expect(new Set(read).size).toBe(read.length);
  await expect(found).toHaveText(`${titles.length} items found`);
  const stats = page.getByLabel('Statistics');
  await expect(stats.getByText('Frames scanned').locator('xpath=following-sibling::dd')).toHaveText(String(seconds));
  await expect(stats.getByText('Unique items').locator('xpath=following-sibling::dd')).toHaveText(String(titles.length));
  // How many frames each item was seen on, in a column of its own, apart from its number.
  await expect(page.getByRole('columnheader', { name: 'Seen on' })).toBeVisible();
  const seenOn = await table.locator('tbody tr td:nth-child(4)').allTextContents();
  expect(seenOn.every((text) => /^\d+ frames?$/.test(text))).toBe(true);
  expect(seenOn.filter((text) => text !== '1 frame').length).toBeGreaterThan(titles.length / 2);
  await shot(page, 'results-scroll');

  // Corrections: the first row edited, the last removed, the third merged into the second and that undone.
  const rowsShown = table.locator('tbody tr');
  await page.getByRole('button', { name: 'Edit item 1', exact: true }).click();
  await page.getByRole('textbox', { name: 'Lines of item 1, one per line' }).fill('Item 01 Blue Kettle (checked)\n$ 5.00');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(rowsShown.first()).toContainText('Item 01 Blue Kettle (checked)');
  await page.getByRole('button', { name: `Remove item ${titles.length}`, exact: true }).click();
  await expect(found).toHaveText(`${titles.length - 1} items found`);
  await expect(page.getByRole('button', { name: 'Undo last change' })).toBeFocused();
  await page.getByRole('button', { name: 'Merge item 3 into item 2', exact: true }).click();
  await expect(rowsShown).toHaveCount(titles.length - 2);
  await page.getByRole('button', { name: 'Undo last change' }).click();
  await expect(rowsShown).toHaveCount(titles.length - 1);
  await expect(status(page)).toHaveText('Saved');
  await shot(page, 'results-scroll-corrected');

  // The CSV of the unique list: a byte-order mark, a header, one row per unique item.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('Shop list-list-unique.csv');
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
  expect(rows[0]).toBe('#,Frame,Time,Content,Match,Line 1,Line 2');
  expect(rows).toHaveLength(titles.length - 1 + 1);
  expect(rows[1]).toMatch(/^1,\d+,0:\d\d,Item 01 Blue Kettle \(checked\) \| \$ 5\.00,/);
  expect(rows.slice(1).map((r) => itemNumber(r))).toEqual(numbers.slice(0, -1));
  // The price as read, spaces aside (`$18.78` and `$ 18.78` are the same price). Tesseract itself returns the sign
  // and the number as one word on some frames: on this video `$18.78` on its first frames and `$11.52` on most, as
  // the Basic engine hands it the frame and as it reads the JPEG itself; a grey level either way moves which.
  const spacesAside = (text: string) => text.replace(/\s+/g, '');
  expect(rows.some((r) => r.includes('Item 02') && spacesAside(r).includes(spacesAside(video.items[1]!.price)))).toBe(true);

  // The corrections are kept: after a reload the view finds the items again and shows the corrected list.
  await page.reload();
  await expect(rowsShown).toHaveCount(titles.length - 1, { timeout: 60_000 });
  await expect(rowsShown.first()).toContainText('Item 01 Blue Kettle (checked)');

  // Looks right in the dark theme and on a phone.
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // Let the colour transition finish before the picture.
  await page.waitForTimeout(500);
  await shot(page, 'results-scroll-dark');
  await page.setViewportSize({ width: 375, height: 800 });
  await shot(page, 'results-scroll-phone');
});
