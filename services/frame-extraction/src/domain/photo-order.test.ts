import { describe, expect, it } from 'vitest';
import { compareNames, orderPhotos, photoFrameTimes, strictlyIncreasing, type PhotoEntry } from './photo-order.js';

const photo = (index: number, name: string, capturedAtMs: number | null): PhotoEntry => ({ index, name, capturedAtMs });

describe('orderPhotos', () => {
  it('orders names naturally and without regard to case', () => {
    expect(['img10.jpg', 'IMG2.jpg', 'img1.jpg'].sort(compareNames)).toEqual(['img1.jpg', 'IMG2.jpg', 'img10.jpg']);
  });

  it('orders by capture time, unknown times last, ties in upload order', () => {
    const photos = [photo(0, 'a', null), photo(1, 'b', 300), photo(2, 'c', 100), photo(3, 'd', 100)];
    expect(orderPhotos(photos, 'timestamp').map((p) => p.name)).toEqual(['c', 'd', 'b', 'a']);
  });
});

describe('frame times', () => {
  it('are ms since the first capture', () => {
    expect(photoFrameTimes([{ capturedAtMs: 5_000 }, { capturedAtMs: 65_000 }])).toEqual([0, 60_000]);
  });

  it('stay distinct and increasing when captures tie or go backwards', () => {
    expect(strictlyIncreasing([0, 0, 1000, 500, null])).toEqual([0, 1, 1000, 1001, 1002]);
  });
});
