import { describe, expect, it } from 'vitest';
import { boxCues, fileSafeName, hasAnyLine, subtitleFileName } from './regionReading';

describe('region reading', () => {
  it('names subtitle files after the upload and the box, without characters a file name cannot hold', () => {
    expect(subtitleFileName('Talk: part 1/2', 'Green', 'srt')).toBe('Talk- part 1-2-green.srt');
    expect(subtitleFileName('lecture', 'Yellow', 'vtt')).toBe('lecture-yellow.vtt');
    expect(fileSafeName('  ???  ')).toBe('-');
    expect(fileSafeName('   ')).toBe('captions');
  });

  it('makes the cues of one box, taking photos without times one second apart', () => {
    const readings = [
      { number: 1, t: null, boxes: [['Hello'], ['x']] },
      { number: 2, t: null, boxes: [['Hello'], []] },
      { number: 3, t: null, boxes: [['Bye'], []] },
    ];
    expect(boxCues(readings, 0)).toEqual([
      { start: 0, end: 2, text: 'Hello' },
      { start: 2, end: 3, text: 'Bye' },
    ]);
    expect(boxCues(readings, 1)).toEqual([{ start: 0, end: 1, text: 'x' }]);
    expect(hasAnyLine(readings)).toBe(true);
    expect(hasAnyLine([{ number: 1, t: 0, boxes: [[]] }])).toBe(false);
  });
});
