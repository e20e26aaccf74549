import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
// Built by `npm test`'s provisioning: media generated on the spot, with the truth of what they show.
import { ffmpeg, makeChargerVideo, makePhotoSeries } from '@frametext/sample-media';
import { shot, signUp } from './helpers';

const dir = mkdtempSync(path.join(tmpdir(), 'e2e-media-'));

async function watchUntilDone(page: Page) {
  const progress = page.getByRole('progressbar', { name: 'Processing progress' });
  await expect(progress).toBeVisible({ timeout: 60_000 });
  await shot(page, 'wizard-processing');
  await expect(page.getByRole('link', { name: 'View results' })).toBeVisible({ timeout: 120_000 });
  await shot(page, 'wizard-done');
}

test('a user uploads a video through the wizard, watches it progress, opens the results, and deletes it', async ({ page }) => {
  const video = await makeChargerVideo({ dir, seconds: 20, width: 1280, height: 720 });
  await signUp(page);
  await page.goto('/upload');
  await expect(page.getByText('Upload', { exact: true }).first()).toBeVisible();
  await page.getByLabel('Upload name').fill('Charger session');
  await page.getByLabel('Media files').setInputFiles(video.path);
  await page.getByLabel('Frame interval').selectOption({ label: 'Capture text every 5 seconds' });
  await expect(page.getByRole('region', { name: 'Cost' }).getByRole('definition').first()).toHaveText('4');
  await shot(page, 'wizard-step1');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await watchUntilDone(page);

  await page.getByRole('link', { name: 'View results' }).click();
  await expect(page).toHaveURL(/\/view-upload\//);
  await expect(page.getByText(/kW/).filter({ visible: true }).first()).toBeVisible({ timeout: 30_000 });
  await shot(page, 'results');

  await page.goto('/uploads');
  await expect(page.getByRole('heading', { name: 'Uploads' })).toBeVisible();
  await expect(page.getByText('Charger session').first()).toBeVisible();
  await shot(page, 'uploads-list');
  await page.setViewportSize({ width: 375, height: 800 });
  await shot(page, 'uploads-list-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByLabel('Select Charger session').check();
  await page.getByRole('button', { name: 'Delete Selected' }).click();
  await page.getByRole('dialog').getByRole('button', { name: /delete/i }).click();
  await expect(page.getByText('No uploads yet')).toBeVisible();
});

test('a photo series goes through the wizard and comes back in capture-time order', async ({ page }) => {
  const photos = await makePhotoSeries({
    dir,
    photos: [
      { name: 'z-first.jpg', lines: ['First page'], capturedAt: new Date('2024-05-01T10:00:00Z') },
      { name: 'a-second.jpg', lines: ['Second page'], capturedAt: new Date('2024-05-01T10:05:00Z') },
    ],
  });
  await signUp(page);
  await page.goto('/upload');
  await page.getByLabel('Upload name').fill('Notebook pages');
  await page.getByLabel('Media files').setInputFiles(photos.map((p: { path: string }) => p.path));
  await page.getByLabel('Sort photos by').selectOption({ value: 'timestamp' });
  await expect(page.getByRole('region', { name: 'Cost' }).getByRole('definition').first()).toHaveText('2');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await watchUntilDone(page);
  await page.getByRole('link', { name: 'View results' }).click();
  await expect(page.getByText('First page').filter({ visible: true }).first()).toBeVisible({ timeout: 30_000 });
});

test('a video with no text at all ends in No Text Results Found, in the wizard, the results view and the uploads list', async ({ page }) => {
  // Ten seconds of one flat colour: nothing for any engine to read.
  const blank = path.join(dir, 'blank.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x336699:s=640x360:r=10', '-t', '10', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', blank]);
  await page.addInitScript(() => localStorage.setItem('ViewedHowTo', 'true'));
  await signUp(page);
  await page.goto('/upload');
  await page.getByLabel('Upload name').fill('Blank wall');
  await page.getByLabel('Media files').setInputFiles(blank);
  await page.getByLabel('Frame interval').selectOption({ label: 'Capture text every 5 seconds' });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();

  await expect(page.getByRole('heading', { level: 2, name: 'No Text Results Found' })).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole('heading', { name: 'Your text is ready' })).toHaveCount(0);
  await expect(page.getByText(/No text was found on any of the \d+ frames\./)).toBeVisible();
  await expect(page.getByText(/1 credit was charged for the \d+ frames read\. You pay for the frames that are read, whether or not they hold text/)).toBeVisible();
  await expect(page.getByText(/Upload it again with a different frame interval/)).toBeVisible();
  await shot(page, 'wizard-no-text');

  await page.getByRole('link', { name: 'Look at the frames' }).click();
  const noText = page.getByRole('dialog', { name: 'No Text Results Found' });
  await expect(noText).toContainText('Your media does not appear to contain any text.');
  await expect(noText.getByRole('link', { name: /support@/ })).toBeVisible();
  await expect(noText.getByRole('button', { name: 'Back to Uploads' })).toBeVisible();
  await noText.getByRole('button', { name: 'Look at the frames' }).click();
  await expect(noText).toHaveCount(0);
  await page.getByRole('button', { name: 'Find the numbers' }).click();
  await expect(page.getByText('No text was found on any frame, so there are no numbers to find. See “What to try” above.')).toBeVisible();
  await expect(page.getByText(/Click a box/)).toHaveCount(0);

  await page.goto('/uploads');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Blank wall' }) });
  await expect(card.getByText('No text found')).toBeVisible();
  await expect(card.getByText(/^Numerical · \d+ frames$/)).toBeVisible();
});
