import { describe, expect, it } from 'vitest';
import {
  CREDIT_PACKS,
  FRAME_INTERVALS,
  affordableFrames,
  creditCost,
  fileExtension,
  frameCount,
  frameTimestampKey,
  isImageFileName,
  isVideoFileName,
  timestampFromFrameName,
} from './common.js';

describe('frameCount', () => {
  it('is the ceiling of duration over interval', () => {
    expect(frameCount(60, 15)).toBe(4);
    expect(frameCount(61, 15)).toBe(5);
    expect(frameCount(3599.5, 10)).toBe(360);
  });

  it('is at least 1, even for a zero-length video', () => {
    expect(frameCount(0, 15)).toBe(1);
    expect(frameCount(2, 3600)).toBe(1);
  });

  it('does not add a frame for float noise (1.1 s at 0.1 s is 11 frames, not 12)', () => {
    expect(frameCount(1.1, 0.1)).toBe(11);
    expect(frameCount(0.3, 0.1)).toBe(3);
    expect(frameCount(0.75, 0.25)).toBe(3);
  });

  it('refuses a negative duration or a zero interval', () => {
    expect(() => frameCount(-1, 15)).toThrow(RangeError);
    expect(() => frameCount(10, 0)).toThrow(RangeError);
    expect(() => frameCount(Number.NaN, 15)).toThrow(RangeError);
  });
});

describe('creditCost', () => {
  it('charges 1 credit per frame on cloud', () => {
    expect(creditCost(360, 'cloud')).toBe(360);
  });

  it('charges 10 frames per credit on server, rounded up', () => {
    expect(creditCost(10, 'server')).toBe(1);
    expect(creditCost(11, 'server')).toBe(2);
    expect(creditCost(30, 'server')).toBe(3); // 30 x 0.1 is 3.0000000000000004 in floats
    expect(creditCost(1, 'server')).toBe(1);
  });

  it('charges 20 frames per credit on local, rounded up', () => {
    expect(creditCost(200, 'local')).toBe(10);
    expect(creditCost(21, 'local')).toBe(2);
  });

  it('costs nothing for no frames and refuses fractional frames', () => {
    expect(creditCost(0, 'cloud')).toBe(0);
    expect(() => creditCost(1.5, 'cloud')).toThrow(RangeError);
  });
});

describe('affordableFrames', () => {
  it('says how many frames a balance pays for', () => {
    expect(affordableFrames(3, 'cloud')).toBe(3);
    expect(affordableFrames(3, 'server')).toBe(30);
    expect(affordableFrames(3, 'local')).toBe(60);
    expect(affordableFrames(0, 'cloud')).toBe(0);
  });
});

describe('spec numbers', () => {
  it('sells 100 for $1, 500 for $5 and 2500 for $20', () => {
    expect(CREDIT_PACKS.map((p) => [p.credits, p.priceCents])).toEqual([[100, 100], [500, 500], [2500, 2000]]);
  });

  it('offers intervals from 0.1 s to an hour, default 15 among them', () => {
    expect(FRAME_INTERVALS[0]).toBe(0.1);
    expect(FRAME_INTERVALS.at(-1)).toBe(3600);
    expect(FRAME_INTERVALS).toContain(15);
  });
});

describe('file names', () => {
  it('accepts mp4/mov videos and png/jpg/jpeg images whatever the case', () => {
    expect(fileExtension('Talk.Final.MOV')).toBe('mov');
    expect(isVideoFileName('a.MP4')).toBe(true);
    expect(isVideoFileName('a.avi')).toBe(false);
    expect(isImageFileName('IMG_1.JPEG')).toBe(true);
    expect(isImageFileName('scan.gif')).toBe(false);
    expect(isImageFileName('noextension')).toBe(false);
  });

  it('puts the millisecond timestamp at the start of frame names, so they sort by time', () => {
    expect(frameTimestampKey(15000)).toBe('0000015000');
    expect(frameTimestampKey(9000) < frameTimestampKey(15000)).toBe(true);
    expect(timestampFromFrameName('uploads/u1/frames/0000015000.jpg')).toBe(15000);
    expect(timestampFromFrameName('thumb.jpg')).toBeNull();
  });
});
