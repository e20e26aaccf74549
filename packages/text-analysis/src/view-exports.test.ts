import { describe, expect, it } from 'vitest';
import type { Detection } from '@frametext/contracts';
import { numericalWork, keptNumericalSeries } from './numerical-work.js';
import { numericalFileName } from './numerical-export.js';
import { regionFileName } from './region-export.js';
import { keptRegionReading, subtitleFileName } from './region-reading.js';
import { exportFileName, type ResultsFrame } from './results-frames.js';
import { scrollFileName } from './scroll-export.js';
import { keptScrollList, scrollWork } from './scroll-detection.js';
import { DEFAULT_SCROLL_SETTINGS } from './scroll-matching.js';
import { keptSlidesSelection, presentationFileName, presentationWork, selectedSlidesFileName } from './slides-text.js';
import { DEFAULT_TRACKING_SETTINGS } from './block-tracking.js';
import { rectVertices } from './geometry.js';

/*
 * What a view's export holds for the person's kept work, and without any: the functions the results service's
 * GET /api/uploads/:id/export calls (the browser's views build the same state from the same functions).
 */

const block = (text: string, x: number, y: number, w = 120, h = 40): Detection => ({
  text,
  blockType: 'LINE',
  area: w * h,
  confidence: 95,
  vertices: rectVertices({ x, y, w, h }),
});

const frame = (index: number, detections: Detection[]): ResultsFrame => ({
  index,
  imageUrl: null,
  t: index,
  text: detections.map((d) => d.text).join('\n'),
  detections,
  lines: detections.map((d) => ({ text: d.text })),
  space: null,
});

const charger = Array.from({ length: 8 }, (_, s) => [block('Battery', 40, 100), block(`${40 + s}%`, 300, 100), block('Power', 40, 300), block(`${150 - s} kW`, 300, 300)]);

describe('the Numerical export', () => {
  it('exports the series Find the numbers adds when no series is kept, the same ids every time', () => {
    const found = keptNumericalSeries(charger, null);
    expect(found.map((p) => p.series.name)).toEqual(['Battery (%)', 'Power (kW)']);
    expect(found[0]!.series.values).toEqual(charger.map((_, s) => `${40 + s}`));
    expect(keptNumericalSeries(charger, null).map((p) => p.id)).toEqual(found.map((p) => p.id));
    // Kept work with every series removed is "no series selected" too.
    expect(keptNumericalSeries(charger, numericalWork([], DEFAULT_TRACKING_SETTINGS, {})).map((p) => p.series.name)).toEqual(['Battery (%)', 'Power (kW)']);
  });

  it('exports the kept series as kept: its name and its corrections', () => {
    const power = keptNumericalSeries(charger, null)[1]!;
    const kept = numericalWork([{ ...power.row.block, settings: { ...power.row.block.settings, seriesName: 'Output' } }], DEFAULT_TRACKING_SETTINGS, { [power.id]: { '1': '1000' } });
    const [only, ...others] = keptNumericalSeries(charger, JSON.parse(JSON.stringify(kept)));
    expect(others).toEqual([]);
    expect(only!.series.name).toBe('Output');
    expect(only!.series.values.slice(0, 3)).toEqual(['150', '1000', '148']);
    expect(only!.corrected.slice(0, 3)).toEqual([false, true, false]);
  });
});

describe('the Region export', () => {
  // 1000 x 500 frames: a caption near the bottom, where the first box starts, and a title at the top.
  const frames = [0, 1, 2].map((i) => frame(i, [block('Title', 400, 20), block(i < 2 ? 'Hello there' : 'Bye', 350, 430, 300, 40)]));
  const space = () => ({ width: 1000, height: 500 });

  it('reads the first box where captions usually are, with the filters open, when nothing is kept', () => {
    const { boxes, readings } = keptRegionReading(frames, space, null);
    expect(boxes.map((b) => b.name)).toEqual(['Green']);
    expect(readings.map((r) => r.boxes)).toEqual([[['Hello there']], [['Hello there']], [['Bye']]]);
  });

  it('reads nothing while the frames have no size', () => {
    expect(keptRegionReading(frames, () => null, null).readings.every((r) => r.boxes[0]!.length === 0)).toBe(true);
  });
});

describe('the Presentation export', () => {
  const slides = [frame(0, [block('Agenda', 0, 0)]), frame(1, [block('Agenda', 0, 0), block('• one', 0, 50)]), frame(2, [block('Thanks', 0, 0)])];

  it('takes every frame but the earlier builds of a slide when nothing is kept, and the kept ticks otherwise', () => {
    expect(keptSlidesSelection(slides, null)).toEqual([false, true, true]);
    expect(keptSlidesSelection(slides, presentationWork([true, false, false], 95))).toEqual([true, false, false]);
    // Ticks kept for another number of frames do not fit: the start again.
    expect(keptSlidesSelection(slides, presentationWork([true], 95))).toEqual([false, true, true]);
  });
});

describe('the Scroll export', () => {
  it('has no list until a template is locked', () => {
    const frames = [frame(0, [block('Item 1', 50, 100), block('$ 4.00', 600, 100)])];
    expect(keptScrollList(frames, null)).toBeNull();
    expect(keptScrollList(frames, scrollWork({ x: 0, y: 0.2, w: 1, h: 0.2 }, null, { ...DEFAULT_SCROLL_SETTINGS }, true, null))).toBeNull();
  });
});

describe('export file names', () => {
  it('name the upload first in every view, then what the file holds', () => {
    const name = 'Charger: run 1';
    expect(numericalFileName(name, 'csv')).toBe('Charger- run 1-results.csv');
    expect(numericalFileName(name, 'txt')).toBe('Charger- run 1-results.txt');
    expect(numericalFileName(name, 'json')).toBe('Charger- run 1-results.json');
    expect(regionFileName(name, 'csv')).toBe('Charger- run 1-captions.csv');
    expect(subtitleFileName(name, 'Green', 'srt')).toBe('Charger- run 1-green.srt');
    expect(selectedSlidesFileName(name)).toBe('Charger- run 1-selected-slides.txt');
    expect(presentationFileName(name)).toBe('Charger- run 1-slides.txt');
    expect(scrollFileName(name, true, 'csv')).toBe('Charger- run 1-list-unique.csv');
  });

  it('say "upload" when nothing of the name can be used', () => {
    expect(exportFileName('\u0007', 'results', 'csv')).toBe('upload-results.csv');
  });
});
