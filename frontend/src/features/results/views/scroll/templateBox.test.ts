import { describe, expect, it } from 'vitest';
import { boxInPixels } from '@frametext/text-analysis';
import { boxAfterKey, boxFromPoints, fitBox, MIN_BOX, moveBox, resizeBox } from './templateBox';

const box = { x: 0.2, y: 0.3, w: 0.4, h: 0.2 };

describe('template box', () => {
  it('stays inside the frame when moved', () => {
    expect(moveBox(box, 0.1, -0.1)).toEqual({ x: 0.3, y: 0.2, w: 0.4, h: 0.2 });
    expect(moveBox(box, 5, 5)).toEqual({ x: 0.6, y: 0.8, w: 0.4, h: 0.2 });
    expect(moveBox(box, -5, -5)).toEqual({ x: 0, y: 0, w: 0.4, h: 0.2 });
  });

  it('is drawn between two points in any direction, at least the minimum size', () => {
    expect(boxFromPoints({ x: 0.6, y: 0.5 }, { x: 0.2, y: 0.3 })).toEqual(box);
    expect(boxFromPoints({ x: 0.5, y: 0.5 }, { x: 0.5, y: 0.5 })).toEqual({ x: 0.5, y: 0.5, w: MIN_BOX.w, h: MIN_BOX.h });
    expect(boxFromPoints({ x: -1, y: -1 }, { x: 2, y: 2 })).toEqual({ x: 0, y: 0, w: 1, h: 1 });
  });

  it('resizes by any corner, keeping the opposite corner and the minimum size (4% wide, 5% high)', () => {
    expect(resizeBox(box, 'se', { x: 0.9, y: 0.9 })).toEqual({ x: 0.2, y: 0.3, w: 0.7, h: 0.6 });
    expect(resizeBox(box, 'nw', { x: 0.1, y: 0.1 })).toEqual({ x: 0.1, y: 0.1, w: 0.5, h: 0.4 });
    expect(resizeBox(box, 'ne', { x: 0.7, y: 0.25 })).toEqual({ x: 0.2, y: 0.25, w: 0.5, h: 0.25 });
    // Dragged past the opposite corner: the box stops at its minimum size.
    expect(resizeBox(box, 'sw', { x: 0.95, y: 0 })).toEqual({ x: 0.56, y: 0.3, w: 0.04, h: 0.05 });
  });

  it('moves with the arrow keys and resizes with Shift and the arrow keys, 1% at a time', () => {
    expect(boxAfterKey(box, 'ArrowRight', false)).toEqual({ ...box, x: 0.21 });
    expect(boxAfterKey(box, 'ArrowUp', false)).toEqual({ ...box, y: 0.29 });
    expect(boxAfterKey(box, 'ArrowDown', true)).toEqual({ ...box, h: 0.21 });
    expect(boxAfterKey(box, 'ArrowLeft', true)).toEqual({ ...box, w: 0.39 });
    expect(boxAfterKey({ ...box, w: MIN_BOX.w }, 'ArrowLeft', true)).toEqual({ ...box, w: MIN_BOX.w });
    expect(boxAfterKey(box, 'Enter', false)).toBeNull();
  });

  it('fits any box into the frame and places it in pixels', () => {
    expect(fitBox({ x: 0.9, y: -0.2, w: 0.3, h: 0.01 })).toEqual({ x: 0.7, y: 0, w: 0.3, h: 0.05 });
    expect(boxInPixels(box, { width: 1000, height: 500 })).toEqual({ x: 200, y: 150, w: 400, h: 100 });
  });
});
