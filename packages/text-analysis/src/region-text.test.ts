import { describe, expect, it } from 'vitest';
import { rectVertices, type TextBlock } from './geometry.js';
import { blocksInside, groupIntoRows, linesInBox, rectInPixels } from './region-text.js';

const block = (text: string, x: number, y: number, w: number, h: number): TextBlock => ({
  text,
  vertices: rectVertices({ x, y, w, h }),
});

describe('region text', () => {
  it('places a normalised box on an image of any size', () => {
    expect(rectInPixels({ x: 0.25, y: 0.5, w: 0.5, h: 0.25 }, 1280, 720)).toEqual({ x: 320, y: 360, w: 640, h: 180 });
    expect(rectInPixels({ x: 0.25, y: 0.5, w: 0.5, h: 0.25 }, 640, 360)).toEqual({ x: 160, y: 180, w: 320, h: 90 });
  });

  it('counts a block only when it lies wholly inside the box (touching the edge is inside)', () => {
    const box = { x: 100, y: 100, w: 200, h: 100 };
    const inside = block('in', 120, 120, 50, 20);
    const touching = block('edge', 100, 180, 200, 20);
    const cut = block('cut', 280, 120, 40, 20);
    const outside = block('out', 10, 10, 20, 20);
    expect(blocksInside([inside, touching, cut, outside], box).map((b) => b.text)).toEqual(['in', 'edge']);
  });

  it('reads blocks in rows, top to bottom and left to right', () => {
    const rows = groupIntoRows([block('world', 200, 102, 80, 30), block('second', 60, 150, 90, 30), block('Hello', 60, 100, 100, 30), block('line', 170, 152, 60, 30)]);
    expect(rows.map((r) => r.text)).toEqual(['Hello world', 'second line']);
  });

  it('keeps blocks in one row within 0.6 of the average height, and splits them beyond it', () => {
    // Height 30: tolerance 18 px between centres.
    expect(groupIntoRows([block('a', 0, 100, 20, 30), block('b', 30, 117, 20, 30)]).map((r) => r.text)).toEqual(['a b']);
    expect(groupIntoRows([block('a', 0, 100, 20, 30), block('b', 30, 119, 20, 30)]).map((r) => r.text)).toEqual(['a', 'b']);
  });

  it('never uses a tolerance under 6 px, so tiny text still forms rows', () => {
    // Height 4: 0.6 x 4 = 2.4 px, raised to 6 px.
    expect(groupIntoRows([block('a', 0, 10, 5, 4), block('b', 10, 15, 5, 4)]).map((r) => r.text)).toEqual(['a b']);
    expect(groupIntoRows([block('a', 0, 10, 5, 4), block('b', 10, 17, 5, 4)]).map((r) => r.text)).toEqual(['a', 'b']);
  });

  it('skips blank blocks and gives no rows for none', () => {
    expect(groupIntoRows([])).toEqual([]);
    expect(groupIntoRows([block('  ', 0, 0, 10, 10), block(' hi ', 20, 0, 10, 10)]).map((r) => r.text)).toEqual(['hi']);
  });

  it('gives the lines of a box from the blocks wholly inside it', () => {
    const blocks = [block('Title', 0, 0, 300, 40), block('We', 100, 600, 40, 30), block('meet', 150, 602, 60, 30), block('again', 120, 640, 80, 30)];
    expect(linesInBox(blocks, { x: 80, y: 580, w: 400, h: 120 })).toEqual(['We meet', 'again']);
  });
});
