import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SCROLL_SETTINGS, lockTemplate, rectVertices } from '@frametext/text-analysis';
import type { Detection } from '@frametext/contracts';
import type { ResultsFrame } from '../../model';
import { useScrollDetection } from './useScrollDetection';

const SPACE = { width: 1280, height: 2000 };
const quad = (x: number, y: number, w: number, h: number) => rectVertices({ x, y, w, h });

/** A tall frame of a list scrolled by `index` x 37 px: 40 items, each a title of four words and a price. */
function frame(index: number): ResultsFrame {
  const detections: Detection[] = [];
  for (let n = 0; n < 40; n++) {
    const top = n * 50 - ((index * 37) % 50);
    if (top < 0 || top + 45 > SPACE.height) continue;
    const words = ['Item', String(n + index), 'Blue', 'Kettle'].map((text, i) => ({ text, vertices: quad(40 + i * 80, top + 5, 70, 18) }));
    detections.push({ text: words.map((w) => w.text).join(' '), vertices: quad(40, top + 5, 310, 18), area: 5580, blockType: 'LINE', words });
    detections.push({ text: `$ ${n}.99`, vertices: quad(1100, top + 26, 90, 18), area: 1620, blockType: 'LINE' });
  }
  return { index, imageUrl: null, t: index, text: '', detections, lines: [], space: SPACE };
}

afterEach(() => vi.restoreAllMocks());

describe('useScrollDetection', () => {
  it('scans 360 frames in short slices with a task break between them, reporting progress', async () => {
    const frames = Array.from({ length: 360 }, (_, i) => frame(i));
    const locked = lockTemplate(frames[0]!, { x: 0.02, y: 0, w: 0.96, h: 50 / SPACE.height }, SPACE)!;
    expect(locked.template.lines).toHaveLength(2);

    // Time every task the hook schedules.
    const slices: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) =>
      realSetTimeout(() => {
        const started = performance.now();
        fn();
        slices.push(performance.now() - started);
      }, ms)) as typeof setTimeout);

    const { result } = renderHook(() => useScrollDetection());
    const progress: number[] = [];
    let run: Promise<void> | undefined;
    act(() => {
      run = result.current.start(frames, locked, DEFAULT_SCROLL_SETTINGS);
    });
    await waitFor(
      () => {
        const s = result.current.state;
        if (s.status === 'running') progress.push(s.done);
        expect(s.status).toBe('done');
      },
      { timeout: 20_000, interval: 5 },
    );
    await act(async () => run);
    const state = result.current.state;
    if (state.status !== 'done') throw new Error('not done');
    expect(state.framesScanned).toBe(360);
    // Every frame shows about 39 whole items.
    expect(state.matches.length).toBeGreaterThan(360 * 35);
    expect(new Set(progress.filter((d) => d > 0 && d < 360)).size).toBeGreaterThan(0);
    // A slice overruns its 12 ms budget by at most one frame's work: nowhere near the 200 ms a task may take.
    expect(slices.length).toBeGreaterThan(1);
    expect(Math.max(...slices)).toBeLessThan(100);
  });
});
