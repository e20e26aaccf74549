import { describe, expect, it } from 'vitest';
import { clockDecimals, formatClock, frameTimeFromUrl } from './time.js';

describe('time', () => {
  it('shows m:ss, and h:mm:ss from an hour on', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(5)).toBe('0:05');
    expect(formatClock(65.4)).toBe('1:05');
    expect(formatClock(3600 + 62)).toBe('1:01:02');
    expect(formatClock(null)).toBe('0:00');
    expect(formatClock(-3)).toBe('0:00');
  });

  it('shows parts of a second when asked', () => {
    expect(formatClock(5.5, 1)).toBe('0:05.5');
    expect(formatClock(5, 1)).toBe('0:05.0');
    expect(formatClock(59.96, 1)).toBe('1:00.0');
    expect(formatClock(3600 + 62.25, 2)).toBe('1:01:02.25');
    expect(formatClock(0.04, 2)).toBe('0:00.04');
  });

  it('asks for parts of a second only when two frames are under a second apart', () => {
    expect(clockDecimals([0, 1, 2, 5])).toBe(0);
    expect(clockDecimals([0, 0.5, 1, 1.5])).toBe(1);
    expect(clockDecimals([0, 0.2, 0.4])).toBe(1);
    expect(clockDecimals([0, 0.04, 0.08])).toBe(2);
    expect(clockDecimals([0, 0.001, 0.0005])).toBe(3);
    // Order, repeats and unknown times do not matter.
    expect(clockDecimals([3, null, 2.5, 3, 0])).toBe(1);
    expect(clockDecimals([null, null])).toBe(0);
    expect(clockDecimals([])).toBe(0);
  });

  it('reads the millisecond timestamp at the start of a frame file name', () => {
    expect(frameTimeFromUrl('http://x/files/u/frames/15000.jpg?sig=1')).toBe(15);
    expect(frameTimeFromUrl('/files/u/frames/000250-a.png')).toBe(0.25);
    expect(frameTimeFromUrl('/files/u/frames/frame.png')).toBeNull();
  });
});
