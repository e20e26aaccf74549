import { describe, expect, it } from 'vitest';
import { chooseSamplingMethod, sampleTimestampsMs } from './sampling.js';

describe('sampleTimestampsMs', () => {
  it('takes ceil(duration / interval) frames from 0', () => {
    expect(sampleTimestampsMs(20, 5, 360)).toEqual([0, 5000, 10000, 15000]);
    expect(sampleTimestampsMs(21, 5, 360)).toEqual([0, 5000, 10000, 15000, 20000]);
    expect(sampleTimestampsMs(1.2, 0.25, 360)).toEqual([0, 250, 500, 750, 1000]);
  });

  it('takes one frame of a video shorter than the interval', () => {
    expect(sampleTimestampsMs(3, 15, 360)).toEqual([0]);
  });

  it('never takes more than maxFrames', () => {
    expect(sampleTimestampsMs(600, 1, 3)).toEqual([0, 1000, 2000]);
  });
});

describe('chooseSamplingMethod', () => {
  it('decodes in one pass with the fps filter when frames are dense', () => {
    expect(chooseSamplingMethod(60, 1, 10)).toBe('fps-filter');
    expect(chooseSamplingMethod(12, 5, 10)).toBe('fps-filter');
  });

  it('seeks when frames are at least the threshold apart, or there is only one', () => {
    expect(chooseSamplingMethod(6, 10, 10)).toBe('seek');
    expect(chooseSamplingMethod(4, 900, 10)).toBe('seek');
    expect(chooseSamplingMethod(1, 1, 10)).toBe('seek');
  });
});
