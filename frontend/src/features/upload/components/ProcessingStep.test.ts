import { describe, expect, it } from 'vitest';
import { progressOf, queueNotice } from './ProcessingStep';

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

describe('progressOf', () => {
  it('counts the frames read before the video is cut to the end out of the most it can have, then out of the total', () => {
    expect(progressOf(0, null, 300)).toEqual({ detail: 'Extracting frames…' });
    expect(progressOf(12, null, 300)).toEqual({ outOf: 300, detail: '12 of up to 300 frames' });
    expect(progressOf(12, 60, 300)).toEqual({ outOf: 60, detail: '12 of 60 frames' });
    // Without a quote (an answer that did not carry one): no amount to fill the bar against.
    expect(progressOf(1, null, undefined)).toEqual({ detail: '1 frame read, more still being extracted…' });
    expect(progressOf(12, null, undefined)).toEqual({ detail: '12 frames read, more still being extracted…' });
  });
});
