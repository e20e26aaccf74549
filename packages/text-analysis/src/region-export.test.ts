import { describe, expect, it } from 'vitest';
import { BOM } from './csv.js';
import { regionCsv, regionTxt } from './region-export.js';

const frames = [
  { number: 1, t: 0, boxes: [['Hello', 'world'], []] },
  { number: 2, t: 65, boxes: [[], []] },
  { number: 3, t: 70, boxes: [['=1+1'], ['Score, 3']] },
];

describe('region export', () => {
  it('writes a CSV with a byte-order mark, one column per box and lines joined by " | "', () => {
    expect(regionCsv(['Green', 'Blue'], frames)).toBe(`${BOM}Frame,Time,Green,Blue\r\n1,0:00,Hello | world,\r\n2,1:05,,\r\n3,1:10,'=1+1,"Score, 3"\r\n`);
  });

  it('writes a TXT with a byte-order mark: every caption of every box once, in time order, with its times and lines', () => {
    const green = [
      { start: 0.5, end: 3, text: 'Good evening' },
      { start: 65.04, end: 70, text: 'Two\nlines' },
    ];
    const blue = [{ start: 0.5, end: 2, text: 'Score 3' }];
    expect(regionTxt(['Green', 'Blue'], [green, blue])).toBe(`${BOM}Green 0:00.5 to 0:03.0\nGood evening\n\nBlue 0:00.5 to 0:02.0\nScore 3\n\nGreen 1:05.0 to 1:10.0\nTwo\nlines\n`);
    expect(regionTxt(['Green'], [[]])).toBe(BOM);
  });
});
