import { describe, expect, it } from 'vitest';
import { parseKeptWork, type Detection } from '@frametext/contracts';
import { rectVertices } from './geometry.js';
import type { ResultsFrame } from './results-frames.js';
import { detectionSettingsOf, keptScrollList, lockTemplate, restoreScrollWork, scrollWork } from './scroll-detection.js';
import type { ListRow } from './scroll-duplicates.js';
import { DEFAULT_SCROLL_SETTINGS } from './scroll-matching.js';

/* The Scroll view's kept work with the person's corrections, as the view restores it and the server exports it. */

const SPACE = { width: 1000, height: 400 };
const NAMES = ['Blue Kettle', 'Red Lamp', 'Oak Chair', 'Wool Scarf', 'Glass Vase'];
const title = (n: number) => `Item 0${n} ${NAMES[n - 1]}`;
const price = (n: number) => `$ ${n}9.99`;

const block = (text: string, x: number, y: number, w: number): Detection => ({
  text,
  blockType: 'LINE',
  area: w * 30,
  confidence: 93,
  vertices: rectVertices({ x, y, w, h: 30 }),
});

/** Items 100 px apart, a title at the left and a price at the right; the list moves up 60 px a frame. */
function frameAt(index: number): ResultsFrame {
  const detections = NAMES.flatMap((_, i) => {
    const top = i * 100 - index * 60;
    return [block(title(i + 1), 50, top + 20, 300), block(price(i + 1), 880, top + 60, 100)].filter((d) => d.vertices[0]!.y >= 0 && d.vertices[2]!.y <= SPACE.height);
  });
  return { index, imageUrl: null, t: index, text: detections.map((d) => d.text).join('\n'), detections, lines: [], space: SPACE };
}

const frames = [0, 1, 2].map(frameAt);
const box = { x: 0.04, y: 0.25, w: 0.96, h: 0.25 };
const locked = lockTemplate(frames[0]!, box, SPACE)!;
const settings = { ...DEFAULT_SCROLL_SETTINGS };
const detected = detectionSettingsOf(settings);

describe('the Scroll view kept work with corrections', () => {
  it('keeps edited, removed and merged rows, and the export holds the corrected list', () => {
    const plain = keptScrollList(frames, scrollWork(box, locked, settings, true, detected))!;
    expect(plain.items.map((row) => row.texts[0])).toEqual([1, 2, 3, 4, 5].map(title));
    const refs = plain.items.map((row) => (row as ListRow).ref);

    const edits = { texts: { [refs[0]!]: ['Item 01 Blue Kettle (large)', '$ 19.99'] }, removed: [refs[3]!], merged: { [refs[2]!]: refs[1]! } };
    const work = JSON.parse(JSON.stringify(scrollWork(box, locked, settings, true, detected, edits)));
    expect(parseKeptWork('scroll', work)).not.toBeNull();
    expect(restoreScrollWork(work, frames)!.edits).toEqual(edits);

    const list = keptScrollList(frames, work)!;
    expect(list.items.map((row) => [row.uniqueId, row.texts.join(' | ')])).toEqual([
      [1, 'Item 01 Blue Kettle (large) | $ 19.99'],
      // Two different texts merged: the row's lines joined, the row above first.
      [2, `${title(2)} | ${price(2)} | ${title(3)} | ${price(3)}`],
      [3, `${title(5)} | ${price(5)}`],
    ]);
  });

  it('keeps no corrections without results, and refuses a row named otherwise than frame:top', () => {
    const edits = { texts: {}, removed: ['0:20'], merged: {} };
    expect(scrollWork(box, locked, settings, true, null, edits)).not.toHaveProperty('edits');
    expect(scrollWork(box, locked, settings, true, detected)).not.toHaveProperty('edits');
    const work = scrollWork(box, locked, settings, true, detected, edits);
    expect(parseKeptWork('scroll', { ...work, edits: { texts: { row1: ['x'] }, removed: [], merged: {} } })).toBeNull();
  });
});
