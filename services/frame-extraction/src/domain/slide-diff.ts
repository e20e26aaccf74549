import { SLIDE_CHANGED_PIXEL_RATIO, SLIDE_PIXEL_DIFF_RATIO } from '@frametext/contracts';

/** A pixel has changed when its brightness moved by more than this (1% of 255). */
export const PIXEL_DIFF_THRESHOLD = SLIDE_PIXEL_DIFF_RATIO * 255;

/** Share of pixels (0..1) whose greyscale value differs by more than `threshold` between two same-sized samples. */
export function changedPixelRatio(a: Uint8Array, b: Uint8Array, threshold = PIXEL_DIFF_THRESHOLD): number {
  if (a.length !== b.length) throw new RangeError(`samples differ in size (${a.length} and ${b.length} pixels)`);
  if (a.length === 0) return 0;
  let changed = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > threshold) changed++;
  return changed / a.length;
}

/**
 * Tells slides apart in a run of greyscale samples: the first sample is a slide, and every later one is a new
 * slide when more than 1% of its pixels changed noticeably since the previous sample.
 */
export class SlideDetector {
  private previous: Uint8Array | undefined;

  constructor(private readonly changedRatio = SLIDE_CHANGED_PIXEL_RATIO) {}

  isNewSlide(sample: Uint8Array): boolean {
    const previous = this.previous;
    this.previous = sample;
    if (!previous || previous.length !== sample.length) return true;
    return changedPixelRatio(previous, sample) > this.changedRatio;
  }
}
