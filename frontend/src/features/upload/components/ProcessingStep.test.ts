import { describe, expect, it } from 'vitest';
import { progressDetail, queueNotice } from './ProcessingStep';

describe('queueNotice', () => {
  it('says how many uploads go first while none of the frames has been read', () => {
    expect(queueNotice(0, 1)).toBe('Waiting in the queue: 1 upload ahead');
    expect(queueNotice(0, 3)).toBe('Waiting in the queue: 3 uploads ahead');
  });

  it('says nothing once frames are being read, with nobody ahead, or from a server that does not tell', () => {
    expect(queueNotice(2, 3)).toBeNull();
    expect(queueNotice(0, 0)).toBeNull();
    expect(queueNotice(0, undefined)).toBeNull();
  });
});

describe('progressDetail', () => {
  it('counts the frames read before the video is cut to the end against the most it can have, then out of the total', () => {
    expect(progressDetail(0, null, 300)).toBe('Extracting frames…');
    expect(progressDetail(12, null, 300)).toBe('12 of up to 300 frames');
    expect(progressDetail(12, 60, 300)).toBe('12 of 60 frames');
    // Without a quote (an answer that did not carry one).
    expect(progressDetail(1, null, undefined)).toBe('1 frame read, more still being extracted…');
    expect(progressDetail(12, null, undefined)).toBe('12 frames read, more still being extracted…');
  });
});
