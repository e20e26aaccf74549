import { describe, expect, it } from 'vitest';
import { FrameMemories, patchPixels, readingAreas, type Reading } from '../src/domain/frame-memory.js';

const cell = (left: number, top: number) => ({ left, top, width: 16, height: 16 });

describe('readingAreas', () => {
  it('reads changes far apart in separate rectangles, each with a margin, and neighbouring cells together', () => {
    const areas = readingAreas([cell(400, 96), cell(416, 96), cell(400, 512)], [], 1280, 720);
    expect(areas).toEqual([
      { left: 368, top: 64, width: 96, height: 80 },
      { left: 368, top: 480, width: 80, height: 80 },
    ]);
  });

  it('grows a rectangle to hold whole a remembered run of words it touches, and joins rectangles that then meet', () => {
    const value = { left: 420, top: 100, width: 300, height: 80 };
    const areas = readingAreas([cell(432, 112), cell(688, 160)], [value], 1280, 720);
    expect(areas).toHaveLength(1);
    expect(areas[0]).toEqual({ left: 400, top: 80, width: 336, height: 128 });
  });

  it('keeps every rectangle inside the frame', () => {
    const [area] = readingAreas([cell(0, 0)], [], 64, 64);
    expect(area).toEqual({ left: 0, top: 0, width: 48, height: 48 });
  });
});

describe('patchPixels', () => {
  it('takes the new frame\'s pixels inside the rectangles read again and keeps the remembered ones elsewhere', () => {
    const previous = Buffer.alloc(4 * 3, 1);
    const next = Buffer.alloc(4 * 3, 9);
    const patched = patchPixels(previous, next, 4, [{ left: 1, top: 1, width: 2, height: 2 }]);
    expect([...patched]).toEqual([1, 1, 1, 1, 1, 9, 9, 1, 1, 9, 9, 1]);
    expect([...previous]).toEqual(Array(12).fill(1));
  });
});

describe('FrameMemories', () => {
  const reading = (text: string): Reading<string> => ({ width: 1, height: 1, pixels: Buffer.alloc(1), candidates: [text] });
  /** Whether the promise settles within a few ticks of the event loop. */
  const settles = (p: Promise<unknown>) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20))]);

  it('has the frame that arrived first read the upload first, even when a later frame is ready before it', async () => {
    const memories = new FrameMemories<string>();
    const first = memories.of('upload');
    const second = memories.of('upload');
    // The second frame was decoded sooner and asks first: it waits for the first frame's readings.
    const waiting = second.previous();
    expect(await settles(waiting)).toBe(false);
    expect(await first.previous()).toBeUndefined();
    first.remember('bare', reading('Voltage 230 V'));
    first.settle();
    expect((await waiting)?.bare?.candidates).toEqual(['Voltage 230 V']);
    // Frames arriving later carry over from it at once.
    expect((await memories.of('upload').previous())?.bare?.candidates).toEqual(['Voltage 230 V']);
  });

  it('lets the waiting frames go on when the first fails without reading, and the next to ask reads first', async () => {
    const memories = new FrameMemories<string>();
    const first = memories.of('upload');
    const second = memories.of('upload');
    const waiting = second.previous();
    first.settle();
    first.settle();
    expect(await waiting).toBeUndefined();
    const third = memories.of('upload');
    expect(await third.previous()).toBeUndefined();
    const fourth = memories.of('upload').previous();
    expect(await settles(fourth)).toBe(false);
    third.remember('bare', reading('Power 150 kW'));
    third.settle();
    expect((await fourth)?.bare?.candidates).toEqual(['Power 150 kW']);
  });

  it('keeps uploads apart', async () => {
    const memories = new FrameMemories<string>();
    memories.of('a');
    expect(await settles(memories.of('b').previous())).toBe(true);
  });
});
