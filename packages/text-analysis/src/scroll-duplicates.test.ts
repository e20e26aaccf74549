import { describe, expect, it } from 'vitest';
import { applyListEdits, deduplicateItems, itemKey, keySimilarity, NO_SCROLL_EDITS, withRowEdit } from './scroll-duplicates.js';
import { listItemsCsv, listItemsText } from './scroll-export.js';
import type { ListItemMatch } from './scroll-matching.js';

const found = (frameIndex: number, y: number, texts: string[]): ListItemMatch => ({
  frameIndex,
  bounds: { x: 40, y, w: 1000, h: 100 },
  texts,
  lines: texts.length,
  similarity: 0.9,
});

const kettle = ['Item 02 Blue Kettle', '$ 24.99'];
const lamp = ['Item 03 Red Lamp', '$ 13.50'];
const chair = ['Item 04 Oak Chair', '$ 89.00'];

describe('scroll duplicates', () => {
  it('normalises an item text into a key: lower case, letters and digits, single spaces', () => {
    expect(itemKey(['  Item 02 Blue Kettle ', '$ 24.99'])).toBe('item 02 blue kettle 24 99');
    expect(itemKey(['Crème brûlée — £4'])).toBe('creme brulee 4');
    expect(itemKey(['$', '—'])).toBe('');
  });

  it('scores texts by their character pairs, forgiving a misread letter but not another item', () => {
    expect(keySimilarity(itemKey(kettle), itemKey(kettle))).toBe(1);
    const misread = keySimilarity(itemKey(kettle), itemKey(['Item 02 Blue Kettie', '$ 24.99']));
    expect(misread).toBeGreaterThan(0.85);
    expect(misread).toBeLessThan(0.95);
    expect(keySimilarity(itemKey(kettle), itemKey(lamp))).toBeLessThan(0.5);
    expect(keySimilarity('', '')).toBe(0);
  });

  it('merges the same item seen on several frames as the list scrolls, keeping the list order', () => {
    const result = deduplicateItems(
      [
        // Given out of order: frame 1 before frame 0, and bottom to top.
        found(1, 164, chair),
        found(1, 64, lamp),
        found(0, 200, lamp),
        found(0, 100, kettle),
        found(2, 10, ['Item 03 Red Lamp', '$ 13.50']),
        found(2, 110, ['Item 04 0ak Chair', '$ 89.00']),
      ],
      85,
    );
    expect(result.unique.map((i) => i.texts[0])).toEqual(['Item 02 Blue Kettle', 'Item 03 Red Lamp', 'Item 04 Oak Chair']);
    expect(result.unique.map((i) => [i.uniqueId, i.frame, i.frameIndex])).toEqual([
      [1, 1, 0],
      [2, 1, 0],
      [3, 2, 1],
    ]);
    expect(result.all.map((i) => [i.frame, i.uniqueId, i.duplicate])).toEqual([
      [1, 1, false],
      [1, 2, false],
      [2, 2, true],
      [2, 3, false],
      [3, 2, true],
      [3, 3, true],
    ]);
    expect(result.all[5]!.key).toBe('item 04 0ak chair 89 00');
  });

  it('duplicate threshold: a misread copy is the same item at 85% and a new one at 100%', () => {
    const frames = [found(0, 100, kettle), found(1, 40, ['Item 02 Blue Kettie', '$ 24.99'])];
    expect(deduplicateItems(frames, 85).unique).toHaveLength(1);
    expect(deduplicateItems(frames, 100).unique).toHaveLength(2);
    // Exact copies are the same item even at 100%.
    expect(deduplicateItems([found(0, 100, kettle), found(1, 40, kettle)], 100).unique).toHaveLength(1);
  });

  it('lists items in list order even when OCR missed one on the frame where it first showed', () => {
    const wool = ['Item 05 Wool Scarf', '$ 46.36'];
    // Frame 0 shows items 2 to 5 but item 4 went unread; frame 1 (scrolled up by 76 px) reads it.
    const result = deduplicateItems(
      [found(0, 34, kettle), found(0, 184, lamp), found(0, 484, wool), found(1, 108, lamp), found(1, 258, chair), found(1, 408, wool)],
      85,
    );
    expect(result.unique.map((i) => i.texts[0])).toEqual(['Item 02 Blue Kettle', 'Item 03 Red Lamp', 'Item 04 Oak Chair', 'Item 05 Wool Scarf']);
    expect(result.unique.map((i) => i.uniqueId)).toEqual([1, 2, 3, 4]);
    expect(result.all.map((i) => i.uniqueId)).toEqual([1, 2, 4, 2, 3, 4]);
    // A frame that shares no item with the frames before it continues the list after them.
    const jump = deduplicateItems([found(0, 100, kettle), found(0, 200, lamp), found(1, 50, chair), found(1, 150, wool)], 85);
    expect(jump.unique.map((i) => i.texts[0])).toEqual(['Item 02 Blue Kettle', 'Item 03 Red Lamp', 'Item 04 Oak Chair', 'Item 05 Wool Scarf']);
  });

  it('recognises an item seen long before, when the list is scrolled back', () => {
    const away = Array.from({ length: 9 }, (_, i) => found(i + 1, 0, [`Item ${20 + i} ${['Oak', 'Tin', 'Jam', 'Fig', 'Ink', 'Owl', 'Elm', 'Yak', 'Zip'][i]} box`, `$ ${i}.00`]));
    const result = deduplicateItems([found(0, 0, kettle), ...away, found(10, 0, kettle)], 85);
    expect(result.unique).toHaveLength(10);
    expect(result.all.at(-1)).toMatchObject({ uniqueId: 1, duplicate: true, frame: 11 });
  });

  it('never merges two items on the same frame, nor items without text', () => {
    const twice = deduplicateItems([found(0, 0, lamp), found(0, 100, lamp), found(1, 50, lamp)], 85);
    expect(twice.unique.map((i) => i.bounds.y)).toEqual([0, 100]);
    expect(twice.all.map((i) => i.uniqueId)).toEqual([1, 2, 1]);
    expect(deduplicateItems([found(0, 0, ['$']), found(1, 0, ['$'])], 50).unique).toHaveLength(2);
  });

  it('finds every item of a long upload: 360 frames of 8 items each', () => {
    // 367 different product names (letters from a fixed pseudo-random sequence), each visible on 8 frames.
    let seed = 7;
    const letter = () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) % 2147483648) % 26));
    const names = Array.from({ length: 367 }, (_, n) => `Item ${n} ${Array.from({ length: 14 }, letter).join('')}`);
    const matches: ListItemMatch[] = [];
    for (let f = 0; f < 360; f++) {
      for (let i = 0; i < 8; i++) matches.push(found(f, i * 90, [names[f + i]!, `$ ${((f + i) * 1.37).toFixed(2)}`]));
    }
    const result = deduplicateItems(matches, 85);
    expect(result.unique).toHaveLength(367);
    expect(result.unique.map((i) => i.texts[0])).toEqual(names);
  });
});

