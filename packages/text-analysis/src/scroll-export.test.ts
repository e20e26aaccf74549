import { describe, expect, it } from 'vitest';
import { BOM } from './csv.js';
import { deduplicateItems } from './scroll-duplicates.js';
import { itemContent, listItemsCsv, listItemsText, matchPercent, scrollFileName } from './scroll-export.js';
import type { ListItemMatch } from './scroll-matching.js';

const found = (frameIndex: number, y: number, texts: string[], similarity = 1): ListItemMatch => ({
  frameIndex,
  bounds: { x: 0, y, w: 500, h: 90 },
  texts,
  lines: texts.length,
  similarity,
});

const { all, unique } = deduplicateItems(
  [found(0, 0, ['Item 01 Blue Kettle', '$ 24.99'], 0.934), found(0, 100, ['=Item 02 "Red" Lamp']), found(1, 0, ['Item 01 Blue Kettle', '$ 24.99'], 0.9)],
  85,
);

describe('scroll exports', () => {
  it('names the files after the upload, as every export is named', () => {
    expect(scrollFileName('Shop: page 2', true, 'csv')).toBe('Shop- page 2-list-unique.csv');
    expect(scrollFileName('Shop', false, 'txt')).toBe('Shop-list-all.txt');
  });

  it('writes the unique list as CSV with a byte-order mark, one column per line, formulas defused', () => {
    const csv = listItemsCsv(unique, { times: [0, 65] });
    expect(csv.startsWith(BOM)).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      '#,Frame,Time,Content,Match,Line 1,Line 2',
      '1,1,0:00,Item 01 Blue Kettle | $ 24.99,93%,Item 01 Blue Kettle,$ 24.99',
      `2,1,0:00,"'=Item 02 ""Red"" Lamp",100%,"'=Item 02 ""Red"" Lamp",`,
      '',
    ]);
  });

  it('writes every item with the number of the unique item it repeats, and leaves Time empty when unknown', () => {
    const lines = listItemsCsv(all, { withUniqueColumn: true, times: [null, null] }).slice(1).split('\r\n');
    expect(lines[0]).toBe('#,Frame,Time,Content,Match,Unique item,Line 1,Line 2');
    expect(lines.slice(1, 4).map((l) => l.split(',').slice(0, 3).concat(l.split(',')[5]!))).toEqual([
      ['1', '1', '', '1'],
      ['2', '1', '', '2'],
      ['3', '2', '', '1'],
    ]);
  });

  it('writes plain text: each item on its own lines, a blank line between items', () => {
    expect(listItemsText(unique)).toBe('Item 01 Blue Kettle\n$ 24.99\n\n=Item 02 "Red" Lamp\n');
    expect(listItemsText([])).toBe('');
    expect(itemContent(unique[0]!)).toBe('Item 01 Blue Kettle | $ 24.99');
    expect(matchPercent(0.875)).toBe('88%');
  });
});
