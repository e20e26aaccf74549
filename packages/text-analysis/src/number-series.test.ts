import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { trackBlocks } from './block-tracking.js';
import { rectVertices, type TextBlock } from './geometry.js';
import { parseValue } from './number-parsing.js';
import { cleaningFor, findNumberSeries, parseReading, valuesChange, type FoundSeries } from './number-series.js';
import { seriesValues } from './numerical-export.js';
import { syntheticDashboard } from './synthetic-dashboard.js';

/** A block with its top-left corner at x, y; about 0.55 of the height per character wide unless told. */
function block(text: string, x: number, y: number, h = 40, w = Math.round(text.length * h * 0.55)): TextBlock {
  return {
    text,
    vertices: rectVertices({ x, y, w, h }),
  };
}

/** Runs tracking as the view does and finds the series. */
function find(frames: TextBlock[][], options?: Parameters<typeof findNumberSeries>[2]): FoundSeries[] {
  return findNumberSeries(frames, trackBlocks(frames).tracks, options);
}

const names = (found: readonly FoundSeries[]) => found.map((s) => s.settings.seriesName);

/** The cleaned values of a found series, frame by frame, as the table and export.csv show them. */
function cleaned(frames: TextBlock[][], found: FoundSeries): string[] {
  const { seriesName, ...cleaning } = found.settings;
  return seriesValues(frames, found.points, seriesName, cleaning).values;
}

const mmss = (s: number) => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;

describe('parseReading', () => {
  it('gives a block’s value its label without the colon, its unit as usually written, and whether cleaning needs the text', () => {
    expect(parseReading('45%')).toEqual({ label: '', kind: 'number', value: 45, unit: '%', needsText: false });
    expect(parseReading('Battery: 45 %')).toMatchObject({ label: 'Battery', value: 45, unit: '%' });
    expect(parseReading('Pump 1 52.3 kW')).toMatchObject({ label: 'Pump 1', value: 52.3, unit: 'kW' });
    // A sign or a decimal comma is lost by Numbers only.
    expect(parseReading('Outside -3.5 °C')).toMatchObject({ label: 'Outside', value: -3.5, unit: '°C', needsText: true });
    expect(parseReading('+2')).toMatchObject({ value: 2, needsText: true });
    expect(parseReading('1,234 rpm')).toMatchObject({ value: 1234, unit: 'rpm', needsText: false });
    expect(parseReading('42,5 kW')).toMatchObject({ value: 42.5, needsText: true });
    // Units as usually written, whatever case the OCR read; an unknown one as read.
    expect(parseReading('1000 KM/H')).toMatchObject({ value: 1000, unit: 'km/h' });
    expect(parseReading('149 kw')).toMatchObject({ unit: 'kW' });
    expect(parseReading('12 Gal')).toMatchObject({ unit: 'Gal' });
    expect(parseReading('7.20')).toMatchObject({ value: 7.2, unit: null });
  });

  it('reads times as durations in seconds', () => {
    expect(parseReading('11:12')).toEqual({ label: '', kind: 'time', value: 672, unit: null, needsText: false });
    expect(parseReading('Elapsed 00:01:05')).toMatchObject({ label: 'Elapsed', kind: 'time', value: 65 });
  });

  it('is null where the text is not one reading', () => {
    for (const text of ['Battery', 'Lap 3 of many', '# 5', '12 furlongs']) expect(parseReading(text), text).toBeNull();
  });
});

describe('valuesChange', () => {
  it('calls a steady number, even misread now and then, static, and a moving one a series', () => {
    expect(valuesChange([2024, 2024, 2024, 2024, 2024])).toBe(false);
    expect(valuesChange([2024, 2024, 2021, 2024, 2024, 2024, 2024, 2024, 2024, 2024])).toBe(false);
    expect(valuesChange([20, 21, 22, 23, 24])).toBe(true);
    expect(valuesChange([45, 45, 45, 46, 46, 46])).toBe(true);
    expect(valuesChange([45, 46])).toBe(true);
  });

  it('finds a slowly changing value: a temperature that ticks up once in ten frames', () => {
    // One frame a second, the display ticking 0.1 every 10 s.
    const temperature = (frames: number) => Array.from({ length: frames }, (_, s) => Number((21.4 + 0.1 * Math.floor(s / 10)).toFixed(1)));
    expect(valuesChange(temperature(30))).toBe(true);
    // Ten frames, the tick on the last one.
    expect(valuesChange(temperature(11).slice(1))).toBe(true);
    // Ticks on the last two frames of a long steady stretch.
    expect(valuesChange([...Array(20).fill(21.4), 21.5, 21.6])).toBe(true);
    // A change that stays, even seen through a misread.
    expect(valuesChange([...Array(9).fill(80), 86, ...Array(9).fill(81)])).toBe(true);
  });

  it('keeps numbers that never change out, however they are misread', () => {
    // "220" read "228" on two frames apart, or on two frames in a row, and back to 220.
    expect(valuesChange([220, 220, 220, 228, 220, 220, 220, 228, 220, 220])).toBe(false);
    expect(valuesChange([220, 220, 220, 228, 228, 220, 220, 220, 220, 220])).toBe(false);
    // A model number misread as two different numbers on frames next to each other.
    expect(valuesChange([4471, 4471, 4471, 4477, 4411, 4471, 4471, 4471])).toBe(false);
    // Misread on the last frame, by more than the display's smallest step.
    expect(valuesChange([...Array(9).fill(2024), 2021])).toBe(false);
  });
});

