import { describe, expect, it } from 'vitest';
import { captionCues, frameInterval, srtTime, toSrt, toVtt, vttTime } from './subtitles.js';

describe('subtitles', () => {
  it('writes SRT and WebVTT times with their own separators', () => {
    expect(srtTime(0)).toBe('00:00:00,000');
    expect(srtTime(3723.4567)).toBe('01:02:03,457');
    expect(vttTime(61.5)).toBe('00:01:01.500');
  });

  it('finds the usual gap between frames', () => {
    expect(frameInterval([0, 2, 4, 6, 20])).toBe(2);
    expect(frameInterval([0, 1, 3])).toBe(1.5);
    expect(frameInterval([5])).toBe(1);
    expect(frameInterval([], 0.5)).toBe(0.5);
  });

  it('merges identical consecutive captions into one cue lasting until the next different frame', () => {
    const frames = [
      { t: 0, text: 'Hello there' },
      { t: 1, text: 'Hello  there ' },
      { t: 2, text: '' },
      { t: 3, text: 'Second line\nwith two rows' },
      { t: 4, text: 'Second line\nwith two rows' },
      { t: 5, text: 'Last' },
    ];
    expect(captionCues(frames, 1)).toEqual([
      { start: 0, end: 2, text: 'Hello there' },
      { start: 3, end: 5, text: 'Second line\nwith two rows' },
      { start: 5, end: 6, text: 'Last' },
    ]);
  });

  it('ends the last cue one interval after the last frame, and a blank list gives no cues', () => {
    expect(captionCues([{ t: 10, text: 'A' }, { t: 12, text: 'A' }], 2)).toEqual([{ start: 10, end: 14, text: 'A' }]);
    expect(captionCues([{ t: 0, text: ' ' }], 1)).toEqual([]);
    expect(captionCues([], 1)).toEqual([]);
  });

  it('writes a numbered SRT file', () => {
    const srt = toSrt([
      { start: 0, end: 2, text: 'Hello there' },
      { start: 3, end: 5.25, text: 'Two\nrows' },
    ]);
    expect(srt).toBe('1\n00:00:00,000 --> 00:00:02,000\nHello there\n\n2\n00:00:03,000 --> 00:00:05,250\nTwo\nrows\n');
  });

  it('writes a WebVTT file with its header, escaping markup characters', () => {
    expect(toVtt([{ start: 1, end: 2, text: 'Tom & Jerry <3 --> fun' }])).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nTom &amp; Jerry &lt;3 -&gt; fun\n');
    expect(toVtt([])).toBe('WEBVTT\n');
  });
});
