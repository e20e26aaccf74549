import { describe, expect, it } from 'vitest';
import { rectVertices } from './geometry.js';

describe('rectVertices', () => {
  it('gives the corners clockwise from the top-left, from a size or from the edges', () => {
    const corners = [
      { x: 10, y: 20 },
      { x: 40, y: 20 },
      { x: 40, y: 60 },
      { x: 10, y: 60 },
    ];
    expect(rectVertices({ x: 10, y: 20, w: 30, h: 40 })).toEqual(corners);
    expect(rectVertices({ left: 10, top: 20, right: 40, bottom: 60 })).toEqual(corners);
  });

  it('keeps edges as they are, with no sum that would add float noise', () => {
    expect(rectVertices({ left: 0.1, top: 0.1, right: 0.3, bottom: 0.3 })[2]).toEqual({ x: 0.3, y: 0.3 });
  });
});
