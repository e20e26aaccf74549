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

  it('writes a TXT with a byte-order mark, listing the frames that have text, box by box', () => {
    expect(regionTxt(['Green', 'Blue'], frames)).toBe(`${BOM}Frame 1 (0:00)\nGreen: Hello | world\n\nFrame 3 (1:10)\nGreen: =1+1\nBlue: Score, 3\n`);
    expect(regionTxt(['Green'], [{ number: 1, t: null, boxes: [[]] }])).toBe(BOM);
  });
});
