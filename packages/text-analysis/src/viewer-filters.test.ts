import { describe, expect, it } from 'vitest';
import { rectVertices, type TextBlock } from './geometry.js';
import { blockLimits, filterBlocks, openFilters } from './viewer-filters.js';

const block = (text: string, w: number, h: number, confidence?: number): TextBlock => ({
  text,
  vertices: rectVertices({ x: 0, y: 0, w, h }),
  ...(confidence === undefined ? {} : { confidence }),
});

describe('viewer filters', () => {
  const frames = [[block('short', 10, 10, 90)], [block('a longer line', 100, 20, 0.6), block('x', 5, 5)]];

  it('finds the largest length and area, and starts with filters that let everything through', () => {
    const limits = blockLimits(frames);
    expect(limits).toEqual({ maxLength: 13, maxArea: 2000 });
    expect(filterBlocks(frames.flat(), openFilters(limits))).toHaveLength(3);
  });

  it('drops blocks under the confidence, reading fractions as percents, and keeps blocks without one', () => {
    const filters = { ...openFilters(blockLimits(frames)), minConfidence: 70 };
    expect(filterBlocks(frames.flat(), filters).map((b) => b.text)).toEqual(['short', 'x']);
  });

  it('keeps only lengths and areas inside their ranges, ends included', () => {
    const base = openFilters(blockLimits(frames));
    expect(filterBlocks(frames.flat(), { ...base, length: { min: 2, max: 5 } }).map((b) => b.text)).toEqual(['short']);
    expect(filterBlocks(frames.flat(), { ...base, area: { min: 25, max: 100 } }).map((b) => b.text)).toEqual(['short', 'x']);
  });
});
