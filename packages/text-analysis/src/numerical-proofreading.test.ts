import { describe, expect, it } from 'vitest';
import { rectVertices, type TextBlock } from './geometry.js';
import { blockConfidence, hasLetterInNumber, proofread, seriesConfidences, unsureReasons } from './numerical-proofreading.js';

const sure = (values: string[], corrected: boolean[] = values.map(() => false)) =>
  unsureReasons({ values, confidences: values.map(() => 95), corrected });

const square = rectVertices({ x: 0, y: 0, w: 10, h: 10 });

describe('unsure cells', () => {
  it('flags a reading under 70 % confidence and says the confidence', () => {
    const reasons = unsureReasons({ values: ['45', '46', '47'], confidences: [95, 41.4, null], corrected: [false, false, false] });
    expect(reasons).toEqual([[], ['confidence 41 %'], []]);
  });

  it('flags a lost decimal point against the values around it, and not the values next to it', () => {
    expect(sure(['45.1', '45.3', '455', '45.8', '46.0'])).toEqual([[], [], ['jumps from 45.3 to 455: decimal point lost?'], [], []]);
    expect(sure(['45', '4.5', '46'])[1]).toEqual(['jumps from 45 to 4.5: decimal point misplaced?']);
    // At the start of the series, against the one value after it.
    expect(sure(['455', '45.8', '46.0'])[0]).toEqual(['jumps from 45.8 to 455: decimal point lost?']);
  });

  it('flags a one-frame jump but not a steady counter or a change of level', () => {
    expect(sure(['20', '21', '22', '80', '23', '24'])[3]).toEqual(['jumps from 22 to 80 and back to 23']);
    expect(sure(['1', '2', '3', '4', '5', '6']).flat()).toEqual([]);
    expect(sure(['10', '10', '10', '50', '50', '50']).flat()).toEqual([]);
    // An empty frame is a gap, not a value: the neighbours are the readable values either side of it.
    expect(sure(['20', '', '21', '', '22'])).toEqual([[], ['no value read'], [], ['no value read'], []]);
  });

  it('flags two or three odd values in a row that the series returns from', () => {
    // A charger's power falling 2 kW a frame; two frames read from the wrong box (the battery's 46, 47).
    const power = ['150', '148', '146', '46', '47', '140', '138', '136'];
    const reasons = sure(power);
    expect(reasons[3]).toEqual(['jumps from 146 to 46, 47 and back to 140']);
    expect(reasons[4]).toEqual(['jumps from 146 to 46, 47 and back to 140']);
    expect([...reasons.slice(0, 3), ...reasons.slice(5)].flat()).toEqual([]);
    // Three frames with the decimal point lost, then back.
    const voltage = sure(['12.1', '12.1', '122', '123', '122', '12.3', '12.4']);
    expect(voltage.map((r) => r.length)).toEqual([0, 0, 1, 1, 1, 0, 0]);
    expect(voltage[3]).toEqual(['jumps from 12.1 to 122, 123, 122 and back to 12.3: decimal point lost?']);
    // A temperature with two misread frames, then on.
    expect(sure(['36.5', '36.6', '36.7', '86.7', '88.8', '36.9', '37.0']).map((r) => r.length)).toEqual([0, 0, 0, 1, 1, 0, 0]);
  });

  it('does not flag a real change of level that stays, however soon after it the series ends', () => {
    // A charger stepping from 50 kW to 150 kW and staying, and a speed that settles on a new level for 4 frames.
    expect(sure(['50', '50', '51', '150', '150', '149', '150', '148', '149', '150']).flat()).toEqual([]);
    expect(sure(['60', '61', '60', '95', '96', '95', '96', '61', '60']).flat()).toEqual([]);
    expect(sure(['20', '20', '20', '20', '80', '80']).flat()).toEqual([]);
    expect(sure(['20', '20', '20', '20', '80', '81', '82']).flat()).toEqual([]);
    // A step through a value in between, and a steady climb.
    expect(sure(['10', '10', '30', '50', '50', '50']).flat()).toEqual([]);
    expect(sure(Array.from({ length: 30 }, (_, s) => String(45 + s))).flat()).toEqual([]);
  });

  it('leaves a run alone once a person corrected one of its cells', () => {
    const values = ['150', '148', '146', '46', '47', '140'];
    const reasons = unsureReasons({ values, confidences: values.map(() => 95), corrected: [false, false, false, true, false, false] });
    expect(reasons[4]).toEqual([]);
  });

  it('flags a letter in a number, and leaves units and words alone', () => {
    expect(sure(['46.0', '4G.2', '46.5'])[1]).toEqual(['letter in a number']);
    // Read as 4 among 46s, it is off the pattern too (the chart leaves it out of its line); 46.O read as 46 is not.
    const confidences = [95, 95, 95, 95, 95];
    const corrected = [false, false, false, false, false];
    expect(proofread({ values: ['45.8', '46.0', '4G.2', '46.5', '46.9'], confidences, corrected }).offPattern).toEqual([false, false, true, false, false]);
    expect(proofread({ values: ['45.8', '46.0', '46.O', '46.5', '46.9'], confidences, corrected }).offPattern).toEqual([false, false, false, false, false]);
    for (const misread of ['2O', 'l5', '1O5', '4,S']) expect(hasLetterInNumber(misread), misread).toBe(true);
    for (const fine of ['Battery 20%', '150 kW', '88 km/h', '5s', '12:05', '-3.5 °C', 'Lap 3']) expect(hasLetterInNumber(fine), fine).toBe(false);
  });

  it('marks every blank between two values of the series, and none before its first value or after its last', () => {
    const reasons = sure(['', '', '44', '45', '', '', '47', '', '']);
    expect(reasons.map((r) => r.length)).toEqual([0, 0, 0, 0, 1, 1, 0, 0, 0]);
    expect(reasons[4]).toEqual(['no value read']);
    // An empty correction says the frame has no value: it is no longer unsure.
    const values = ['44', '', '46'];
    expect(unsureReasons({ values, confidences: [95, null, 95], corrected: [false, true, false] }).flat()).toEqual([]);
  });

  it('marks a value far off the rest of a series blank on most frames, and leaves it off the pattern', () => {
    // A phone-filmed temperature: blank on most frames, one reading 3722 for 37.2.
    const values = ['37.1', '', '', '37.2', '', '3722', '', '', '37.3', '', '37.2'];
    const { reasons, offPattern } = proofread({ values, confidences: values.map((v) => (v ? 92 : null)), corrected: values.map(() => false) });
    expect(reasons[5]).toEqual(['jumps from 37.2 to 3722: digits run together or decimal point lost?']);
    expect(offPattern.flatMap((off, i) => (off ? [i] : []))).toEqual([5]);
    expect(reasons.flatMap((r, i) => (r[0] === 'no value read' ? [i] : []))).toEqual([1, 2, 4, 6, 7, 9]);
    // A spike where the series changes level: the jump rules see neighbours that disagree; the outlier rule flags it.
    const stepping = ['20', '20', '20', '20', '600', '30', '30', '30', '30'];
    const found = proofread({ values: stepping, confidences: stepping.map(() => 92), corrected: stepping.map(() => false) });
    expect(found.reasons.map((r) => r.join())).toEqual(['', '', '', '', 'far off the values around it (25)', '', '', '', '']);
    expect(found.offPattern[4]).toBe(true);
  });

  it('never flags a corrected cell, and counts its corrected value as a neighbour', () => {
    const values = ['45.1', '45.3', '45.5', '45.8'];
    const reasons = unsureReasons({ values, confidences: [95, 95, 30, 95], corrected: [false, false, true, false] });
    expect(reasons.flat()).toEqual([]);
  });
});

