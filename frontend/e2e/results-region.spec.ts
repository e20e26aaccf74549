import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
// Built by the e2e command's build step: a captions video generated on the spot, with the truth of what it shows.
import { CAPTIONS_CORPUS, LOW_CAPTIONS, makeCaptionsVideo, textsAt } from '@frametext/sample-media';
import { shot, signUp, uploadThroughWizard } from './helpers';

const dir = mkdtempSync(path.join(tmpdir(), 'e2e-region-'));
const CAPTIONS = [
  { text: 'The quick brown fox', startS: 0, endS: 3 },
  { text: 'jumps over the lazy dog', startS: 3, endS: 6 },
  { text: 'Pack my box with jugs', startS: 6, endS: 9 },
  { text: 'Sphinx of black quartz', startS: 9, endS: 12 },
];

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
/** OCR tolerance: most of the expected words are there, in any case. */
function mostWords(actual: string, expected: string, share = 0.6): boolean {
  const got = new Set(words(actual));
  const want = words(expected);
  return want.length > 0 && want.filter((w) => got.has(w)).length / want.length >= share;
}

/** The cells of a CSV file (quoted cells, doubled quotes), without its byte-order mark. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted && c === '"' && body[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && c === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += c;
    }
  }
  return rows;
}

const seconds = (clock: string) => clock.split(/[:,.]/).map(Number).reduce((acc, n, i, all) => (i === all.length - 1 && all.length === 4 ? acc + n / 1000 : acc * 60 + n), 0);

/** SRT cues: start and end in seconds, and text. */
function parseSrt(text: string) {
  return text
    .trim()
    .split(/\r?\n\r?\n/)
    .map((block) => {
      const [, timing = '', ...lines] = block.split(/\r?\n/);
      const [from = '', to = ''] = timing.split(' --> ');
      return { start: seconds(from), end: seconds(to), text: lines.join(' ') };
    });
}

async function save(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [download] = (await Promise.all([page.waitForEvent('download'), button.click()])) as [Download, void];
  return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
}

/** Drags with the mouse from one point to another, given as shares of the element's box. */
async function drag(page: Page, target: Locator, from: [number, number], to: [number, number]) {
  // Both ends of the drag must be on screen: checking a box's checkbox may have scrolled the picture away.
  await page.getByTestId('frame-overlay').scrollIntoViewIfNeeded();
  const box = (await target.boundingBox())!;
  await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to[0], box.y + box.height * to[1], { steps: 8 });
  await page.mouse.up();
}

