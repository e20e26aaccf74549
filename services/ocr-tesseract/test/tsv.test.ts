import { describe, expect, it } from 'vitest';
import { parseTsv } from '../src/domain/tsv.js';
import { mergeLines, wantsMaskPass } from '../src/domain/recognize.js';
import { boxVertices, isAbsurdBox } from '../src/domain/geometry.js';

const HEADER = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';
const row = (level: number, line: number, word: number, box: [number, number, number, number], conf: number, text = '') =>
  [level, 1, 1, 1, line, word, ...box, conf, text].join('\t');

describe('parseTsv', () => {
  it('groups words (level 5) under their lines (level 4) with boxes and confidence', () => {
    const tsv = [
      HEADER,
      row(1, 0, 0, [0, 0, 640, 360], -1),
      row(4, 1, 0, [10, 20, 200, 30], -1),
      row(5, 1, 1, [10, 20, 90, 30], 96.5, 'Battery'),
      row(5, 1, 2, [110, 22, 100, 28], 91.25, '85%'),
      row(4, 2, 0, [10, 80, 100, 30], -1),
      row(5, 2, 1, [10, 80, 100, 30], 88, '42.5'),
      '',
    ].join('\n');
    const lines = parseTsv(tsv);
    expect(lines).toHaveLength(2);
    expect(lines[0]!.words.map((w) => w.text)).toEqual(['Battery', '85%']);
    expect(lines[0]!.words[1]).toEqual({ text: '85%', box: { left: 110, top: 22, width: 100, height: 28 }, confidence: 91.25 });
    expect(lines[1]!.box).toEqual({ left: 10, top: 80, width: 100, height: 30 });
  });

  it('skips malformed rows and answers nothing for output that is not TSV', () => {
    expect(parseTsv('Error: no image')).toEqual([]);
    const lines = parseTsv([HEADER, 'garbage', row(4, 1, 0, [0, 0, 10, 10], -1), '5\t1\t1\t1\t1\t1\tx\t0\t10\t10\t90\tbad', row(5, 1, 1, [0, 0, 10, 10], 90, 'ok')].join('\n'));
    expect(lines.flatMap((l) => l.words.map((w) => w.text))).toEqual(['ok']);
  });
});

describe('geometry', () => {
  it('gives 4 vertices clockwise from the top-left', () => {
    expect(boxVertices({ left: 10, top: 20, width: 30, height: 40 })).toEqual([
      { x: 10, y: 20 },
      { x: 40, y: 20 },
      { x: 40, y: 60 },
      { x: 10, y: 60 },
    ]);
  });
  it('calls empty, outside and whole-frame boxes absurd', () => {
    expect(isAbsurdBox({ left: 0, top: 0, width: 0, height: 10 }, 100, 100)).toBe(true);
    expect(isAbsurdBox({ left: 90, top: 0, width: 20, height: 10 }, 100, 100)).toBe(true);
    expect(isAbsurdBox({ left: 0, top: 0, width: 100, height: 100 }, 100, 100)).toBe(true);
    expect(isAbsurdBox({ left: 5, top: 5, width: 20, height: 10 }, 100, 100)).toBe(false);
  });
});

describe('mergeLines', () => {
  const word = (text: string, left: number, confidence: number, top = 10) => ({ text, box: { left, top, width: 50, height: 20 }, confidence });
  it('keeps one reading of a word both passes saw, the more confident one, and everything only one pass saw', () => {
    const bare = { words: [word('HOTE1', 100, 40), word('river', 160, 60)], confidence: 50 };
    const mask = { words: [word('HOTEL', 101, 95), word('river', 161, 96)], confidence: 95.5 };
    const onlyBare = { words: [word('1959', 400, 90, 200)], confidence: 90 };
    const merged = mergeLines([bare, onlyBare, mask]);
    expect(merged.map((l) => l.words.map((w) => w.text).join(' '))).toEqual(['HOTEL river', '1959']);
  });
  it('keeps the words of a line that the better line did not hold', () => {
    const bare = { words: [word('Battery', 10, 90), word('85%', 70, 90)], confidence: 90 };
    const mask = { words: [word('85%', 71, 97)], confidence: 97 };
    const merged = mergeLines([bare, mask]);
    expect(merged.flatMap((l) => l.words.map((w) => w.text)).sort()).toEqual(['85%', 'Battery']);
  });
});

describe('wantsMaskPass', () => {
  it('runs the mask pass for a little white over a picture, not for a white page or a frame without white', () => {
    expect(wantsMaskPass('auto', 0.02, 'numerical')).toBe(true);
    expect(wantsMaskPass('auto', 0.9, 'presentation')).toBe(false);
    expect(wantsMaskPass('auto', 0, 'numerical')).toBe(false);
    expect(wantsMaskPass('auto', 0.9, 'captions')).toBe(true);
    expect(wantsMaskPass('never', 0.02, 'captions')).toBe(false);
    expect(wantsMaskPass('always', 0, 'numerical')).toBe(true);
  });
});
