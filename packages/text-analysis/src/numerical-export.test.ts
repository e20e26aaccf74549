import { describe, expect, it } from 'vitest';
import { rectVertices, type TextBlock } from './geometry.js';
import { formatFrameShare, numericalCsv, numericalRows, numericalTxt, orderByPosition, seriesValues, withCorrections } from './numerical-export.js';
import { defaultBlockSettings } from './text-cleaning.js';

const at = (text: string, y: number, originalText?: string): TextBlock => ({
  text,
  vertices: rectVertices({ x: 0, y, w: 100, h: 20 }),
  ...(originalText !== undefined ? { originalText } : {}),
});

const frames: TextBlock[][] = [
  [at('Power 150 kW', 340), at('Battery 20%', 180)],
  [at('Battery 21%', 182)],
  [at('Power 148 kW', 338), at('Battery 22%', 180)],
];
const times = [{ t: 0 }, { t: 5 }, { t: 65 }];
const numbers = { ...defaultBlockSettings(''), numbersOnly: true };

describe('numerical export', () => {
  const power = seriesValues(frames, [{ frame: 0, index: 0 }, { frame: 2, index: 0 }], 'Power Block', numbers);
  const battery = seriesValues(frames, [0, 1, 2].map((frame) => ({ frame, index: frame === 1 ? 0 : 1 })), 'Battery', defaultBlockSettings(''));

  it('cleans each frame\'s value and leaves frames without the block empty', () => {
    expect(power.values).toEqual(['150', '', '148']);
    expect(power.count).toBe(2);
    expect(power.originals).toBeNull();
    // The unit comes from the text before cleaning (Numbers only dropped it from the values).
    expect(power.unit).toBe('kW');
    expect(battery.unit).toBe('%');
  });

  it('writes Frame, Time (m:ss), then the series top to bottom, names quoted', () => {
    const csv = numericalCsv(times, [power, battery]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual(['Frame,Time,"Battery","Power Block"', '1,0:00,Battery 20%,150', '2,0:05,Battery 21%,', '3,1:05,Battery 22%,148', '']);
  });

  it('orders series as the screen reads: top first, then left to right along a line', () => {
    // SPEED and ALTITUDE side by side, ALTITUDE's smaller digits a few pixels higher; a third reading below them.
    const place = (name: string, averageX: number, averageY: number, averageHeight: number) => ({ name, averageX, averageY, averageHeight });
    const ordered = orderByPosition([place('Altitude', 877, 629, 46), place('Below', 200, 760, 50), place('Speed', 244, 635, 50), place('Nowhere', 0, Number.POSITIVE_INFINITY, 0)]);
    expect(ordered.map((s) => s.name)).toEqual(['Speed', 'Altitude', 'Below', 'Nowhere']);
    expect(battery.averageX).toBe(50);
    expect(battery.averageHeight).toBe(20);
  });

  it('writes a TXT for reading: a paragraph per frame with a value, series top first, corrections in', () => {
    // The person corrected Battery on frame 2 and cleared Power's reading on frame 3.
    const corrected = [withCorrections(power, new Map([[2, '']])), withCorrections(battery, new Map([[1, '21 %']]))];
    const txt = numericalTxt(times, corrected);
    expect(txt.startsWith('\uFEFF')).toBe(true);
    expect(txt.slice(1)).toBe(
      ['Frame 1 at 0:00', 'Battery: Battery 20%', 'Power Block: 150', '', 'Frame 2 at 0:05', 'Battery: 21 %', '', 'Frame 3 at 1:05', 'Battery: Battery 22%', ''].join('\n'),
    );
    // Photos have no time; frames without any value are left out; translated series give both lines.
    const translated = seriesValues([[at('Batterie 20%', 100, 'Akku 20%')], []], [{ frame: 0, index: 0 }], 'Akku', defaultBlockSettings(''));
    expect(numericalTxt([{ t: null }, { t: null }], [translated]).slice(1)).toBe('Frame 1\nAkku (translated): Batterie 20%\nAkku (original): Akku 20%\n');
    expect(numericalTxt(times, [])).toBe('\uFEFF');
  });

  it('applies no corrections as the series itself', () => {
    expect(withCorrections(power, new Map())).toBe(power);
  });

  it('shows tenths of a second in the Time column when frames are under a second apart', () => {
    const s = seriesValues([[at('1', 0)], [at('2', 0)], [at('3', 0)]], [0, 1, 2].map((frame) => ({ frame, index: 0 })), 'N', defaultBlockSettings(''));
    expect(numericalRows([{ t: 0 }, { t: 0.5 }, { t: 1 }], [s]).map((row) => row[1])).toEqual(['Time', '0:00.0', '0:00.5', '0:01.0']);
  });

  it('adds translated and original columns when the blocks carry their original text', () => {
    const translated = [[at('Batterie 20%', 100, 'Akku 20%')], [at('Batterie 21%', 100, 'Akku 21%')]];
    const s = seriesValues(translated, [{ frame: 0, index: 0 }, { frame: 1, index: 0 }], 'Akku', defaultBlockSettings(''));
    expect(numericalRows([{ t: 0 }, { t: 1 }], [s])).toEqual([
      ['Frame', 'Time', 'Akku (translated)', 'Akku (original)'],
      ['1', '0:00', 'Batterie 20%', 'Akku 20%'],
      ['2', '0:01', 'Batterie 21%', 'Akku 21%'],
    ]);
  });

  it('guards values a spreadsheet would run and quotes names with quotes', () => {
    const s = seriesValues([[at('=1+1', 0)]], [{ frame: 0, index: 0 }], 'My "best" series', defaultBlockSettings(''));
    expect(numericalCsv([{ t: null }], [s]).slice(1).split('\r\n').slice(0, 2)).toEqual(['Frame,Time,"My ""best"" series"', "1,0:00,'=1+1"]);
  });

  it('shows the share of frames with two decimals only above 99%', () => {
    expect(formatFrameShare(359, 360)).toBe('99.72%');
    expect(formatFrameShare(360, 360)).toBe('100%');
    expect(formatFrameShare(9999, 10_000)).toBe('99.99%');
    expect(formatFrameShare(99_999, 100_000)).toBe('99.99%');
    expect(formatFrameShare(1, 3)).toBe('33%');
    expect(formatFrameShare(0, 0)).toBe('0%');
  });
});
