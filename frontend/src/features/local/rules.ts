import { DEFAULT_LOCAL_SCAN_INTERVAL, LOCAL_MAX_FRAMES, LOCAL_SCAN_INTERVALS, creditCost, frameCount } from '@frametext/contracts/rules';
import { clockDecimals, formatClock } from '@frametext/text-analysis';
import { shortfallMessage } from '../../lib/credits/shortfall';
import type { ScannedFrame } from './engine/scan';

/** The Local page's numbers and rules (product spec sections 5 and 9). Pure, tested beside this file. */

export const SCAN_INTERVALS = LOCAL_SCAN_INTERVALS;
export const DEFAULT_SCAN_INTERVAL_INDEX = SCAN_INTERVALS.indexOf(DEFAULT_LOCAL_SCAN_INTERVAL);
/** Downscale choices: 80% to 100% in steps of 5; frames are read at full size unless the person lowers it. */
export const DOWNSCALE_MIN = 80;
export const DOWNSCALE_MAX = 100;
export const DOWNSCALE_STEP = 5;
/** The spec: the preview draws at most 800 word boxes. */
export const MAX_WORD_BOXES = 800;
export const TEXT_FILE_NAME = 'video-ocr.txt';

export const LARGE_FRAME_WARNING =
  "Whoa that's a lot of frames. For the sake of your computer, we suggest reducing your framerate or splitting the upload media into multiple parts.";
export const OCR_FAILED = 'OCR failed';

/** "every 5 s", "every 0.25 s", "every 2 min". */
export function intervalText(seconds: number): string {
  return seconds < 60 ? `every ${seconds} s` : `every ${seconds / 60} min`;
}

/** Frames of a video of `duration` s at one every `interval` s: the spec's ceil(duration / interval), 0 with no video. */
export function plannedFrames(duration: number | null, interval: number): number {
  if (duration === null || !Number.isFinite(duration) || duration <= 0) return 0;
  return frameCount(duration, interval);
}

/** The times the frames are cut at: 0, interval, 2 x interval, ... while before the end. */
export function frameTimes(duration: number, interval: number): number[] {
  const n = plannedFrames(duration, interval);
  // The last frame a browser can seek to sits just before the end.
  const last = Math.max(0, duration - 0.05);
  return Array.from({ length: n }, (_, k) => Math.min(Math.round(k * interval * 1000) / 1000, last));
}

/** Credits a run costs: ceil(frames x the local rate), the figure billing charges (the spec's ceil(duration / interval x rate)). */
export const requiredCredits = (frames: number) => (frames > 0 ? creditCost(frames, 'local') : 0);

export interface RunState {
  hasFile: boolean;
  frames: number;
  scanning: boolean;
  credits: number | null;
}

/** Why Run OCR is disabled, or null when it can run (the spec's five cases). */
export function runBlocker(s: RunState): string | null {
  if (!s.hasFile) return 'Choose a video first.';
  if (s.frames === 0) return 'This video has no frames to read.';
  if (s.frames > LOCAL_MAX_FRAMES) return LARGE_FRAME_WARNING;
  if (s.scanning) return 'Scanning…';
  const need = requiredCredits(s.frames);
  if (s.credits === null) return 'Checking your credits…';
  if (s.credits < need) return shortfallMessage(s.credits, need);
  return null;
}

/** Digits after the second's point that tell these frames' times apart (0 when a second or more apart). */
export const timeDecimals = (frames: readonly ScannedFrame[]) => clockDecimals(frames.map((f) => f.t));

/** A frame's own heading: its number and time, "Frame 2 (0:05)" ("Frame 2 (0:00.2)" when under a second apart). */
export const frameHeading = (frame: ScannedFrame, index: number, decimals: number) => `Frame ${index + 1} (${formatClock(frame.t, decimals)})`;

/** A frame's own text on one line, or why there is none. */
export function frameSummary(frame: ScannedFrame): string {
  if (frame.missed) return `Not read: ${frame.missed}`;
  return frame.text?.split('\n').map((line) => line.trim()).filter(Boolean).join(' · ') || 'No text found';
}

/** The text download: each frame's heading and text, frames with no text included so the times line up. */
export function framesText(frames: readonly ScannedFrame[]): string {
  const decimals = timeDecimals(frames);
  const body = (f: ScannedFrame) => (f.missed ? `(not read: ${f.missed})` : f.text?.trim() || '(no text found)');
  return frames.map((f, i) => `${frameHeading(f, i, decimals)}\n${body(f)}\n`).join('\n');
}

/** The percent shown while scanning: frames read out of all frames. */
export const progressPercent = (done: number, total: number) => (total > 0 ? Math.round((done / total) * 100) : 0);
