import { describe, expect, it } from 'vitest';
import { boxCues, hasAnyLine, subtitleFileName } from '@frametext/text-analysis';

describe('region reading', () => {
  it('names subtitle files after the upload and the box, without characters a file name cannot hold', () => {
    expect(subtitleFileName('Talk: part 1/2', 'Green', 'srt')).toBe('Talk- part 1-2-green.srt');
    expect(subtitleFileName('lecture', 'Yellow', 'vtt')).toBe('lecture-yellow.vtt');
    expect(subtitleFileName('  ???  ', 'Green', 'srt')).toBe('--green.srt');
    expect(subtitleFileName('   ', 'Green', 'srt')).toBe('upload-green.srt');
  });

  it('makes the cues of each box, taking photos without times one second apart', () => {
    const block = (text: string, y: number, confidence = 95) => ({ text, vertices: [{ x: 100, y }, { x: 300, y }, { x: 300, y: y + 30 }, { x: 100, y: y + 30 }], area: 6000, blockType: 'LINE', confidence });
    const frame = (index: number, detections: ReturnType<typeof block>[]) => ({ index, imageUrl: null, t: null, text: '', detections, lines: [], space: { width: 400, height: 400 } });
    const frames = [frame(0, [block('Hello', 50), block('Top', 250)]), frame(1, [block('Hello', 50)]), frame(2, [block('Bye now', 50)])];
    const boxes = [
      { x: 0, y: 0, w: 1, h: 0.5 },
      { x: 0, y: 0.5, w: 1, h: 0.5 },
    ];
    const filters = { minConfidence: 50, length: { min: 0, max: 100 }, area: { min: 0, max: 1e6 } };
    expect(boxCues(frames, (i) => frames[i]!.space, boxes, filters)).toEqual([
      [
        { start: 0, end: 2, text: 'Hello' },
        { start: 2, end: 3, text: 'Bye now' },
      ],
      [{ start: 0, end: 1, text: 'Top' }],
    ]);
    const readings = [{ number: 1, t: 0, boxes: [['Hello'], []] }];
    expect(hasAnyLine(readings)).toBe(true);
    expect(hasAnyLine([{ number: 1, t: 0, boxes: [[]] }])).toBe(false);
  });
});
