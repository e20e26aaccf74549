import { describe, expect, it } from 'vitest';
import { landingProblem, seekToFrame, type SeekableVideo } from './seek';

interface Landing {
  /** Where the video's time stops. */
  currentTime: number;
  /** The media time of the frame it shows then; null: no new frame is shown. */
  mediaTime: number | null;
}

/**
 * A paused <video> that lands where `land` says. Like a browser under load, it fires `seeked` first and shows the new
 * frame (running the frame callbacks) just after. With `leftoverFrame`, its first frame callback reports the frame
 * shown before any seek, as a browser does.
 */
class FakeVideo extends EventTarget implements SeekableVideo {
  seeking = false;
  readyState = 4;
  readonly seeks: number[] = [];
  /** The media time of the frame on show: what drawing the video would draw. */
  shown: number;
  private time = 0;
  private callbacks = new Map<number, VideoFrameRequestCallback>();
  private nextHandle = 1;

  constructor(
    private readonly land: (target: number, attempt: number) => Landing,
    private leftoverFrame: number | null = null,
  ) {
    super();
    this.shown = leftoverFrame ?? 0;
  }

  get currentTime() {
    return this.time;
  }

  set currentTime(target: number) {
    this.seeks.push(target);
    this.seeking = true;
    const landing = this.land(target, this.seeks.length - 1);
    queueMicrotask(() => {
      this.time = landing.currentTime;
      this.seeking = false;
      this.dispatchEvent(new Event('seeked'));
      if (landing.mediaTime !== null) queueMicrotask(() => this.showFrame(landing.mediaTime!, performance.now()));
    });
  }

  requestVideoFrameCallback(callback: VideoFrameRequestCallback): number {
    const handle = this.nextHandle++;
    this.callbacks.set(handle, callback);
    if (this.leftoverFrame !== null) {
      const mediaTime = this.leftoverFrame;
      this.leftoverFrame = null;
      queueMicrotask(() => this.showFrame(mediaTime, -1));
    }
    return handle;
  }

  cancelVideoFrameCallback(handle: number): void {
    this.callbacks.delete(handle);
  }

  private showFrame(mediaTime: number, presentationTime: number) {
    this.shown = mediaTime;
    const due = [...this.callbacks.values()];
    this.callbacks.clear();
    const metadata = { mediaTime, presentationTime, expectedDisplayTime: presentationTime, width: 1280, height: 720, presentedFrames: 1 };
    for (const callback of due) callback(performance.now(), metadata);
  }
}

const atTarget = (target: number): Landing => ({ currentTime: target, mediaTime: target });

describe('landingProblem', () => {
  const landed = { seeked: true, currentTime: 95, newFrame: true, mediaTime: 95 };

  it('accepts the target time with a new frame that starts at or a little before it', () => {
    expect(landingProblem(95, landed)).toBeNull();
    expect(landingProblem(95, { ...landed, mediaTime: 94.98 })).toBeNull();
    expect(landingProblem(95, { ...landed, newFrame: null, mediaTime: null })).toBeNull();
  });

  it('refuses a seek that stopped elsewhere, showed no new frame, showed a later frame, or never ended', () => {
    expect(landingProblem(95, { ...landed, currentTime: 90 })).toBe('the video stopped at 1:30.000');
    expect(landingProblem(95, { ...landed, newFrame: false, mediaTime: null })).toBe('the browser showed no new frame');
    expect(landingProblem(95, { ...landed, mediaTime: 96 })).toBe('the browser showed the frame at 1:36.000');
    expect(landingProblem(95, { ...landed, seeked: false })).toBe('seeking took longer than 5 seconds');
  });
});

describe('seekToFrame', () => {
  it('tries again a little later when the first seek stops on the previous frame, and lands on the target', async () => {
    const video = new FakeVideo((target, attempt) => (attempt === 0 ? { currentTime: 90, mediaTime: 90 } : atTarget(target)));

    expect(await seekToFrame(video, 95)).toBeNull();
    expect(video.seeks).toEqual([95, 95.001]);
    expect(video.shown).toBe(95.001);
  });

  it('resolves once the frame the seek brought is shown, not on the report of the frame shown before', async () => {
    const video = new FakeVideo(atTarget, 0);

    expect(await seekToFrame(video, 5)).toBeNull();
    expect(video.seeks).toEqual([5]);
    expect(video.shown).toBe(5);
  });

  it('says which frame could not be reached after three tries, rather than keeping the frame shown before', async () => {
    const video = new FakeVideo(() => ({ currentTime: 90, mediaTime: 90 }));

    expect(await seekToFrame(video, 95)).toBe('The frame at 1:35.000 could not be shown: the video stopped at 1:30.000.');
    expect(video.seeks).toEqual([95, 95.001, 95.002]);
  });

  it('relies on the video time alone where the browser reports no frames', async () => {
    const video = new FakeVideo((target, attempt) => (attempt === 0 ? { currentTime: 0, mediaTime: null } : atTarget(target)));
    Object.assign(video, { requestVideoFrameCallback: undefined });

    expect(await seekToFrame(video, 5)).toBeNull();
    expect(video.seeks).toEqual([5, 5.001]);
  });
});