test('Region: boxes drawn and moved over the captions export them by time as CSV and SRT', async ({ page }) => {
  test.setTimeout(300_000);
  const video = await makeCaptionsVideo({ dir, captions: CAPTIONS, outline: 3 });
  await signUp(page);
  const href = await uploadThroughWizard(page, { name: 'Captions clip', files: [video.path], intervalLabel: 'Capture text every 1 second', mediaContent: 'captions' });
  await page.goto(href);
  await page.getByRole('tab', { name: 'Region' }).click();
  const overlay = page.getByTestId('frame-overlay');
  await expect(overlay).toBeVisible({ timeout: 30_000 });

  // Draw the green box across the bottom quarter, where the captions are.
  await drag(page, overlay, [0.04, 0.76], [0.96, 0.98]);
  const panel = page.getByRole('region', { name: /Text in the boxes/ });
  await expect.poll(async () => mostWords(await panel.innerText(), CAPTIONS[0]!.text)).toBe(true);

  // Turn on the blue box (it starts above the captions) and drag it down over them.
  await page.getByRole('checkbox', { name: 'Blue' }).check();
  await expect(panel).toContainText('Blue');
  await drag(page, page.locator('[data-box="Blue"]'), [0.5, 0.5], [0.5, 0.5 + 0.26 / 0.22]);
  await expect.poll(async () => (await panel.innerText()).split('Blue')[1] ?? '').toMatch(/quick|brown|fox/i);
  await shot(page, 'results-region');

  const csv = await save(page, page.getByRole('button', { name: 'Export CSV' }));
  expect(csv.name).toBe('Captions clip-captions.csv');
  expect(csv.text.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parseCsv(csv.text);
  expect(header).toEqual(['Frame', 'Time', 'Green', 'Blue']);
  expect(rows.length).toBeGreaterThanOrEqual(10);
  let checked = 0;
  for (const [, time = '', green = '', blue = ''] of rows) {
    const t = seconds(time);
    // A frame right on a caption change may show either caption: only the unambiguous ones are checked.
    const before = textsAt(video, t - 0.2).join(' ');
    const after = textsAt(video, t + 0.2).join(' ');
    if (before !== after || !after) continue;
    expect(mostWords(green, after), `green at ${time}: "${green}" for "${after}"`).toBe(true);
    expect(mostWords(blue, after), `blue at ${time}: "${blue}" for "${after}"`).toBe(true);
    checked++;
  }
  expect(checked).toBeGreaterThanOrEqual(6);

  const txt = await save(page, page.getByRole('button', { name: 'Export TXT' }));
  expect(txt.name).toBe('Captions clip-captions.txt');
  // Caption by caption: each of the four once, headed by its box and times.
  expect(txt.text.startsWith('\uFEFFGreen 0:00.0 to ')).toBe(true);
  expect(txt.text.replace(/^\uFEFF/, '').match(/^Green /gm), txt.text).toHaveLength(CAPTIONS.length);

  const srt = await save(page, page.getByRole('button', { name: 'Export SRT' }));
  expect(srt.name).toBe('Captions clip-green.srt');
  const cues = parseSrt(srt.text);
  expect(cues.map((c) => c.text)).toHaveLength(CAPTIONS.length);
  CAPTIONS.forEach((caption, i) => {
    expect(mostWords(cues[i]!.text, caption.text), `cue ${i + 1} for "${caption.text}" in\n${srt.text}`).toBe(true);
    expect(Math.abs(cues[i]!.start - caption.startS)).toBeLessThanOrEqual(1.01);
    expect(Math.abs(cues[i]!.end - caption.endS)).toBeLessThanOrEqual(1.01);
  });

  await page.getByRole('combobox', { name: 'Subtitles from' }).selectOption({ label: 'Blue box' });
  const vtt = await save(page, page.getByRole('button', { name: 'Export WebVTT' }));
  expect(vtt.name).toBe('Captions clip-blue.vtt');
  expect(vtt.text.startsWith('WEBVTT\n\n00:00:00.000 --> ')).toBe(true);

  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await shot(page, 'results-region-dark');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(overlay).toBeVisible();
  await shot(page, 'results-region-phone');
});

test('Region: the default SRT of captions over a cluttered picture has one cue per caption', async ({ page }) => {
  test.setTimeout(400_000);
  const video = await makeCaptionsVideo({ dir, name: 'corpus.mp4', captions: [...CAPTIONS_CORPUS], outline: 2, size: 40, clutter: true });
  await signUp(page);
  const href = await uploadThroughWizard(page, { name: 'Corpus', files: [video.path], intervalLabel: 'Capture text every 0.5 seconds', mediaContent: 'captions' });
  await page.goto(href);
  await page.getByRole('tab', { name: 'Region' }).click();
  await expect(page.getByTestId('frame-overlay')).toBeVisible({ timeout: 30_000 });
  // Nothing moved or tuned: the Green box where it starts, the filters as they start.
  const exportSrt = page.getByRole('button', { name: 'Export SRT' });
  await expect(exportSrt).toBeEnabled({ timeout: 30_000 });
  const srt = await save(page, exportSrt);
  const cues = parseSrt(srt.text);
  expect(cues.map((c) => c.text), srt.text).toHaveLength(CAPTIONS_CORPUS.length);
  CAPTIONS_CORPUS.forEach((caption, i) => {
    expect(mostWords(cues[i]!.text, caption.text, 0.5), `cue ${i + 1} for "${caption.text}" in\n${srt.text}`).toBe(true);
    expect(Math.abs(cues[i]!.start - caption.startS)).toBeLessThanOrEqual(1.04);
    expect(Math.abs(cues[i]!.end - caption.endS)).toBeLessThanOrEqual(1.04);
  });
});

test('Region: captions low in the frame, with descenders and long lines, export as cues without moving the box', async ({ page }) => {
  test.setTimeout(400_000);
  const video = await makeCaptionsVideo({ dir, name: 'low.mp4', captions: [...LOW_CAPTIONS], outline: 2, size: 40, lastLineTop: 0.92 });
  await signUp(page);
  const href = await uploadThroughWizard(page, { name: 'Low', files: [video.path], intervalLabel: 'Capture text every 0.5 seconds', mediaContent: 'captions' });
  await page.goto(href);
  await page.getByRole('tab', { name: 'Region' }).click();
  await expect(page.getByTestId('frame-overlay')).toBeVisible({ timeout: 30_000 });
  // The zones found are offered, the captions' band first; the Green box already sits on it.
  const zones = page.getByRole('region', { name: 'Text zones found' });
  await expect(zones.getByRole('button').first()).toHaveText('Bottom band', { timeout: 30_000 });
  const exportSrt = page.getByRole('button', { name: 'Export SRT' });
  await expect(exportSrt).toBeEnabled({ timeout: 30_000 });
  const srt = await save(page, exportSrt);
  const cues = parseSrt(srt.text);
  expect(cues.map((c) => c.text), srt.text).toHaveLength(LOW_CAPTIONS.length);
  LOW_CAPTIONS.forEach((caption, i) => {
    expect(mostWords(cues[i]!.text, caption.text, 0.8), `cue ${i + 1} for "${caption.text}" in\n${srt.text}`).toBe(true);
  });
});
