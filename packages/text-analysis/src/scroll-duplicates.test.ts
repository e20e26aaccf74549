import { describe, expect, it } from 'vitest';
import { deduplicateItems, itemKey, keySimilarity } from './scroll-duplicates.js';
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
