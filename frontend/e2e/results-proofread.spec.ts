import { readFileSync } from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
// Built by the e2e command's build step: the export's schema, as docs/exports.md shows it.
import { numericalExportSchema } from '@frametext/contracts';
import { putLocalRecord, shot, signUp } from './helpers';

/*
 * Proofreading the Numerical view: a local run (read in the browser, kept in IndexedDB) of a speed reading whose
 * OCR went wrong three ways: a lost decimal point (455 where the picture shows 45.5), a letter in a number (4G.2
 * for 46.2), and a faint reading (46.5, right, but read with 58 % confidence (tracking leaves out blocks under 50 %)).
 * Then an instrument of four readings, one of them not read on a frame and read 3722 for 37.3 on another. Each
 * frame's picture shows the truth.
 */

const TRUTH = ['45.1', '45.3', '45.5', '45.8', '46.0', '46.2', '46.5', '46.9'];
const READ = ['45.1', '45.3', '455', '45.8', '46.0', '4G.2', '46.5', '46.9'];
const CONFIDENCE = [95, 94, 93, 95, 96, 90, 58, 95];
const WIDTH = 640;
const HEIGHT = 360;

interface SpeedRun {
  /** What each frame's picture shows. */
  truth: string[];
  /** What the OCR read on each frame, and with what confidence. */
  read: string[];
  confidence: number[];
}

/** Saves a local run of the speed reading in the browser's database; returns its id. */
async function saveSpeedRun(page: Page, run: SpeedRun = { truth: TRUTH, read: READ, confidence: CONFIDENCE }): Promise<string> {
  const id = `local-${Date.now()}-proof${run.truth.length}`;
  const data = await page.evaluate(
    ({ truth, read, confidence, width, height }) => {
      const picture = (value: string) => {
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const ctx = canvas.getContext('2d')!;
        ctx.fillStyle = '#10151f';
        ctx.fillRect(0, 0, width, height);
        ctx.fillStyle = '#f1f3f5';
        ctx.font = 'bold 28px sans-serif';
        ctx.fillText('SPEED km/h', 40, 60);
        ctx.font = 'bold 64px sans-serif';
        ctx.fillText(value, 250, 165);
        return canvas.toDataURL('image/jpeg', 0.9);
      };
      localStorage.setItem('ViewedHowTo', 'true');
      return truth.map((value, i) => ({
        t: i,
        text: `SPEED km/h\n${read[i]}`,
        thumb: picture(value),
        ocrW: width,
        ocrH: height,
        words: [
          { text: 'SPEED', nbox: [40 / width, 35 / height, 110 / width, 30 / height], conf: 96, run: 0 },
          { text: 'km/h', nbox: [160 / width, 35 / height, 70 / width, 30 / height], conf: 96, run: 0 },
          { text: read[i], nbox: [245 / width, 112 / height, 150 / width, 62 / height], conf: confidence[i], run: 1 },
        ],
      }));
    },
    { ...run, width: WIDTH, height: HEIGHT },
  );
  await putLocalRecord(page, { id, data, uploadedAt: Date.now(), duration: data.length, targetFrameRate: 1, fileName: 'Speed run', _addedAt: Date.now() });
  return id;
}

const table = (page: Page) => page.getByRole('region', { name: 'Results to Export, scrollable' });
const cell = (page: Page, frame: number) => table(page).getByRole('button', { name: new RegExp(`, frame ${frame}: `) });
const proofreader = (page: Page) => page.getByRole('region', { name: /, Frame \d+ \(0:0\d\)$/ });
const field = (page: Page) => proofreader(page).getByLabel('Value on the picture');

async function downloaded(page: Page, button: string): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { download, bytes: readFileSync(await download.path()) };
}

/** The y-axis labels of the downloaded chart SVG, as numbers. */
const yLabels = (svg: string) => [...svg.matchAll(/text-anchor="end"[^>]*>([^<]+)<\/text>/g)].map((m) => Number(m[1]));

