import { describe, expect, it } from 'vitest';
import { defaultRect, fitRect, initialBoxes, MIN_BOX_HEIGHT, MIN_BOX_WIDTH, moveRect, rectAfterKey, rectBetween, resizeRect, selectionAfter, setEnabled } from '@frametext/text-analysis';

const close = (r: { x: number; y: number; w: number; h: number }) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v * 1000) / 1000]));

describe('region boxes', () => {
  it('starts each box two thirds wide and 0.22 high near the bottom, each next one higher, all inside the image', () => {
    const rects = ([0, 1, 2, 3] as const).map(defaultRect);
    expect(close(rects[0]!)).toEqual({ x: 0.167, y: 0.74, w: 0.667, h: 0.22 });
    for (let i = 1; i < 4; i++) {
      expect(rects[i]!.y + rects[i]!.h).toBeLessThanOrEqual(rects[i - 1]!.y);
      expect(rects[i]!.y).toBeGreaterThanOrEqual(0);
    }
  });

  it('starts with only Green on, and gives a box its default place the first time it is enabled', () => {
    const boxes = initialBoxes();
    expect(boxes.map((b) => [b.name, b.enabled])).toEqual([
      ['Green', true],
      ['Blue', false],
      ['Red', false],
      ['Yellow', false],
    ]);
    const on = setEnabled(boxes, 2, true);
    expect(on[2]!.norm).toEqual(defaultRect(2));
    // Turned off and on again, a moved box keeps its place.
    const moved = { ...on[2]!.norm!, x: 0.01 };
    const again = setEnabled(setEnabled(on.map((b) => (b.id === 2 ? { ...b, norm: moved } : b)), 2, false), 2, true);
    expect(again[2]!.norm).toEqual(moved);
  });

  it('moves selection to another enabled box when the selected one is disabled', () => {
    let boxes = setEnabled(initialBoxes(), 3, true);
    expect(selectionAfter(boxes, 0)).toBe(0);
    boxes = setEnabled(boxes, 0, false);
    expect(selectionAfter(boxes, 0)).toBe(3);
    expect(selectionAfter(setEnabled(boxes, 3, false), 3)).toBe(3); // nothing else to select
  });

  it('keeps a moved box inside the image', () => {
    const r = { x: 0.5, y: 0.5, w: 0.3, h: 0.2 };
    expect(close(moveRect(r, 0.5, 0.5))).toEqual({ x: 0.7, y: 0.8, w: 0.3, h: 0.2 });
    expect(close(moveRect(r, -1, -1))).toEqual({ x: 0, y: 0, w: 0.3, h: 0.2 });
  });

  it('resizes from a corner, never below 0.04 x 0.05 of the image nor past its edges', () => {
    const r = { x: 0.2, y: 0.2, w: 0.4, h: 0.4 };
    expect(close(resizeRect(r, 'se', 0.1, 0.1))).toEqual({ x: 0.2, y: 0.2, w: 0.5, h: 0.5 });
    expect(close(resizeRect(r, 'nw', -0.5, -0.5))).toEqual({ x: 0, y: 0, w: 0.6, h: 0.6 });
    const tiny = resizeRect(r, 'ne', -1, 1);
    expect(tiny.w).toBeCloseTo(MIN_BOX_WIDTH);
    expect(tiny.h).toBeCloseTo(MIN_BOX_HEIGHT);
    expect(tiny.x).toBeCloseTo(0.2);
    expect(tiny.y + tiny.h).toBeCloseTo(0.6);
  });

  it('draws a box between two points in any direction, fitted to the image and the minimum size', () => {
    expect(close(rectBetween({ x: 0.8, y: 0.9 }, { x: 0.2, y: 0.6 }))).toEqual({ x: 0.2, y: 0.6, w: 0.6, h: 0.3 });
    expect(close(rectBetween({ x: 0.99, y: 0.99 }, { x: 1.2, y: 1.2 }))).toEqual({ x: 0.96, y: 0.95, w: 0.04, h: 0.05 });
    expect(close(fitRect({ x: -0.1, y: 0.5, w: 2, h: 0.1 }))).toEqual({ x: 0, y: 0.5, w: 1, h: 0.1 });
  });

  it('moves with arrow keys and resizes with Shift and arrows', () => {
    const r = { x: 0.2, y: 0.2, w: 0.4, h: 0.4 };
    expect(close(rectAfterKey(r, 'ArrowRight', false)!)).toEqual({ x: 0.21, y: 0.2, w: 0.4, h: 0.4 });
    expect(close(rectAfterKey(r, 'ArrowUp', false)!)).toEqual({ x: 0.2, y: 0.19, w: 0.4, h: 0.4 });
    expect(close(rectAfterKey(r, 'ArrowLeft', true)!)).toEqual({ x: 0.2, y: 0.2, w: 0.39, h: 0.4 });
    expect(close(rectAfterKey(r, 'ArrowDown', true)!)).toEqual({ x: 0.2, y: 0.2, w: 0.4, h: 0.41 });
    expect(rectAfterKey(r, 'Enter', false)).toBeNull();
  });
});