describe('findNumberSeries', () => {
  it('names readings after the label to their left, not the header above, and leaves static numbers out', () => {
    // The charger screen as the OCR splits it at wide gaps: label, then value, on each line; a header with a year.
    const frames = Array.from({ length: 12 }, (_, s) => [
      block('DC FAST CHARGER', 80, 40, 44),
      block('2024', 1100, 40, 44),
      block('Battery', 80, 200, 40),
      block(`${20 + s}%`, 420, 180, 88),
      block('Power', 80, 360, 40),
      block(`${150 - s} kW`, 420, 340, 88),
      block('Elapsed', 80, 520, 40),
      block(mmss(s), 420, 500, 88),
      block('Model 4471', 80, 660, 30),
    ]);
    const found = find(frames);
    expect(names(found)).toEqual(['Battery (%)', 'Power (kW)', 'Elapsed']);
    expect(found.map((f) => f.kind)).toEqual(['number', 'number', 'time']);
    expect(found.every((f) => f.points.length === 12)).toBe(true);
    expect(cleaned(frames, found[0]!).slice(0, 3)).toEqual(['20', '21', '22']);
    expect(cleaned(frames, found[1]!).slice(0, 3)).toEqual(['150', '149', '148']);
    // Times keep their text, which the chart reads as a duration.
    expect(cleaned(frames, found[2]!)[11]).toBe('00:11');
    expect(parseValue('00:11')).toMatchObject({ kind: 'time', value: 11 });
  });

  it('names readings after the label directly above when nothing is to their left', () => {
    // Launch telemetry: SPEED and ALTITUDE over their values, side by side.
    const frames = Array.from({ length: 8 }, (_, s) => [
      block('SPEED', 60, 560, 30),
      block('ALTITUDE', 760, 560, 30),
      block(`${1000 + 137 * s} KM/H`, 60, 610, 60),
      block(`${(2 + 1.7 * s).toFixed(1)} KM`, 760, 610, 60),
    ]);
    const found = find(frames);
    expect(names(found)).toEqual(['SPEED (km/h)', 'ALTITUDE (km)']);
    expect(cleaned(frames, found[1]!)[2]).toBe('5.4');
  });

  it('names telemetry over a busy picture after the labels seen most consistently, in screen order', () => {
    // The OCR misses SPEED on a third of the frames and ALTITUDE on a quarter; the moving picture behind the values
    // is read as stray text, beside the speed on every other frame and between ALTITUDE and its value now and then.
    // ALTITUDE's digits are drawn smaller, so its boxes' centres sit a little higher than the speed's.
    const stray = ['ii', 'Wv', 'rn', 'Il', 'vV', 'nr'];
    const frames = Array.from({ length: 12 }, (_, s) => [
      ...(s % 3 === 1 ? [] : [block('SPEED', 60, 560, 30)]),
      ...(s % 4 === 2 ? [] : [block('ALTITUDE', 760, 560, 30)]),
      ...(s % 2 === 0 ? [block(stray[s / 2]!, 5, 615, 30, 40)] : []),
      ...(s % 5 === 0 ? [block('x', 800, 590, 15, 30)] : []),
      block(`${1000 + 137 * s} KM/H`, 67, 610, 50, 355),
      block(`${(2 + 1.7 * s).toFixed(1)} KM`, 765, 606, 46, 225),
    ]);
    const found = find(frames);
    expect(names(found)).toEqual(['SPEED (km/h)', 'ALTITUDE (km)']);
    expect(found[1]!.averageY).toBeLessThan(found[0]!.averageY);
    // A text at the label's place on too few frames names nothing.
    const rare = frames.map((blocks, s) => blocks.filter((b) => !['SPEED', 'ALTITUDE'].includes(b.text) || s < 3));
    expect(names(find(rare))).toEqual(['Value 1 (km/h)', 'Value 2 (km)']);
  });

  it('takes a unit in a block of its own as the unit, never as the next reading\'s label', () => {
    const frames = Array.from({ length: 6 }, (_, s) => [
      block('Voltage', 40, 100, 40),
      block(`${230 + (s % 3)}`, 300, 100, 40, 80),
      block('v', 390, 100, 40, 25),
      block(`${(1.5 + s / 10).toFixed(1)}`, 460, 100, 40, 80),
      block('A', 550, 100, 40, 25),
    ]);
    const found = find(frames);
    // The second reading's nearest left block is the unit "V": it stays unnamed rather than being called "V".
    expect(names(found)).toEqual(['Voltage (V)', 'Value 1 (A)']);
    expect(found[0]!.unit).toBe('V');
  });

  it('takes the label inside the block and removes it in the cleaning, digits in it or not', () => {
    const frames = Array.from({ length: 6 }, (_, s) => [block(`Battery ${40 + s}%`, 80, 180, 60), block(`Pump 1 ${(1.5 + s).toFixed(1)} kW`, 80, 300, 60)]);
    const found = find(frames);
    expect(names(found)).toEqual(['Battery (%)', 'Pump 1 (kW)']);
    expect(found[0]!.settings).toMatchObject({ wordsToRemove: 'Battery', numbersOnly: true });
    expect(cleaned(frames, found[0]!)[5]).toBe('45');
    // "Pump 1 1.5 kW" keeps its value's "1" whole.
    expect(cleaned(frames, found[1]!)).toEqual(['1.5', '2.5', '3.5', '4.5', '5.5', '6.5']);
  });

  it('keeps the sign of negative readings', () => {
    const frames = Array.from({ length: 6 }, (_, s) => [block('Outside', 40, 100, 40), block(`${(1 - s * 0.8).toFixed(1)} °C`, 300, 100, 40)]);
    const [outside] = find(frames);
    expect(outside!.settings.seriesName).toBe('Outside (°C)');
    expect(cleaned(frames, outside!)).toEqual(['1.0', '0.2', '-0.6', '-1.4', '-2.2', '-3.0']);
  });

  it('finds a temperature that ticks up every 10 s beside a fixed "220V" read wrong now and then', () => {
    const frames = Array.from({ length: 40 }, (_, s) => [
      block('Temperature', 40, 100, 40),
      block(`${(21.4 + 0.1 * Math.floor(s / 10)).toFixed(1)} °C`, 400, 100, 40),
      block('Supply', 40, 200, 40),
      block(s % 13 === 5 ? '228V' : '220V', 400, 200, 40),
    ]);
    const found = find(frames);
    expect(names(found)).toEqual(['Temperature (°C)']);
    expect(cleaned(frames, found[0]!).filter((v, i, all) => v !== all[i - 1])).toEqual(['21.4', '21.5', '21.6', '21.7']);
  });

  it('does not pick a number read the same on every frame, however often it is misread', () => {
    const frames = Array.from({ length: 10 }, (_, s) => [block('Serial', 40, 40, 30), block(s === 4 ? '4477' : '4471', 200, 40, 30), block('Speed', 40, 200, 40), block(`${50 + s}`, 300, 200, 40)]);
    expect(names(find(frames))).toEqual(['Speed']);
  });

  it('tells a person when nothing changes: no series on a slide of text and static numbers', () => {
    const frames = Array.from({ length: 5 }, () => [block('Quarterly results', 40, 40, 50), block('2024', 600, 40, 50), block('Revenue grew 12%', 40, 200, 40)]);
    expect(find(frames)).toEqual([]);
  });

  it('calls unlabelled readings Value 1, 2 top first, and never takes a name in use', () => {
    const frames = Array.from({ length: 5 }, (_, s) => [block(`${s * 3}`, 500, 300, 40), block(`${s * 2}`, 500, 100, 40), block('Temp', 40, 500, 40), block(`${20 + s}`, 300, 500, 40)]);
    const found = find(frames, { takenNames: ['temp'] });
    expect(names(found)).toEqual(['Value 1', 'Value 2', 'Temp 2']);
    expect(found[0]!.averageY).toBeLessThan(found[1]!.averageY);
  });

  it('leaves out tracks already selected', () => {
    const frames = Array.from({ length: 5 }, (_, s) => [block('A', 40, 100, 40), block(`${s}`, 200, 100, 40), block('B', 40, 300, 40), block(`${s * 2}`, 200, 300, 40)]);
    const tracks = trackBlocks(frames).tracks;
    const first = findNumberSeries(frames, tracks);
    const again = findNumberSeries(frames, tracks, { excludeTrackIds: new Set(first[0]!.trackIds) });
    expect(names(again)).toEqual(['B']);
  });

  it('joins the pieces of a reading that tracking split while it was not read', () => {
    // Missing on frames 4 to 6: more than tracking's allowable disappearance, so two tracks.
    const frames = Array.from({ length: 12 }, (_, s) => [block('Power', 40, 100, 40), ...(s >= 4 && s <= 6 ? [] : [block(`${100 + s * 7} kW`, 300, 100, 40)])]);
    expect(trackBlocks(frames).tracks).toHaveLength(3);
    const found = find(frames);
    expect(names(found)).toEqual(['Power (kW)']);
    expect(found[0]!.trackIds).toHaveLength(2);
    expect(found[0]!.points).toHaveLength(9);
  });

  it('finds every field of a busy synthetic dashboard, named after its label, without the passing texts', () => {
    const dashboard = syntheticDashboard({ frames: 60, fields: 12, transients: 6, seed: 3 });
    const found = find(dashboard.frames);
    // Each field's first clean reading says its label and unit ("Pump 1 52.3 kW").
    const expected = Array.from({ length: dashboard.fieldCount }, (_, k) => {
      for (let f = 0; f < dashboard.frames.length; f++) {
        const i = dashboard.field[f]!.indexOf(k);
        if (i < 0) continue;
        const m = /^(.*) [\d.]+ (\S+)$/.exec(dashboard.frames[f]![i]!.text)!;
        return `${m[1]} (${m[2]})`;
      }
      return '';
    });
    expect(new Set(names(found))).toEqual(new Set(expected));
    for (const series of found) expect(series.points.length).toBeGreaterThanOrEqual(50);
  });
});