/** A sighting with the OCR's confidence, as Tesseract gives it. */
const read = (frameIndex: number, y: number, texts: string[], confidence: number): ListItemMatch => ({ ...found(frameIndex, y, texts), confidence });

// Realistic misreadings of the first items (Tesseract on a blurred frame).
const blurryKettle = ['Itern 01 B1ue Kett1e', '$24.99'];
const cleanKettle = ['Item 01 Blue Kettle', '$ 24.99'];
const blurryLamp = ['ltem 02 Rcd Larnp', '$ 13.5O'];
const cleanLamp = ['Item 02 Red Lamp', '$ 13.50'];
const blurryChair = ['Itern 03 0ak Chalr', '$ 89.0O'];
const cleanChair = ['Item 03 Oak Chair', '$ 89.00'];
const deskClock = (n: number) => [`Item ${n} Desk Clock`, '$ 19.99'];

describe('one row per item, with its clearest reading', () => {
  it('keeps the clean readings over a blurry first one, and says how many frames it was seen on', () => {
    // The list starts scrolling: item 1 is blurred on the first frame, then read cleanly twice (20 and 10 px higher).
    const result = deduplicateItems(
      [
        read(0, 30, blurryKettle, 48),
        read(0, 180, cleanLamp, 91),
        read(0, 330, cleanChair, 90),
        read(1, 10, cleanKettle, 92),
        read(1, 160, cleanLamp, 93),
        read(1, 310, cleanChair, 90),
        read(2, 0, cleanKettle, 90),
        read(2, 150, cleanLamp, 92),
        read(2, 300, cleanChair, 91),
      ],
      85,
    );
    expect(result.unique.map((row) => row.texts)).toEqual([cleanKettle, cleanLamp, cleanChair]);
    expect(result.unique.map((row) => [row.uniqueId, row.seenOn, row.frame])).toEqual([
      [1, 3, 2],
      [2, 3, 2],
      [3, 3, 3],
    ]);
    // Rows are named by their first sighting, whichever reading they show.
    expect(result.unique[0]!.ref).toBe('0:30');
    expect(result.all.map((s) => s.uniqueId)).toEqual([1, 2, 3, 1, 2, 3, 1, 2, 3]);
  });

  it('merges a frame blurred throughout with the clean frame after it, by the place its items stand at', () => {
    const result = deduplicateItems(
      [read(0, 30, blurryKettle, 45), read(0, 180, blurryLamp, 41), read(0, 330, blurryChair, 44), read(1, 10, cleanKettle, 93), read(1, 160, cleanLamp, 92), read(1, 310, cleanChair, 94)],
      85,
    );
    expect(result.unique.map((row) => row.texts)).toEqual([cleanKettle, cleanLamp, cleanChair]);
    expect(result.unique.map((row) => row.seenOn)).toEqual([2, 2, 2]);
  });

  it('takes the text most frames agree on, even when a single other reading is surer', () => {
    const result = deduplicateItems([read(0, 0, ['Item 01 Blue Kettie', '$ 24.99'], 96), read(1, 0, cleanKettle, 88), read(2, 0, cleanKettle, 87)], 85);
    expect(result.unique).toHaveLength(1);
    expect(result.unique[0]!.texts).toEqual(cleanKettle);
  });

  it('keeps look-alike neighbours apart: "Item 12" and "Item 13" of the same name and price', () => {
    // Items 150 px apart; the list moves one item a frame. Their texts are 89% alike, above the duplicate threshold.
    expect(keySimilarity(itemKey(deskClock(12)), itemKey(deskClock(13)))).toBeGreaterThan(0.85);
    const matches = [0, 1, 2].flatMap((f) => [0, 1, 2].map((i) => found(f, i * 150, deskClock(11 + f + i))));
    const result = deduplicateItems(matches, 85);
    expect(result.unique.map((row) => row.texts[0])).toEqual([11, 12, 13, 14, 15].map((n) => `Item ${n} Desk Clock`));
    expect(result.unique.map((row) => row.seenOn)).toEqual([1, 2, 3, 2, 1]);
  });

  it('keeps one product listed twice as two rows, each at its own place', () => {
    // Chair, lamp, chair again, then the kettle comes into view as the list moves 150 px.
    const result = deduplicateItems([found(0, 0, cleanChair), found(0, 150, cleanLamp), found(0, 300, cleanChair), found(1, 0, cleanLamp), found(1, 150, cleanChair), found(1, 300, cleanKettle)], 85);
    expect(result.unique.map((row) => row.texts[0])).toEqual([cleanChair[0], cleanLamp[0], cleanChair[0], cleanKettle[0]]);
    expect(result.all.map((s) => s.uniqueId)).toEqual([1, 2, 3, 2, 3, 4]);
  });
});

