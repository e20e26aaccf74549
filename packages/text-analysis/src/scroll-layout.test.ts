import { describe, expect, it } from 'vitest';
import { rectVertices } from './geometry.js';
import { layoutLines, linesInColumn, type LayoutBlock } from './scroll-layout.js';

const quad = (x: number, y: number, w: number, h: number) => rectVertices({ x, y, w, h });

/** A Tesseract-style line: its words placed one after another with `gap` px between them. */
function line(words: string[], x: number, y: number, h: number, gap = 10): LayoutBlock {
  let at = x;
  const placed = words.map((text) => {
    const w = text.length * 12;
    const word = { text, vertices: quad(at, y, w, h) };
    at += w + gap;
    return word;
  });
  return { text: words.join(' '), vertices: quad(x, y, at - gap - x, h), words: placed };
}

describe('scroll layout', () => {
  it('groups blocks into rows top to bottom, whatever order the engine gave them', () => {
    const lines = layoutLines([
      { text: '$ 24.99', vertices: quad(600, 62, 80, 26) },
      { text: 'Item 07 Blue Kettle', vertices: quad(50, 20, 300, 30) },
      { text: '   ', vertices: quad(50, 200, 30, 30) },
      { text: 'Kitchen', vertices: quad(50, 64, 90, 24) },
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Item 07 Blue Kettle', 'Kitchen $ 24.99']);
    expect(lines.map((l) => l.segments.length)).toEqual([1, 2]);
    expect(lines[1]).toMatchObject({ left: 50, right: 680, top: 62, bottom: 88, centreY: 75 });
  });

  it('cuts a line into segments at gaps wider than one and a half line heights, using the words when given', () => {
    const title = line(['Blue', 'Kettle'], 50, 20, 30);
    const farPrice = line(['$', '24.99'], 600, 20, 30);
    // One engine line holding both, as Tesseract may read a row: the wide gap still splits it.
    const merged: LayoutBlock = { text: 'Blue Kettle $ 24.99', vertices: quad(50, 20, 610, 30), words: [...title.words!, ...farPrice.words!] };
    const [row] = layoutLines([merged]);
    expect(row!.segments.map((s) => s.text)).toEqual(['Blue Kettle', '$ 24.99']);
    // Normal word spacing keeps one segment.
    expect(layoutLines([line(['Item', '07', 'Blue', 'Kettle'], 50, 20, 30)])[0]!.segments).toHaveLength(1);
  });

  it('keeps only the segments whose centre is in a column', () => {
    const lines = layoutLines([line(['Menu'], 0, 0, 20), line(['Blue', 'Kettle'], 300, 0, 20), line(['$', '9.99'], 700, 40, 20)]);
    const column = linesInColumn(lines, 250, 800);
    expect(column.map((l) => l.text)).toEqual(['Blue Kettle', '$ 9.99']);
    expect(column[0]!.left).toBe(300);
    expect(linesInColumn(lines, 900, 1000)).toEqual([]);
  });
});
