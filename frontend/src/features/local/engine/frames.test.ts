import { describe, expect, it } from 'vitest';
import { toPgms } from './frames';

/** RGBA pixels of a width x height frame, white where `isWhite(x, y)`, dark grey elsewhere. */
function frame(width: number, height: number, isWhite: (x: number, y: number) => boolean): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rgba.set(isWhite(x, y) ? [255, 255, 255, 255] : [40, 40, 40, 255], (y * width + x) * 4);
  return rgba;
}
const body = (pgm: Uint8Array, width: number, height: number) => [...pgm.slice(pgm.length - width * height)];

describe('toPgms', () => {
  it('gives the grey frame and a white mask as PGM, with the share of near-white pixels', () => {
    // A 3x3 white square in a 6x5 frame, and one stray white pixel far from it.
    const rgba = frame(6, 5, (x, y) => (x >= 1 && x <= 3 && y >= 1 && y <= 3) || (x === 5 && y === 0));
    const { grey, mask, whiteShare } = toPgms(rgba, 6, 5);
    expect(new TextDecoder().decode(grey.slice(0, 11))).toBe('P5\n6 5\n255\n');
    expect(body(grey, 6, 5)[0]).toBe(40);
    expect(body(grey, 6, 5)[7]).toBe(255);
    expect(whiteShare).toBeCloseTo(10 / 30);
    // The median keeps the square's core and removes the stray pixel: black (0) is near-white in the mask.
    const m = body(mask, 6, 5);
    expect(m[2 * 6 + 2]).toBe(0);
    expect(m[5]).toBe(255);
  });
});
