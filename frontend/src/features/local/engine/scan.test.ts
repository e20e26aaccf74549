import { describe, expect, it, vi } from 'vitest';
import type { OcrPool } from './ocrPool';
import { scanVideo } from './scan';

/** A paused video stuck at 0 s: every seek ends there, without a new frame to show. */
class StuckVideo extends EventTarget {
  readyState = 4;
  seeking = false;
  videoWidth = 1280;
  videoHeight = 720;
  pause = vi.fn();
  get currentTime() {
    return 0;
  }
  set currentTime(_t: number) {
    queueMicrotask(() => this.dispatchEvent(new Event('seeked')));
  }
}

describe('scanVideo', () => {
  it('keeps a frame the video cannot reach empty, with the reason, instead of reading the frame shown before', async () => {
    const video = new StuckVideo();
    const pool = { read: vi.fn(), close: vi.fn() } as unknown as OcrPool;
    const progress: number[] = [];

    const frames = await scanVideo({ video: video as unknown as HTMLVideoElement, times: [5, 10], scale: 1, pool, onProgress: (done) => progress.push(done) });

    expect(video.pause).toHaveBeenCalled();
    expect(frames).toEqual([
      { t: 5, text: '', words: [], missed: 'The frame at 0:05.000 could not be shown: the video stopped at 0:00.000.' },
      { t: 10, text: '', words: [], missed: 'The frame at 0:10.000 could not be shown: the video stopped at 0:00.000.' },
    ]);
    expect(pool.read).not.toHaveBeenCalled();
    expect(progress).toEqual([1, 2]);
  });
});