describe('findNumberSeries on real OCR', () => {
  // The Basic engine's reading of sample-media's makeDashboardVideo: labels left (Battery, Power, Voltage with its
  // unit V apart), labels above (Speed, Elapsed), a title and a year that never change. "kW" is often read "kw".
  const recorded = JSON.parse(readFileSync(new URL('../test/fixtures/dashboard-ocr-1s.json', import.meta.url), 'utf8')) as {
    frames: { t: number; blocks: { text: string; corners: [number, number][] }[] }[];
  };
  const frames: TextBlock[][] = recorded.frames.map((f) => f.blocks.map((b) => ({ text: b.text, vertices: b.corners.map(([x, y]) => ({ x, y })) })));

  it('finds the five series of the generated dashboard, each named right, with the values on screen', () => {
    const found = find(frames);
    // DASHBOARD_SERIES in sample-media, top of the screen first.
    expect(names(found)).toEqual(['Battery (%)', 'Power (kW)', 'Voltage (V)', 'Speed (km/h)', 'Elapsed']);
    expect(found.map((f) => f.points.length)).toEqual([12, 12, 12, 12, 12]);
    expect(cleaned(frames, found[0]!)).toEqual(Array.from({ length: 12 }, (_, s) => String(45 + s)));
    expect(cleaned(frames, found[1]!)).toEqual(Array.from({ length: 12 }, (_, s) => String(150 - 2 * s)));
    expect(cleaned(frames, found[2]!)).toEqual(Array.from({ length: 12 }, (_, s) => String(230 + (s % 4))));
    expect(cleaned(frames, found[3]!)).toEqual(Array.from({ length: 12 }, (_, s) => String(60 + 3 * s)));
    expect(cleaned(frames, found[4]!)).toEqual(Array.from({ length: 12 }, (_, s) => `11:${12 + s}`));
  });
});

describe('cleaningFor', () => {
  it('keeps numbers only for plain numbers, the text for times, and the sign for signed numbers', () => {
    expect(cleaningFor('number', '', '%', false)).toMatchObject({ numbersOnly: true, wordsToRemove: '' });
    expect(cleaningFor('time', 'Elapsed', null, false)).toMatchObject({ numbersOnly: false, wordsToRemove: 'Elapsed' });
    expect(cleaningFor('number', '', 'km/h', true)).toMatchObject({ numbersOnly: false, wordsToRemove: 'km h', charactersToRemove: '/' });
  });
});
