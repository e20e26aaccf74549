import { describe, expect, it } from 'vitest';
import { readPage, type TessWord } from './reading';

const word = (text: string, x0: number, y0: number, x1: number, y1: number, confidence = 92): TessWord => ({ text, confidence, bbox: { x0, y0, x1, y1 } });
const page = (...lines: TessWord[][]) => ({ blocks: [{ paragraphs: [{ lines: lines.map((words) => ({ words })) }] }] });

describe('readPage', () => {
  it('keeps confident words with normalised boxes, cuts lines at wide gaps, and reads top to bottom', () => {
    const reading = readPage(
      page(
        [word('Power', 80, 360, 200, 400), word('120', 420, 340, 560, 430), word('kW', 580, 340, 660, 430)],
        [word('Battery', 80, 200, 220, 240), word('45%', 420, 180, 560, 270), word('~', 600, 180, 620, 270, 40)],
      ),
      1000,
      500,
    );
    expect(reading.text).toBe('Battery\n45%\nPower\n120 kW');
    expect(reading.words.map((w) => [w.text, w.run])).toEqual([
      ['Battery', 0],
      ['45%', 1],
      ['Power', 2],
      ['120', 3],
      ['kW', 3],
    ]);
    expect(reading.words[0]).toEqual({ text: 'Battery', nbox: { x: 0.08, y: 0.4, w: 0.14, h: 0.08 }, conf: 92, run: 0 });
  });

  it('drops blank words, words under confidence 80 and whole-frame boxes; an empty page reads as nothing', () => {
    expect(readPage(page([word('  ', 0, 0, 10, 10), word('noise', 10, 10, 50, 30, 79.9), word('frame', 0, 0, 1000, 500)]), 1000, 500)).toEqual({ text: '', words: [] });
    expect(readPage({ blocks: null }, 10, 10)).toEqual({ text: '', words: [] });
  });
});

describe('readPage with the white-mask pass', () => {
  it('merges the passes as the server does: one reading per spot, the more confident, nothing lost', () => {
    const bare = page([word('HOTE1', 100, 10, 150, 30, 85), word('river', 160, 10, 210, 30, 84)], [word('1959', 400, 200, 450, 220, 90)]);
    const mask = page([word('HOTEL', 101, 10, 151, 30, 95), word('river', 161, 10, 211, 30, 96)]);
    const reading = readPage([bare, mask], 1000, 500);
    expect(reading.text).toBe('HOTEL river\n1959');
    expect(reading.words.map((w) => [w.text, w.run])).toEqual([
      ['HOTEL', 0],
      ['river', 0],
      ['1959', 1],
    ]);
  });
});
