import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Download } from '@playwright/test';
// Built by the e2e command's build step: a deck whose slides build up bullet by bullet, with each slide's text.
import { makeBuildUpDeckVideo } from '@frametext/sample-media';
import { credits, shot, signUp } from './helpers';

const dir = mkdtempSync(path.join(tmpdir(), 'e2e-builds-'));
const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

test('Presentation with slide detection: a deck that builds up is quoted as a ceiling, charged less, and kept one frame per slide with clean bullets', async ({ page }) => {
  test.setTimeout(300_000);
  const video = await makeBuildUpDeckVideo({ dir });
  const builds = video.truth.length;
  await signUp(page);
  await expect.poll(() => credits(page), { timeout: 30_000 }).toBeGreaterThan(0);
  const before = await credits(page);

  // Before the upload the wizard says what it may cost and how it charges.
  await page.goto('/upload');
  await page.getByLabel('Upload name').fill('Build-up deck');
  await page.getByLabel('Media files').setInputFiles(video.path);
  await page.getByLabel('Media content').selectOption('presentation');
  await expect(page.getByLabel('Slide detection')).toBeChecked();
  const cost = page.getByRole('region', { name: 'Cost' });
  // 68 s looked at every 2 s: at most 34 frames, 4 credits at the Basic engine's 10 frames per credit.
  await expect(cost.getByText('Frames, at most')).toBeVisible();
  await expect(cost.locator('dd').first()).toHaveText('34');
  await expect(cost.locator('dd').nth(1)).toHaveText('4');
  await expect(cost).toContainText('You pay for the frames slide detection keeps, one per new slide and one per bullet a slide builds up, so never more than 4 credits.');
  await expect(page.getByLabel('Frame interval')).toBeDisabled();
  await shot(page, 'upload-slide-detection-cost');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const open = page.getByRole('link', { name: 'View results' });
  await expect(open).toBeVisible({ timeout: 180_000 });

  // One frame per build was read: ceil(17 / 10) = 2 credits, less than the 4 quoted.
  await expect.poll(() => credits(page), { timeout: 30_000 }).toBe(before - 2);

  await page.goto((await open.getAttribute('href'))!);
  const frames = page.getByRole('list', { name: 'Frames' });
  await expect(frames.getByRole('checkbox')).toHaveCount(builds, { timeout: 30_000 });
  await expect(page.getByText(`${video.slides.length} of ${builds} frames selected`)).toBeVisible();
  await expect(frames.getByText('Earlier build')).toHaveCount(builds - video.slides.length);
  // The selected frames are each slide's last build.
  for (const slide of video.slides) {
    const t = slide.endS - video.secondsPerBuild;
    await expect(frames.getByRole('checkbox', { name: new RegExp(`^Select Frame \\d+ \\(${clock(t)}\\)$`) })).toBeChecked();
  }
  await shot(page, 'results-presentation-builds');

  await page.getByRole('button', { name: 'Export selected text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Selected slides' });
  const [download] = (await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download .txt' }).click()])) as [Download, void];
  const text = readFileSync((await download.path())!, 'utf8');
  for (const slide of video.slides) {
    expect(text.split(slide.plainLines[0]!).length - 1, `"${slide.plainLines[0]}" once in\n${text}`).toBe(1);
    // Every bullet of the slide, written •, whatever glyph the deck drew.
    for (const bullet of slide.plainLines.slice(1)) expect(text).toMatch(new RegExp(`^• .*${bullet.split(' ').at(-1)}$`, 'm'));
  }
  expect(text).not.toMatch(/^[¢*°«=-] /m);
  await dialog.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('button', { name: 'Full results file' }).click();
  const full = page.getByRole('dialog', { name: 'Presentation text' });
  await expect(full).toContainText(`Slide ${video.slides.length} (1:04)`);
  await expect(full).not.toContainText(`Slide ${video.slides.length + 1} (`);
});