test('proofread the unsure values from their crops; the corrections reach the CSV, the TXT, the JSON and the chart', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signUp(page);
  const id = await saveSpeedRun(page);
  await page.goto(`/view-upload/${id}?view=numerical`);
  await page.getByRole('region', { name: /Blocks on this frame/ }).getByRole('button', { name: /45\.1/ }).click();

  // Every value shows its confidence; the three suspicious ones are marked, with the reason as a tooltip.
  await expect(cell(page, 1)).toContainText('45.1');
  await expect(cell(page, 1)).toContainText('95 %');
  await expect(cell(page, 3)).toHaveAttribute('data-state', 'unsure');
  await expect(cell(page, 3)).toHaveAttribute('title', 'jumps from 45.3 to 455: decimal point lost?');
  await expect(cell(page, 6)).toHaveAttribute('title', 'letter in a number');
  await expect(cell(page, 7)).toHaveAttribute('title', 'confidence 58 %');
  await expect(cell(page, 5)).toHaveAttribute('data-state', 'sure');

  // Before any correction the lost decimal point's 455 and the 4G.2 (read as 4) are left out of the line: the
  // value axis stays between 40 and 50, and each is an orange mark on its edge.
  const before = (await downloaded(page, 'Download chart (SVG)')).bytes.toString('utf8');
  expect(Math.max(...yLabels(before))).toBeLessThan(50);
  expect(Math.min(...yLabels(before))).toBeGreaterThan(40);
  expect(before.match(/data-mark="outlier"/g)).toHaveLength(2);

  // Walk them: each opens with the crop of its frame and the reading in the field; Enter saves and moves on.
  await page.getByRole('button', { name: 'Next unsure value (3)' }).click();
  await expect(proofreader(page).getByRole('heading')).toHaveText(/Frame 3 \(0:02\)$/);
  await expect(proofreader(page)).toContainText('jumps from 45.3 to 455: decimal point lost?');
  const crop = proofreader(page).getByRole('img', { name: /^Frame 3 \(0:02\) around / });
  await expect(crop).toHaveAttribute('data-drawn', 'true');
  const cropBox = await crop.boundingBox();
  // The padded box, scaled up so the digits read: wider than the 150 px box on the frame.
  expect(cropBox!.width).toBeGreaterThan(150);
  expect(cropBox!.height).toBeGreaterThan(62);
  // The viewer shows the same frame.
  await expect(page.getByRole('img', { name: 'Frame 3 (0:02)', exact: true })).toBeVisible();
  await shot(page, 'numerical-proofread-crop');
  await expect(field(page)).toBeFocused();
  await expect(field(page)).toHaveValue('455');
  await field(page).fill('45.5');
  await field(page).press('Enter');

  await expect(proofreader(page).getByRole('heading')).toHaveText(/Frame 6 \(0:05\)$/);
  await expect(proofreader(page)).toContainText('letter in a number');
  await expect(field(page)).toHaveValue('4G.2');
  await field(page).fill('46.2');
  await field(page).press('Enter');

  await expect(proofreader(page).getByRole('heading')).toHaveText(/Frame 7 \(0:06\)$/);
  await expect(proofreader(page)).toContainText('confidence 58 %');
  // The reading is right: Enter confirms it, and that was the last unsure value.
  await field(page).press('Enter');
  await expect(proofreader(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Next unsure value' })).toBeDisabled();
  await expect(cell(page, 3)).toHaveAttribute('data-state', 'corrected');
  await expect(cell(page, 3)).toContainText('45.5');
  await expect(cell(page, 3)).toContainText('corrected');

  // The CSV holds the corrected values.
  const csv = await downloaded(page, 'Export as csv');
  expect(csv.download.suggestedFilename()).toBe('Speed run-results.csv');
  const rows = csv.bytes.toString('utf8').slice(1).split('\r\n').filter((l) => l !== '');
  expect(rows.slice(1).map((r) => r.split(',')[2])).toEqual(TRUTH);

  // So does the TXT: a paragraph per frame with its time, the byte-order mark first.
  const txt = await downloaded(page, 'Export as txt');
  expect(txt.download.suggestedFilename()).toBe('Speed run-results.txt');
  const text = txt.bytes.toString('utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const paragraphs = text.slice(1).trimEnd().split('\n\n');
  expect(paragraphs).toHaveLength(8);
  expect(paragraphs[2]).toMatch(/^Frame 3 at 0:02\n[^:\n]+: 45\.5$/);
  expect(paragraphs.map((p) => p.split(': ').pop())).toEqual(TRUTH);

  // The JSON export: valid against its schema, the corrections with the readings they replace.
  const json = await downloaded(page, 'Export as JSON');
  expect(json.download.suggestedFilename()).toBe('Speed run-results.json');
  const exported = numericalExportSchema.parse(JSON.parse(json.bytes.toString('utf8')));
  expect(exported.version).toBe(1);
  expect(exported.frames).toHaveLength(8);
  expect(exported.frames[2]!.blocks.map((b) => b.text)).toEqual(['SPEED km/h', '455']);
  expect(exported.frames[2]!.blocks[1]!.box).toEqual({ x: 245, y: 112, width: 150, height: 62 });
  expect(exported.frames[6]!.blocks[1]!.confidence).toBe(58);
  const cells = exported.series[0]!.cells;
  expect(cells.map((c) => c.value)).toEqual(TRUTH);
  expect(cells[2]).toMatchObject({ value: '45.5', number: 45.5, reading: '455', corrected: true, unsure: [] });
  expect(cells[6]).toMatchObject({ value: '46.5', reading: '46.5', confidence: 58, corrected: true });

  // The chart follows: its axis now ends under 50, and both files are real pictures.
  const svg = await downloaded(page, 'Download chart (SVG)');
  expect(svg.download.suggestedFilename()).toBe('Speed run-chart.svg');
  const svgText = svg.bytes.toString('utf8');
  expect(svgText.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svgText.trimEnd().endsWith('</svg>')).toBe(true);
  expect(Math.max(...yLabels(svgText))).toBeLessThan(50);
  const png = await downloaded(page, 'Download chart (PNG)');
  expect(png.download.suggestedFilename()).toBe('Speed run-chart.png');
  expect(png.bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  // IHDR: twice the SVG's width.
  const svgWidth = Number(/width="(\d+)"/.exec(svgText)![1]);
  expect(png.bytes.readUInt32BE(16)).toBe(2 * svgWidth);
  expect(png.bytes.length).toBeGreaterThan(5_000);

  // A correction can be taken back: the cell is the OCR's again, and unsure again.
  await cell(page, 3).click();
  await proofreader(page).getByRole('button', { name: 'Revert to “455”' }).click();
  await expect(cell(page, 3)).toHaveAttribute('data-state', 'unsure');
  await expect(page.getByRole('button', { name: 'Next unsure value (1)' })).toBeEnabled();
  await proofreader(page).getByRole('button', { name: 'Close' }).click();

  // On a phone: the table and the proofreader fit the width, and the crop still shows.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Next unsure value (1)' }).click();
  await expect(proofreader(page).getByRole('img', { name: /^Frame 3 \(0:02\) around / })).toHaveAttribute('data-drawn', 'true');
  await expect(field(page)).toBeInViewport();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the Numerical view scrolls sideways at 390 px').toBeLessThanOrEqual(0);
  // The TXT export is on the phone too, and holds the reading as it now stands (the revert took 455 back).
  await proofreader(page).getByRole('button', { name: 'Close' }).click();
  const phoneTxt = await downloaded(page, 'Export as txt');
  expect(phoneTxt.bytes.toString('utf8').slice(1).trimEnd().split('\n\n')[2]).toMatch(/: 455$/);
  await shot(page, 'numerical-proofread-phone');
});

test('two odd values in a row are marked, a faint value its neighbours confirm is not, on a desktop and a phone', async ({ page }) => {
  // A falling reading; frames 4 and 5 read 46 and 47 (another field's digits), frame 7 read right but faintly.
  const truth = ['150', '148', '146', '144', '142', '140', '138', '136', '134'];
  const read = ['150', '148', '146', '46', '47', '140', '138', '136', '134'];
  const confidence = [95, 95, 95, 94, 94, 95, 61, 95, 95];
  await page.setViewportSize({ width: 1366, height: 768 });
  await signUp(page);
  const id = await saveSpeedRun(page, { truth, read, confidence });
  await page.goto(`/view-upload/${id}?view=numerical`);
  await page.getByRole('region', { name: /Blocks on this frame/ }).getByRole('button', { name: /150/ }).click();

  const expectMarks = async () => {
    for (const frame of [4, 5]) {
      await expect(cell(page, frame)).toHaveAttribute('data-state', 'unsure');
      await expect(cell(page, frame)).toHaveAttribute('title', 'jumps from 146 to 46, 47 and back to 140');
    }
    // 138 between 140 and 136, both read clearly: the 61 % shows, but the value is not marked.
    await expect(cell(page, 7)).toHaveAttribute('data-state', 'sure');
    await expect(cell(page, 7)).toContainText('61 %');
    await expect(page.getByRole('button', { name: 'Next unsure value (2)' })).toBeEnabled();
  };
  await expectMarks();

  await page.setViewportSize({ width: 390, height: 844 });
  await expectMarks();
  await page.getByRole('button', { name: 'Next unsure value (2)' }).click();
  await expect(proofreader(page)).toContainText('jumps from 146 to 46, 47 and back to 140');
  await expect(field(page)).toHaveValue('46');
  await field(page).fill('144');
  await field(page).press('Enter');
  await expect(field(page)).toHaveValue('47');
  await expect(field(page)).toBeInViewport();
  await shot(page, 'numerical-proofread-run-phone');
});

/*
 * An instrument filmed for 10 s: SPEED and ALTITUDE side by side under their labels, TEMP and PRESSURE with their
 * labels to the left. The OCR missed TEMP on frame 4 and read 3722 for 37.3 on frame 7.
 */
const TEMP_TRUTH = ['37.0', '37.1', '37.1', '37.2', '37.2', '37.2', '37.3', '37.3', '37.4', '37.4'];
const TEMP_READ: (string | null)[] = TEMP_TRUTH.map((v, i) => (i === 3 ? null : i === 6 ? '3722' : v));

/** Saves the instrument's local run; returns its id. */
async function saveInstrumentRun(page: Page, tag: string): Promise<string> {
  const id = `local-${Date.now()}-${tag}`;
  const data = await page.evaluate(
    ({ truth, read }) => {
      const [width, height] = [1280, 720];
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d')!;
      type Word = { text: string; nbox: number[]; conf: number; run: number };
      /** Draws the text and answers its words with their boxes (normalised), as the local engine saves them. */
      const write = (text: string, x: number, y: number, size: number, run: number, words: Word[]) => {
        ctx.font = `bold ${size}px sans-serif`;
        ctx.fillText(text, x, y);
        let left = x;
        for (const word of text.split(' ')) {
          const m = ctx.measureText(word);
          const top = y - m.actualBoundingBoxAscent;
          words.push({ text: word, nbox: [left / width, top / height, m.width / width, (m.actualBoundingBoxAscent + m.actualBoundingBoxDescent) / height], conf: 95, run });
          left += ctx.measureText(`${word} `).width;
        }
      };
      localStorage.setItem('ViewedHowTo', 'true');
      return truth.map((temperature, s) => {
        ctx.fillStyle = '#10151f';
        ctx.fillRect(0, 0, width, height);
        ctx.fillStyle = '#f1f3f5';
        const words: Word[] = [];
        const seen: Word[] = [];
        write('SPEED', 60, 110, 28, 0, words);
        write('ALTITUDE', 700, 110, 28, 1, words);
        write(`${1000 + 137 * s} KM/H`, 60, 200, 56, 2, words);
        write(`${(2 + 1.7 * s).toFixed(1)} KM`, 700, 200, 56, 3, words);
        write('TEMP', 60, 460, 32, 4, words);
        write(temperature, 300, 470, 64, 5, seen);
        write('PRESSURE', 700, 460, 32, 6, words);
        write(`${(101.3 + 0.1 * s).toFixed(1)} kPa`, 950, 470, 64, 7, words);
        const reading = read[s];
        if (reading) words.push(...seen.map((w) => ({ ...w, text: reading })));
        return { t: s, text: words.map((w) => w.text).join(' '), thumb: canvas.toDataURL('image/jpeg', 0.85), ocrW: width, ocrH: height, words };
      });
    },
    { truth: TEMP_TRUTH, read: TEMP_READ },
  );
  await putLocalRecord(page, { id, data, uploadedAt: Date.now(), duration: data.length, targetFrameRate: 1, fileName: 'Instrument', _addedAt: Date.now() });
  return id;
}

const tempCell = (page: Page, frame: number) => table(page).getByRole('button', { name: new RegExp(`^TEMP, frame ${frame}: `) });
const unsureCount = (page: Page) => page.getByRole('region', { name: 'Results to Export', exact: true }).getByRole('status');

/** The proofreader's heading sits below the sticky navbar, whole. */
async function expectHeadingClearOfNavbar(page: Page): Promise<void> {
  const navbar = await page.getByRole('banner').boundingBox();
  const heading = await proofreader(page).getByRole('heading').boundingBox();
  expect(heading!.y).toBeGreaterThanOrEqual(navbar!.y + navbar!.height);
  await expect(proofreader(page).getByRole('heading')).toBeInViewport();
}

/** Walks the blank and the 3722 with "Next unsure value" and types what each frame's picture shows. */
async function fixBlankAndOutlier(page: Page, name: string): Promise<void> {
  await expect(unsureCount(page)).toHaveText('2 unsure values');
  await expect(tempCell(page, 4)).toHaveAttribute('data-state', 'unsure');
  await expect(tempCell(page, 4)).toHaveAttribute('title', 'no value read');
  await expect(tempCell(page, 7)).toHaveAttribute('title', 'jumps from 37.2 to 3722: digits run together or decimal point lost?');
  await expect(page.getByText(/^Marked in orange: 1 value far off the others/)).toBeVisible();

  await page.getByRole('button', { name: 'Next unsure value (2)' }).click();
  await expect(proofreader(page).getByRole('heading')).toHaveText('TEMP, Frame 4 (0:03)');
  // Nothing was read there: the crop is where TEMP usually is, and it shows the value to type.
  await expect(proofreader(page).getByRole('img', { name: 'Frame 4 (0:03) where TEMP usually is' })).toHaveAttribute('data-drawn', 'true');
  await expectHeadingClearOfNavbar(page);
  await expect(field(page)).toBeFocused();
  await expect(field(page)).toHaveValue('');
  await shot(page, `${name}-blank`);
  await page.keyboard.type('37.2');
  await page.keyboard.press('Enter');

  await expect(proofreader(page).getByRole('heading')).toHaveText('TEMP, Frame 7 (0:06)');
  await expect(proofreader(page).getByRole('img', { name: 'Frame 7 (0:06) around TEMP' })).toHaveAttribute('data-drawn', 'true');
  await expectHeadingClearOfNavbar(page);
  await expect(field(page)).toBeFocused();
  await expect(field(page)).toHaveValue('3722');
  await shot(page, `${name}-outlier`);
  await field(page).fill('37.3');
  await field(page).press('Enter');

  await expect(proofreader(page)).toHaveCount(0);
  await expect(unsureCount(page)).toHaveText('No unsure values.');
  await expect(tempCell(page, 4)).toHaveAttribute('data-state', 'corrected');
  await expect(tempCell(page, 4)).toContainText('37.2');
  await expect(tempCell(page, 7)).toContainText('37.3');
  await expect(page.getByText(/^Marked in orange/)).toHaveCount(0);
}

test('a blank and a value far off are unsure: found with "Next unsure value" and fixed by typing, at 1366x768 and on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signUp(page);
  await page.goto(`/view-upload/${await saveInstrumentRun(page, 'desk')}?view=numerical`);
  await page.getByRole('button', { name: 'Find the numbers' }).click();
  // Named after the labels on screen, in the screen's order: top to bottom, left to right.
  await expect(page.getByRole('region', { name: 'Numbers in one click' }).getByRole('status')).toContainText('Found 4 series: SPEED (km/h), ALTITUDE (km), TEMP, PRESSURE (kPa).');
  const headers = table(page).getByRole('columnheader');
  await expect(headers).toHaveText(['Frame', 'Time', 'SPEED (km/h)', 'ALTITUDE (km)', 'TEMP', 'PRESSURE (kPa)']);
  // Results to Export takes the width it needs: the four series without scrolling sideways.
  const scroll = await table(page).evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(scroll, 'Results to Export scrolls sideways at 1366 px').toBeLessThanOrEqual(0);
  await shot(page, 'numerical-gaps-desktop');
  await fixBlankAndOutlier(page, 'numerical-gaps-desktop');
  const csv = await downloaded(page, 'Export as csv');
  const rows = csv.bytes.toString('utf8').slice(1).split('\r\n').filter((l) => l !== '');
  expect(rows.slice(1).map((r) => r.split(',')[4])).toEqual(TEMP_TRUTH);

  // On a phone the main action comes first: Find the numbers above the picture and the tracking sliders.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/view-upload/${await saveInstrumentRun(page, 'phone')}?view=numerical`);
  const find = page.getByRole('button', { name: 'Find the numbers' });
  await expect(find).toBeInViewport();
  const findBox = await find.boundingBox();
  const picture = await page.getByRole('img', { name: 'Frame 1 (0:00)', exact: true }).boundingBox();
  const slider = await page.getByLabel('Similarity Requirement').boundingBox();
  expect(findBox!.y).toBeLessThan(picture!.y);
  expect(findBox!.y).toBeLessThan(slider!.y);
  await shot(page, 'numerical-gaps-phone');
  await find.click();
  await fixBlankAndOutlier(page, 'numerical-gaps-phone');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the Numerical view scrolls sideways at 390 px').toBeLessThanOrEqual(0);
  await shot(page, 'numerical-gaps-phone-fixed');
});
