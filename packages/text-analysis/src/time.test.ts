import { describe, expect, it } from 'vitest';
import { formatClock, frameTimeFromUrl } from './time.js';

describe('time', () => {
  it('shows m:ss, and h:mm:ss from an hour on', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(5)).toBe('0:05');
    expect(formatClock(65.4)).toBe('1:05');
    expect(formatClock(3600 + 62)).toBe('1:01:02');
    expect(formatClock(null)).toBe('0:00');
    expect(formatClock(-3)).toBe('0:00');
  });

  it('reads the millisecond timestamp at the start of a frame file name', () => {
    expect(frameTimeFromUrl('http://x/files/u/frames/15000.jpg?sig=1')).toBe(15);
    expect(frameTimeFromUrl('/files/u/frames/000250-a.png')).toBe(0.25);
    expect(frameTimeFromUrl('/files/u/frames/frame.png')).toBeNull();
  });
});