describe('the person\'s edits to the list', () => {
  // The blurry kettle is alone on its frame, so nothing places it: it stays a row of its own, which a person merges.
  const split = deduplicateItems([read(0, 30, blurryKettle, 45), read(1, 10, cleanKettle, 93), read(1, 160, cleanLamp, 92), read(2, 0, cleanLamp, 90), read(2, 150, cleanChair, 91)], 85);

  it('starts from the list as detected', () => {
    expect(split.unique.map((row) => [row.ref, row.texts[0]])).toEqual([
      ['0:30', blurryKettle[0]],
      ['1:10', cleanKettle[0]],
      ['1:160', cleanLamp[0]],
      ['2:150', cleanChair[0]],
    ]);
    expect(applyListEdits(split, NO_SCROLL_EDITS)).toBe(split);
  });

  it('merges a row into the one above: one row, its reading chosen again from all the sightings', () => {
    const merged = applyListEdits(split, { texts: {}, removed: [], merged: { '1:10': '0:30' } });
    expect(merged.unique.map((row) => [row.uniqueId, row.texts[0], row.seenOn])).toEqual([
      [1, cleanKettle[0], 2],
      [2, cleanLamp[0], 2],
      [3, cleanChair[0], 1],
    ]);
    expect(merged.unique[0]!.ref).toBe('0:30');
    expect(merged.all.map((s) => [s.uniqueId, s.duplicate])).toEqual([
      [1, false],
      [1, true],
      [2, false],
      [2, true],
      [3, false],
    ]);
  });

  it('removes rows and edits text, and the exports hold the corrected list', () => {
    const edited = applyListEdits(split, { texts: { '1:160': ['Item 02 Red Lamp', '$ 13.95'] }, removed: ['0:30'], merged: {} });
    expect(edited.unique.map((row) => [row.uniqueId, row.texts.join(' | ')])).toEqual([
      [1, 'Item 01 Blue Kettle | $ 24.99'],
      [2, 'Item 02 Red Lamp | $ 13.95'],
      [3, 'Item 03 Oak Chair | $ 89.00'],
    ]);
    expect(edited.unique[1]!.key).toBe('item 02 red lamp 13 95');
    expect(edited.all).toHaveLength(4);
    expect(listItemsText(edited.unique)).toBe('Item 01 Blue Kettle\n$ 24.99\n\nItem 02 Red Lamp\n$ 13.95\n\nItem 03 Oak Chair\n$ 89.00\n');
    expect(listItemsCsv(edited.unique).split('\r\n')[2]).toBe('2,2,,Item 02 Red Lamp | $ 13.95,90%,Item 02 Red Lamp,$ 13.95');
  });

  it('follows merges into rows merged on, drops a merged row with the row it joined, and ignores rows not found', () => {
    const chain = applyListEdits(split, { texts: { '9:0': ['Gone'] }, removed: [], merged: { '2:150': '1:160', '1:160': '1:10', '0:30': '7:7' } });
    // The chair joins the lamp, which joins the kettle: frames 2 and 3.
    expect(chain.unique.map((row) => [row.ref, row.seenOn])).toEqual([
      ['0:30', 1],
      ['1:10', 2],
    ]);
    expect(chain.unique.flatMap((row) => row.texts)).not.toContain('Gone');
    const removed = applyListEdits(split, { texts: {}, removed: ['1:10'], merged: { '1:160': '1:10' } });
    expect(removed.unique.map((row) => row.texts[0])).toEqual([blurryKettle[0], cleanChair[0]]);
  });

  it('records corrections one at a time, and a merge with an edited row keeps what the person sees', () => {
    let edits = withRowEdit(NO_SCROLL_EDITS, { kind: 'text', ref: '1:160', texts: ['Item 02 Red Lamp (large)', '$ 13.50'] }, split.unique);
    edits = withRowEdit(edits, { kind: 'remove', ref: '0:30' }, applyListEdits(split, edits).unique);
    // The chair (another item) merged into the edited lamp: both rows' lines, the lamp's first.
    const joined = withRowEdit(edits, { kind: 'merge', ref: '2:150', into: '1:160' }, applyListEdits(split, edits).unique);
    expect(applyListEdits(split, joined).unique.map((row) => row.texts)).toEqual([cleanKettle, ['Item 02 Red Lamp (large)', '$ 13.50', ...cleanChair]]);
    // A misread copy merged into an edited row: the edited text stays.
    const copy = withRowEdit(NO_SCROLL_EDITS, { kind: 'text', ref: '0:30', texts: ['Item 01 Blue Kettle (2 l)', '$ 24.99'] }, split.unique);
    const kept = withRowEdit(copy, { kind: 'merge', ref: '1:10', into: '0:30' }, applyListEdits(split, copy).unique);
    expect(applyListEdits(split, kept).unique[0]!.texts).toEqual(['Item 01 Blue Kettle (2 l)', '$ 24.99']);
    expect(NO_SCROLL_EDITS).toEqual({ texts: {}, removed: [], merged: {} });
  });
});