describe('confidences', () => {
  it('takes the block\'s confidence, in percent, or the mean of its words\'', () => {
    expect(blockConfidence({ confidence: 0.9 })).toBe(90);
    expect(blockConfidence({ words: [{ text: '4', vertices: square, confidence: 80 }, { text: '5', vertices: square, confidence: 60 }] })).toBe(70);
    expect(blockConfidence({})).toBeNull();
  });

  it('gives each frame its block\'s confidence, null where the block is absent', () => {
    const block = (confidence: number): TextBlock => ({ text: '1', vertices: square, confidence });
    const frames = [[block(90)], [], [block(10), block(55)]];
    expect(seriesConfidences(frames, [{ frame: 0, index: 0 }, { frame: 2, index: 1 }])).toEqual([90, null, 55]);
  });
});

describe('unsure cells at the ends of a series', () => {
  it('blames the odd value, not the last one after it', () => {
    expect(sure(['45.1', '45.3', '455', '46.0'])).toEqual([[], [], ['jumps from 45.3 to 455: decimal point lost?'], []]);
    expect(sure(['455', '45.8', '46.0'])[0]).toHaveLength(1);
  });
});

describe('faint readings the neighbours confirm', () => {
  /*
   * The charger screen read at one frame a second for 45 s (Battery 20% + s, Power 150 kW - s, Elapsed mm:ss, as
   * sample-media draws it), and a temperature that ticks 0.1 every 10 s. The OCR read some right values faintly
   * (under 70 %) and got some wrong, faintly too.
   */
  const frames = 45;
  const battery = Array.from({ length: frames }, (_, s) => String(20 + s));
  const power = Array.from({ length: frames }, (_, s) => String(150 - s));
  const elapsed = Array.from({ length: frames }, (_, s) => `00:${String(s).padStart(2, '0')}`);
  const temperature = Array.from({ length: frames }, (_, s) => (21.4 + 0.1 * Math.floor(s / 10)).toFixed(1));

  /** The truth read with `faint` frames under 70 % and `wrong` frames read as given (faintly); the cells flagged. */
  function proofread(truth: string[], faint: number[], wrong: Record<number, string>) {
    const values = truth.map((v, i) => wrong[i] ?? v);
    const confidences = truth.map((_, i) => (faint.includes(i) || i in wrong ? 55 + (i % 14) : 93 + (i % 4)));
    const reasons = unsureReasons({ values, confidences, corrected: values.map(() => false) });
    const flagged = reasons.flatMap((r, i) => (r.length > 0 ? [i] : []));
    return {
      falseFlags: flagged.filter((i) => !(i in wrong)),
      missed: Object.keys(wrong).map(Number).filter((i) => !flagged.includes(i)),
      faintFlagsBefore: faint.length + Object.keys(wrong).length,
    };
  }

  it('leaves right values that continue the series unflagged, and still flags every misread', () => {
    // Right but faint: single frames, two faint frames side by side, one next to a misread.
    const cases = [
      proofread(battery, [3, 9, 17, 18, 30, 41], { 24: '49', 33: '58' }),
      proofread(power, [2, 7, 12, 26, 27, 39], { 15: '185', 20: '136' }),
      proofread(elapsed, [4, 11, 22, 35], { 29: '00:23' }),
      // A misread of the tick as the value before it (21.5 read 21.4 on frame 10) must stay flagged.
      proofread(temperature, [3, 14, 15, 16, 25, 36, 44], { 10: '21.4', 31: '21.9' }),
    ];
    for (const c of cases) expect(c.missed).toEqual([]);
    // Before: every faint cell was flagged (23 right values and 7 misreads). Now: only the right values whose
    // neighbour was faint or wrong (18 beside 17, 17 beside 18, 26 and 27, 15 between 14 and 16, 16, the last frame).
    expect(cases.reduce((n, c) => n + c.faintFlagsBefore, 0)).toBe(30);
    expect(cases.map((c) => c.falseFlags)).toEqual([[17, 18], [26, 27], [], [14, 15, 16, 44]]);
  });

  it('does not count a neighbour read without a confidence, or corrected to another value, as confirming', () => {
    expect(unsureReasons({ values: ['45', '46', '47'], confidences: [95, 41, null], corrected: [false, false, false] })[1]).toEqual(['confidence 41 %']);
    expect(unsureReasons({ values: ['45', '46', '47'], confidences: [95, 41, 95], corrected: [false, false, false] })[1]).toEqual([]);
    expect(unsureReasons({ values: ['45', '46', '48'], confidences: [95, 41, 30], corrected: [false, false, true] })[1]).toEqual(['confidence 41 %']);
  });
});
