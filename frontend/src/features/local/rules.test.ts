import { describe, expect, it } from 'vitest';
import { DEFAULT_SCAN_INTERVAL_INDEX, LARGE_FRAME_WARNING, SCAN_INTERVALS, frameHeading, frameSummary, frameTimes, framesText, intervalText, plannedFrames, progressPercent, requiredCredits, runBlocker } from './rules';

describe('local rules', () => {
  it('offers the spec intervals with 5 s by default', () => {
    expect(SCAN_INTERVALS).toEqual([0.1, 0.2, 0.25, 0.5, 1, 2, 3, 5, 10, 30, 60, 120, 240, 360]);
    expect(SCAN_INTERVALS[DEFAULT_SCAN_INTERVAL_INDEX]).toBe(5);
    expect(intervalText(0.25)).toBe('every 0.25 s');
    expect(intervalText(120)).toBe('every 2 min');
  });

  it('plans ceil(duration / interval) frames, at 0, interval, ... before the end', () => {
    expect(plannedFrames(null, 5)).toBe(0);
    expect(plannedFrames(12, 5)).toBe(3);
    expect(frameTimes(12, 5)).toEqual([0, 5, 10]);
    expect(frameTimes(4, 1)).toEqual([0, 1, 2, 3]);
    expect(frameTimes(0.5, 1)).toEqual([0]);
    expect(frameTimes(1, 0.1)).toHaveLength(10);
  });

  it('costs ceil(frames x 0.05) credits', () => {
    expect(requiredCredits(0)).toBe(0);
    expect(requiredCredits(1)).toBe(1);
    expect(requiredCredits(20)).toBe(1);
    expect(requiredCredits(21)).toBe(2);
    expect(requiredCredits(200)).toBe(10);
  });

  it('disables Run OCR with no file, no frames, over 200 frames, while scanning, or with too few credits', () => {
    const ok = { hasFile: true, frames: 40, scanning: false, credits: 2 };
    expect(runBlocker(ok)).toBeNull();
    expect(runBlocker({ ...ok, hasFile: false })).toBe('Choose a video first.');
    expect(runBlocker({ ...ok, frames: 0 })).toMatch(/no frames/);
    expect(runBlocker({ ...ok, frames: 201 })).toBe(LARGE_FRAME_WARNING);
    expect(runBlocker({ ...ok, frames: 200, credits: 10 })).toBeNull();
    expect(runBlocker({ ...ok, scanning: true })).toBe('Scanning…');
    expect(runBlocker({ ...ok, credits: 1 })).toBe('You have 1 credits but this operation requires 2.');
    expect(LARGE_FRAME_WARNING).toContain('For the sake of your computer');
  });

  it('writes the text file frame by frame, and counts progress in percent', () => {
    expect(framesText([{ t: 0, text: 'Battery\n45%' }, { t: 65, text: '' }])).toBe('Frame 1 (0:00)\nBattery\n45%\n\nFrame 2 (1:05)\n(no text found)\n');
    // Under a second apart, times show tenths; a frame the video could not reach says so.
    const missed = 'The frame at 0:00.500 could not be shown: the video stopped at 0:00.000.';
    expect(framesText([{ t: 0, text: 'A' }, { t: 0.5, text: '', missed }])).toBe(`Frame 1 (0:00.0)\nA\n\nFrame 2 (0:00.5)\n(not read: ${missed})\n`);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(0, 0)).toBe(0);
  });

  it('gives each frame its own heading and its whole text on one line', () => {
    expect(frameHeading({ t: 95 }, 19, 0)).toBe('Frame 20 (1:35)');
    expect(frameHeading({ t: 0.25 }, 1, 2)).toBe('Frame 2 (0:00.25)');
    expect(frameSummary({ t: 0, text: 'DC FAST CHARGER\nBattery 45%\n\n 00:05 ' })).toBe('DC FAST CHARGER · Battery 45% · 00:05');
    expect(frameSummary({ t: 0, text: '' })).toBe('No text found');
    expect(frameSummary({ t: 5, text: '', missed: 'The frame at 0:05.000 could not be shown.' })).toBe('Not read: The frame at 0:05.000 could not be shown.');
  });
});
