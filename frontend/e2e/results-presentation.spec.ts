import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
// Built by the e2e command's build step: a slides video generated on the spot.
import { makeSlidesVideo } from '@frametext/sample-media';
import { shot, signUp, uploadThroughWizard } from './helpers';

const dir = mkdtempSync(path.join(tmpdir(), 'e2e-slides-'));
const SLIDES = [
  ['Quarterly Review', 'Revenue grew in every region'],
  ['Hiring Plan', 'Two engineers join in May'],
  ['Thank You', 'Questions are welcome'],
];
const SECONDS_PER_SLIDE = 4;

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
function mostWords(actual: string, expected: string, share = 0.6): boolean {
  const got = new Set(words(actual));
  const want = words(expected);
  return want.length > 0 && want.filter((w) => got.has(w)).length / want.length >= share;
}
const count = (haystack: string, needle: string) => haystack.toLowerCase().split(needle.toLowerCase()).length - 1;

async function save(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [download] = (await Promise.all([page.waitForEvent('download'), button.click()])) as [Download, void];
  return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
}

test('Presentation: the similarity filter keeps one frame per slide, and the export holds each slide once', async ({ page }) => {
  test.setTimeout(300_000);
  const video = await makeSlidesVideo({ dir, slides: SLIDES, secondsPerSlide: SECONDS_PER_SLIDE });
  await signUp(page);
  const href = await uploadThroughWizard(page, {
    name: 'Quarterly slides',
    files: [video.path],
    intervalLabel: 'Capture text every 1 second',
    mediaContent: 'presentation',
    slideDetection: false,
  });
  await page.goto(href);
  await expect(page.getByRole('tab', { name: 'Presentation' })).toHaveAttribute('aria-selected', 'true');

  const frames = page.getByRole('list', { name: 'Frames' });
  const boxes = frames.getByRole('checkbox');
  const total = SLIDES.length * SECONDS_PER_SLIDE;
  await expect(boxes).toHaveCount(total, { timeout: 30_000 });
  for (let i = 0; i < total; i++) await expect(boxes.nth(i)).toBeChecked();
  await expect(page.getByText(`${total} of ${total} frames selected`)).toBeVisible();
  // Every frame after a slide's first repeats it.
  await expect(frames.getByText('Similar to previous')).toHaveCount(total - SLIDES.length);

  await page.getByRole('button', { name: 'Unselect similar frames' }).click();
  await expect(page.getByText(`${SLIDES.length} of ${total} frames selected`)).toBeVisible();
  for (let s = 0; s < SLIDES.length; s++) await expect(frames.getByRole('checkbox', { name: `Select Frame ${s * SECONDS_PER_SLIDE + 1} (` })).toBeChecked();

  // The slider runs from 80 to 100; different slides share no words, so the filter keeps the same frames.
  const slider = page.getByRole('slider', { name: /Similarity threshold/ });
  await expect(slider).toHaveValue('95');
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(page.getByText('Similarity threshold: 80%')).toBeVisible();
  await page.getByRole('button', { name: 'Select all' }).click();
  await page.getByRole('button', { name: 'Unselect similar frames' }).click();
  await expect(page.getByText(`${SLIDES.length} of ${total} frames selected`)).toBeVisible();

  // The text panel shows the frame picked in the list.
  await frames.getByRole('button', { name: /^Frame 5 \(0:04\)/ }).click();
  await expect(page.getByRole('heading', { name: 'Frame 5 (0:04)' })).toBeVisible();
  expect(mostWords(await page.getByRole('list', { name: 'Text of this frame' }).innerText(), SLIDES[1]!.join(' '))).toBe(true);
  await shot(page, 'results-presentation');

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Export selected text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Selected slides' });
  await expect(dialog).toBeVisible();
  await shot(page, 'results-presentation-modal');
  const file = await save(page, dialog.getByRole('button', { name: 'Download .txt' }));
  expect(file.name).toBe('Quarterly slides-selected-slides.txt');
  for (const [title, body] of SLIDES) {
    expect(count(file.text, title!), `"${title}" once in\n${file.text}`).toBe(1);
    expect(mostWords(file.text, body!)).toBe(true);
  }
  await dialog.getByRole('button', { name: 'Copy to Clipboard' }).click();
  await expect(page.getByText('Contents copied to clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(file.text);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // The upload's own results file, as the server wrote it.
  await page.getByRole('button', { name: 'Full results file' }).click();
  const full = page.getByRole('dialog', { name: 'Presentation text' });
  await expect(full).toContainText('Slide 1 (0:00)');
  const presentation = await save(page, full.getByRole('button', { name: 'Download .txt' }));
  expect(presentation.name).toBe('Quarterly slides-slides.txt');
  expect(mostWords(presentation.text, SLIDES.flat().join(' '))).toBe(true);
  await full.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await shot(page, 'results-presentation-dark');
  await page.setViewportSize({ width: 375, height: 800 });
  await shot(page, 'results-presentation-phone');
});
