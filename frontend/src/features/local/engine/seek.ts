import { formatClock } from '@frametext/text-analysis';

/*
 * Seeking a <video> to the frame at a time, and checking that it got there. A browser can fire `seeked` before the
 * new frame is decoded and shown (Chromium does under load), and drawing the video then draws the previous frame.
 * So a seek counts only when the video's time is the target and, where the browser reports frames
 * (requestVideoFrameCallback), a new frame was shown for this seek and it does not start after the target.
 */

/** The spec's timeout for a seek: 5 s, here for the seek and its new frame together. */
export const SEEK_TIMEOUT_MS = 5_000;
/** How far the video's time may be from the target: under one frame at 50 fps. */
export const SEEK_TOLERANCE_S = 0.02;
/** The times tried for one frame, after the target: a millisecond or two later, which makes the browser seek again. */
export const SEEK_NUDGES_S = [0, 0.001, 0.002] as const;

/** Where one seek landed. */
export interface SeekLanding {
  /** Whether `seeked` fired within the timeout. */
  seeked: boolean;
  /** The video's time once it stopped. */
  currentTime: number;
  /** Whether a new frame was shown for this seek; null when the browser does not report frames. */
  newFrame: boolean | null;
  /** The media time of the frame shown, when the browser reports it. */
  mediaTime: number | null;
}

/** The part of a <video> a seek uses: a real element, or a fake in tests. */
export interface SeekableVideo {
  currentTime: number;
  readonly seeking: boolean;
  readonly readyState: number;
  addEventListener(type: 'seeked', listener: () => void): void;
  removeEventListener(type: 'seeked', listener: () => void): void;
  requestVideoFrameCallback?(callback: VideoFrameRequestCallback): number;
  cancelVideoFrameCallback?(handle: number): void;
}

/** Why a landing is not the frame at `target`, or null when it is. */
export function landingProblem(target: number, landing: SeekLanding): string | null {
  if (!landing.seeked) return `seeking took longer than ${SEEK_TIMEOUT_MS / 1000} seconds`;
  if (Math.abs(landing.currentTime - target) > SEEK_TOLERANCE_S) return `the video stopped at ${formatClock(landing.currentTime, 3)}`;
  if (landing.newFrame === false) return 'the browser showed no new frame';
  // The frame at a time is the last one starting at or before it: one starting later is another frame.
  if (landing.mediaTime !== null && landing.mediaTime > target + SEEK_TOLERANCE_S) return `the browser showed the frame at ${formatClock(landing.mediaTime, 3)}`;
  return null;
}

/** Frames are reported only by browsers with requestVideoFrameCallback, and only while the page is shown. */
function reportsFrames(video: SeekableVideo): boolean {
  return typeof video.requestVideoFrameCallback === 'function' && (typeof document === 'undefined' || document.visibilityState !== 'hidden');
}

/**
 * Seeks once to `t` and waits for `seeked` and, where reported, the new frame; never rejects. A browser reports to
 * a first frame callback the frame it already showed, so only a frame presented after the seek started counts.
 */
export function seekOnce(video: SeekableVideo, t: number): Promise<SeekLanding> {
  const watchFrames = reportsFrames(video);
  return new Promise((resolve) => {
    const started = performance.now();
    let seeked = false;
    let mediaTime: number | null = null;
    let handle: number | null = null;
    const finish = () => {
      clearTimeout(timer);
      video.removeEventListener('seeked', onSeeked);
      if (handle !== null) video.cancelVideoFrameCallback?.(handle);
      resolve({ seeked, currentTime: video.currentTime, newFrame: watchFrames ? mediaTime !== null : null, mediaTime });
    };
    const onSeeked = () => {
      seeked = true;
      if (!watchFrames || mediaTime !== null) finish();
    };
    const onFrame: VideoFrameRequestCallback = (_now, frame) => {
      handle = null;
      if (frame.presentationTime < started) {
        handle = video.requestVideoFrameCallback!(onFrame);
        return;
      }
      mediaTime = frame.mediaTime;
      if (seeked) finish();
    };
    const timer = setTimeout(finish, SEEK_TIMEOUT_MS);
    if (watchFrames) handle = video.requestVideoFrameCallback!(onFrame);
    video.addEventListener('seeked', onSeeked);
    video.currentTime = t;
  });
}

/** HTMLMediaElement.HAVE_CURRENT_DATA: the frame at the current time is there. */
const HAVE_CURRENT_DATA = 2;

/** The video already shows `t`: nothing moved since it got there. */
function alreadyAt(video: SeekableVideo, t: number): boolean {
  return Math.abs(video.currentTime - t) < 1e-3 && !video.seeking && video.readyState >= HAVE_CURRENT_DATA;
}

/**
 * Moves the video to the frame at `t`: seeks, checks the landing, and tries again a millisecond or two later if it
 * missed. Resolves with null once there, or with why the frame could not be reached.
 */
export async function seekToFrame(video: SeekableVideo, t: number): Promise<string | null> {
  if (alreadyAt(video, t)) return null;
  let problem: string | null = null;
  for (const nudge of SEEK_NUDGES_S) {
    problem = landingProblem(t, await seekOnce(video, t + nudge));
    if (problem === null) return null;
  }
  return `The frame at ${formatClock(t, 3)} could not be shown: ${problem}.`;
}
